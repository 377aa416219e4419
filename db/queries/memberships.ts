import type { Db } from '../pg/client.js';
import { translated } from '../pg/errors.js';
import { changingAccess } from './access-changes.js';
import type { MembershipLevel } from '../rows.js';

/** Makes `userId` a member of the organization at `level`, or changes their level. */
export async function setMembership(db: Db, organizationId: string, userId: number, level: MembershipLevel): Promise<void> {
  await translated(() =>
    changingAccess(db, 'organization_memberships', (trx) =>
      trx('organization_memberships')
        .insert({ organization_id: organizationId, user_id: userId, level, updated_at: trx.fn.now() })
        .onConflict(['organization_id', 'user_id'])
        // The inserted row's values, not now() here: Citus runs the update on every node of a shared table and
        // only lets it use what gives the same answer on each.
        .merge(['level', 'updated_at']),
    ),
  );
}
