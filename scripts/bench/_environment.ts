/**
 * The environment a benchmark measures and a personal API key for it: made by the first start's bootstrap on a
 * fresh database, or found (with a new key) on one kept from an earlier run with --database.
 */
import type { Db } from '../../db/pg/client.js';
import { bootstrap } from '../../db/queries/bootstrap.js';
import { createPersonalApiKey } from '../../db/queries/personal-api-keys.js';
import type { EnvironmentRow } from '../../db/rows.js';

export async function benchEnvironment(db: Db): Promise<{ environment: EnvironmentRow; key: string }> {
  const found = (await db('environments').orderBy('id').first()) as EnvironmentRow | undefined;
  if (!found) {
    const first = await bootstrap(db, { email: 'bench@hedgerow.local', organizationName: 'Bench', projectName: 'Bench' });
    const environment = (await db('environments').where({ id: first.project_id }).first()) as EnvironmentRow;
    return { environment, key: first.personal_api_key };
  }
  const user = (await db('users').orderBy('id').first()) as { id: number };
  return { environment: found, key: (await createPersonalApiKey(db, { userId: user.id, label: 'bench', scopes: ['*'] })).key };
}
