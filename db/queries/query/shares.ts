/**
 * An environment's share of the query endpoint's synchronous runs, and its user's: at most so many at once
 * across every process of the server, past which a query is answered 429 at once (as PostHog answers a team
 * over its concurrency limit), and within a process no more sessions of the read pool than their shares
 * (db/pg/session-shares.ts). The user's share is what a key cannot multiply by making more organizations.
 *
 * The counts live in PostgreSQL: a query takes one of the environment's slots and one of its user's, each a
 * session-level advisory lock (slot class + slot, environment or user id), on the very session that runs it,
 * and gives them back before the session returns to its pool. A process that dies takes its slots with it, as
 * its sessions end; a slot cannot outlive its session, and a session that could not give it back is discarded.
 */
import type { ClientBase } from 'pg';
import { errors } from '../../core/errors.js';
import { MAX_QUERY_SLOTS } from '../../core/query-limits.js';
import { discardConnection, isDiscarded, type ReadDb } from '../../pg/client.js';
import { asUnavailable } from '../../pg/errors.js';
import { runQuery } from '../../pg/query.js';
import { tenantReader, type ReadTenant } from '../../pg/session-shares.js';

/**
 * First key of the slot locks, plus the slot's number (ASCII "HgS" and the slot as its last byte); the second
 * key is the environment id. Other advisory locks of Hedgerow have classes of their own (db/queries/ingestion.ts,
 * db/queries/query/status.ts).
 */
const QUERY_SLOT_LOCK_CLASS = 0x48675300;

/** The same for the slots of users (ASCII "HgU" and the slot), the second key the user id. */
const USER_SLOT_LOCK_CLASS = 0x48675500;

export { MAX_QUERY_SLOTS };

/** What the 429 suggests: a synchronous query's slot is usually given back within a second. */
export const SLOT_RETRY_AFTER_SECONDS = 1;

/**
 * One statement that takes the first free slot, if any: CASE tries its arms in order and stops at the first that
 * holds, so at most one lock is taken. Null when every slot is held.
 */
function takeSlotSql(lockClass: number, limit: number): string {
  const arms = Array.from({ length: Math.min(limit, MAX_QUERY_SLOTS) }, (_, slot) => `when pg_try_advisory_lock(${lockClass + slot}, $1::int) then ${slot}`);
  return `select case ${arms.join(' ')} end as slot`;
}

/**
 * How long a query that finds every slot held keeps trying before its 429. A query stopped at its deadline or its
 * budget closes its session rather than reusing it, and PostgreSQL releases that session's slots only once the
 * session has ended, a moment after the caller got its answer: a caller's next query must not find them still held.
 */
const SLOT_GRACE_MS = 1_000;
const SLOT_RETRY_EVERY_MS = 200;

async function takeSlotWithin(session: ClientBase, take: string, id: number, graceMs: number): Promise<number | null> {
  const deadline = performance.now() + graceMs;
  for (;;) {
    const slot = (await runQuery<{ slot: number | null }>(session, take, [id])).rows[0]?.slot ?? null;
    if (slot !== null || performance.now() + SLOT_RETRY_EVERY_MS > deadline) return slot;
    await new Promise((resolve) => setTimeout(resolve, SLOT_RETRY_EVERY_MS));
  }
}

export function tooManyQueries(limit: number, holder: 'environment' | 'user' = 'environment') {
  return errors.tooManyQueries(
    `Exceeded maximum concurrency limit: ${limit} ${limit === 1 ? 'query' : 'queries'} at once for this ${holder}. Retry when one has finished.`,
    SLOT_RETRY_AFTER_SECONDS,
  );
}

/** Synchronous queries at once: of one environment, and of one user across all of its environments; 0: no limit. */
export interface QueryLimits {
  perEnvironment: number;
  perUser: number;
}

interface SlotKind {
  lockClass: number;
  id: number;
  limit: number;
  holder: 'environment' | 'user';
  take: string;
}

/**
 * The read pool for the tenant's synchronous queries: each session it lends has taken one of the environment's
 * slots and one of the user's (or the lending fails with the 429 of the first that has none), and gives them
 * back before it returns. Without limits, only the process's shares of sessions.
 */
export function queryReader(reader: ReadDb, tenant: ReadTenant, limits: QueryLimits): ReadDb {
  const kinds: SlotKind[] = [];
  if (limits.perEnvironment > 0) {
    const { perEnvironment: limit } = limits;
    kinds.push({ lockClass: QUERY_SLOT_LOCK_CLASS, id: tenant.environmentId, limit, holder: 'environment', take: takeSlotSql(QUERY_SLOT_LOCK_CLASS, limit) });
  }
  if (limits.perUser > 0 && tenant.userId !== null) {
    const { perUser: limit } = limits;
    kinds.push({ lockClass: USER_SLOT_LOCK_CLASS, id: tenant.userId, limit, holder: 'user', take: takeSlotSql(USER_SLOT_LOCK_CLASS, limit) });
  }
  if (kinds.length === 0) return tenantReader(reader, tenant);
  /** The locks each session lent holds: [lock class + slot, id]. */
  const slots = new Map<ClientBase, Array<[number, number]>>();
  const giveBack = async (session: ClientBase, locks: Array<[number, number]>) => {
    for (const [lockClass, id] of locks) {
      // A discarded session is closing: its end releases the slots.
      if (isDiscarded(session)) return;
      await runQuery(session, 'select pg_advisory_unlock($1::int, $2::int)', [lockClass, id]).catch(() =>
        discardConnection(session, 'its query slot could not be given back'),
      );
    }
  };
  return tenantReader(reader, tenant, {
    async lent(session) {
      const taken: Array<[number, number]> = [];
      for (const kind of kinds) {
        let slot: number | null;
        try {
          slot = await takeSlotWithin(session, kind.take, kind.id, SLOT_GRACE_MS);
        } catch (error) {
          // Whether a lock was taken before the failure is unknown: the session's end releases any.
          discardConnection(session, 'taking a query slot failed');
          throw asUnavailable(error);
        }
        if (slot === null) {
          await giveBack(session, taken);
          throw tooManyQueries(kind.limit, kind.holder);
        }
        taken.push([kind.lockClass + slot, kind.id]);
      }
      slots.set(session, taken);
    },
    async returning(session) {
      const taken = slots.get(session);
      if (taken === undefined) return;
      slots.delete(session);
      await giveBack(session, taken);
    },
  });
}
