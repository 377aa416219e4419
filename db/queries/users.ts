import type { components } from '../../generated/api.js';
import type { Db } from '../pg/client.js';
import { translated } from '../pg/errors.js';
import { changingAccess } from './access-changes.js';
import type { UserRow } from '../rows.js';

export type UserBasic = NonNullable<components['schemas']['UserBasic']>;

export interface NewUser {
  email: string;
  first_name?: string;
  last_name?: string;
  role_at_organization?: string | null;
}

export async function createUser(db: Db, user: NewUser): Promise<UserRow> {
  return translated(() =>
    changingAccess(db, 'users', async (trx) => {
      const [row] = await trx<UserRow>('users')
        .insert({
          email: user.email.trim().toLowerCase(),
          first_name: user.first_name ?? '',
          last_name: user.last_name ?? '',
          role_at_organization: user.role_at_organization ?? null,
        })
        .returning('*');
      return row!;
    }),
  );
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db<UserRow>('users').where({ email: email.trim().toLowerCase() }).first();
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db<UserRow>('users').where({ id }).first();
}

/** Remembers which organization and environment the user works in (what `@current` names, so access changes). */
export async function setCurrentTeam(db: Db, userId: number, organizationId: string, teamId: number): Promise<void> {
  await changingAccess(db, 'users', (trx) =>
    trx('users').where({ id: userId }).update({ current_organization_id: organizationId, current_team_id: teamId }),
  );
}

export function toUserBasic(row: UserRow): UserBasic {
  return {
    id: row.id,
    uuid: row.uuid,
    distinct_id: row.distinct_id,
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    is_email_verified: row.is_email_verified,
    hedgehog_config: row.hedgehog_config,
    role_at_organization: row.role_at_organization as UserBasic['role_at_organization'],
  };
}
