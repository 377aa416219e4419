/** Accounts for tests, made through db/ as the admin CLI makes them. */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/pg/client.js';
import { setMembership } from '../../db/queries/memberships.js';
import { insertOrganizationWithOwner } from '../../db/queries/organizations.js';
import { createPersonalApiKey } from '../../db/queries/personal-api-keys.js';
import { createUser } from '../../db/queries/users.js';
import { MembershipLevel, type EnvironmentRow, type OrganizationRow, type UserRow } from '../../db/rows.js';

export interface Account {
  user: UserRow;
  organization: OrganizationRow;
  environment: EnvironmentRow;
  key: string;
}

export const unique = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

/** A user who owns a new organization with one project, and a personal API key with `scopes`. */
export async function newAccount(db: Db, options: { scopes?: string[]; name?: string } = {}): Promise<Account> {
  const user = await createUser(db, { email: `${unique('user')}@example.com`, first_name: 'Test' });
  const { organization, environment } = await db.transaction((trx) =>
    insertOrganizationWithOwner(trx, user.id, { name: options.name ?? unique('Org') }),
  );
  const { key } = await createPersonalApiKey(db, { userId: user.id, label: 'test', scopes: options.scopes ?? ['*'] });
  return { user, organization, environment, key };
}

/** Adds a user to `organization` at `level` and gives them a key. */
export async function newMember(
  db: Db,
  organization: OrganizationRow,
  level: MembershipLevel,
  options: { scopes?: string[]; scopedOrganizations?: string[]; scopedTeams?: number[] } = {},
): Promise<{ user: UserRow; key: string }> {
  const user = await createUser(db, { email: `${unique('member')}@example.com` });
  await setMembership(db, organization.id, user.id, level);
  const { key } = await createPersonalApiKey(db, {
    userId: user.id,
    label: 'test',
    scopes: options.scopes ?? ['*'],
    scopedOrganizations: options.scopedOrganizations ?? null,
    scopedTeams: options.scopedTeams ?? null,
  });
  return { user, key };
}

export { MembershipLevel };
