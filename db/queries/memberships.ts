import type { Db } from '../pg/client.js';
import { translated } from '../pg/errors.js';
import { changingAccess } from './access-changes.js';
import type { MembershipLevel } from '../rows.js';

/** Makes `userId` a member of the organization at `level`, or changes their level. */
export async function setMembership(db: Db, organizationId: string, userId: number, level: MembershipLevel): Promise<void> {
  await translated(() =>
    changingAccess(db, 'organization_memberships', (trx) =>
      trx('organization_memberships')
        .insert({ organization_id: organizationId, user_id: userId, level })
        .onConflict(['organization_id', 'user_id'])
        .merge({ level, updated_at: trx.fn.now() }),
    ),
  );
}
