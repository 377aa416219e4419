/** Personal API keys: issue, look up by the presented key, revoke. */
import { UUID_PATTERN } from '../core/text.js';
import type { Db } from '../pg/client.js';
import { translated } from '../pg/errors.js';
import { changingAccess } from './access-changes.js';
import { runPrepared, type PreparedStatement } from '../pg/prepared.js';
import type { PersonalApiKeyRow, UserRow } from '../rows.js';
import { hashPersonalApiKey, maskPersonalApiKey, newPersonalApiKey } from '../tokens.js';

/** Who is calling, once a personal API key has been recognised. */
export interface Principal {
  keyId: string;
  user: UserRow;
  scopes: readonly string[];
  /** Null: every organization the user belongs to. */
  scopedOrganizations: readonly string[] | null;
  /** Null: every environment of those organizations. */
  scopedTeams: readonly number[] | null;
}

export interface NewPersonalApiKey {
  userId: number;
  label: string;
  scopes: string[];
  scopedOrganizations?: string[] | null;
  scopedTeams?: number[] | null;
}

/** Creates a key and returns it in clear: the only time it exists outside the client's hands. */
export async function createPersonalApiKey(
  db: Db,
  input: NewPersonalApiKey,
): Promise<{ key: string; row: PersonalApiKeyRow }> {
  const key = newPersonalApiKey();
  return translated(() =>
    changingAccess(db, 'personal_api_keys', async (trx) => {
      const [row] = await trx<PersonalApiKeyRow>('personal_api_keys')
        .insert({
          user_id: input.userId,
          label: input.label,
          secure_value: hashPersonalApiKey(key),
          mask_value: maskPersonalApiKey(key),
          scopes: input.scopes,
          scoped_organizations: input.scopedOrganizations ?? null,
          scoped_teams: input.scopedTeams ?? null,
        })
        .returning('*');
      return { key, row: row! };
    }),
  );
}

/** `last_used_at` is refreshed at most this often, so that reads do not turn into a write per request. */
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

/** The key and its (active) user, as JSON so that the two tables' columns cannot clash. */
const FIND_PRINCIPAL: PreparedStatement = {
  name: 'hedgerow_find_principal',
  text: `select row_to_json(k.*) as key, row_to_json(u.*) as user
    from personal_api_keys k join users u on u.id = k.user_id
    where k.secure_value = $1 and u.is_active`,
};

export async function findPrincipal(db: Db, presentedKey: string): Promise<Principal | null> {
  const [row] = await runPrepared<{ key: PersonalApiKeyRow; user: UserRow }>(db, FIND_PRINCIPAL, [hashPersonalApiKey(presentedKey)]);
  return row ? principalOf(db, row.key, row.user) : null;
}

/** The principal of a recognised key and its user (as row_to_json gives them), noting that the key was used. */
export async function principalOf(db: Db, key: PersonalApiKeyRow, user: UserRow): Promise<Principal> {
  const lastUsed = key.last_used_at ? Date.parse(String(key.last_used_at)) : 0;
  if (Date.now() - lastUsed > LAST_USED_RESOLUTION_MS) {
    // Decides no access, so it is not announced (access-changes.ts): a lookup must not empty the cache it fills.
    await db('personal_api_keys').where({ id: key.id }).update({ last_used_at: db.fn.now() });
  }
  return {
    keyId: key.id,
    user: { ...user, created_at: new Date(user.created_at) },
    scopes: key.scopes,
    scopedOrganizations: key.scoped_organizations,
    scopedTeams: key.scoped_teams,
  };
}

/** Deletes a key named by the key itself, its id, or its mask (`phx_...abcd`); returns how many keys went. */
export async function revokePersonalApiKey(db: Db, keyIdOrMask: string): Promise<number> {
  const where = UUID_PATTERN.test(keyIdOrMask)
    ? { id: keyIdOrMask }
    : keyIdOrMask.includes('...')
      ? { mask_value: keyIdOrMask }
      : { secure_value: hashPersonalApiKey(keyIdOrMask) };
  return changingAccess(db, 'personal_api_keys', (trx) => trx('personal_api_keys').where(where).delete());
}
