/** First-run set-up: an organization with a project, its owner, and an all-scopes personal API key. */
import type { Db } from '../pg/client.js';
import { insertOrganizationWithOwner } from './organizations.js';
import { createPersonalApiKey } from './personal-api-keys.js';
import { createUser } from './users.js';

export interface BootstrapResult {
  organization_id: string;
  project_id: number;
  project_api_key: string;
  personal_api_key: string;
  user_email: string;
}

export async function hasAnyOrganization(db: Db): Promise<boolean> {
  return Boolean(await db('organizations').first('id'));
}

export async function bootstrap(
  db: Db,
  input: { email: string; organizationName: string; projectName: string },
): Promise<BootstrapResult> {
  return db.transaction(async (trx) => {
    const user = await createUser(trx, { email: input.email, first_name: 'Admin' });
    const { organization, environment } = await insertOrganizationWithOwner(
      trx,
      user.id,
      { name: input.organizationName },
      input.projectName,
    );
    const { key } = await createPersonalApiKey(trx, { userId: user.id, label: 'bootstrap', scopes: ['*'] });
    return {
      organization_id: organization.id,
      project_id: environment.project_id,
      project_api_key: environment.api_token,
      personal_api_key: key,
      user_email: user.email,
    };
  });
}
