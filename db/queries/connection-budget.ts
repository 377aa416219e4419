/**
 * How many more sessions the database will accept from ordinary roles: what the supervisor divides among its
 * worker processes (handlers/server/supervisor.ts).
 */
import type { Db } from '../pg/client.js';

export interface ConnectionBudget {
  /** `max_connections`. */
  max: number;
  /** Slots only superusers (and, from PostgreSQL 16, roles with pg_use_reserved_connections) may take. */
  reserved: number;
  /** Client sessions open now, other than the one asking. */
  used: number;
}

export async function readConnectionBudget(db: Db): Promise<ConnectionBudget> {
  // reserved_connections exists from PostgreSQL 16 on; current_setting(…, true) is null before.
  const { rows } = await db.raw<{ rows: Array<{ max: number; reserved: number; used: number }> }>(
    `select current_setting('max_connections')::int as max,
            current_setting('superuser_reserved_connections')::int
              + coalesce(nullif(current_setting('reserved_connections', true), '')::int, 0) as reserved,
            (select count(*)::int from pg_stat_activity
              where backend_type = 'client backend' and pid <> pg_backend_pid()) as used`,
  );
  const row = rows[0]!;
  return { max: row.max, reserved: row.reserved, used: row.used };
}
