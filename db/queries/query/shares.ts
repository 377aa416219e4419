/**
 * An environment's share of the query endpoint's synchronous runs: at most `limit` at once across every process
 * of the server, past which a query is answered 429 at once (as PostHog answers a team over its concurrency
 * limit), and within a process no more sessions of the read pool than its share (db/pg/session-shares.ts).
 *
 * The count lives in PostgreSQL: a query takes one of the environment's `limit` slots, a session-level advisory
 * lock (slot class + slot, environment id), on the very session that runs it, and gives it back before the
 * session returns to its pool. A process that dies takes its slots with it, as its sessions end; a slot cannot
 * outlive its session, and a session that could not give it back is discarded.
 */
import type { ClientBase } from 'pg';
import { errors } from '../../core/errors.js';
import { MAX_QUERY_SLOTS } from '../../core/query-limits.js';
import { discardConnection, isDiscarded, type ReadDb } from '../../pg/client.js';
import { asUnavailable } from '../../pg/errors.js';
import { runQuery } from '../../pg/query.js';
import { environmentReader } from '../../pg/session-shares.js';

/**
 * First key of the slot locks, plus the slot's number (ASCII "HgS" and the slot as its last byte); the second
 * key is the environment id. Other advisory locks of Hedgerow have classes of their own (db/queries/ingestion.ts,
 * db/queries/query/status.ts).
 */
const QUERY_SLOT_LOCK_CLASS = 0x48675300;

export { MAX_QUERY_SLOTS };

/** What the 429 suggests: most queries take well under a second. */
export const SLOT_RETRY_AFTER_SECONDS = 1;

/**
 * One statement that takes the first free slot, if any: CASE tries its arms in order and stops at the first that
 * holds, so at most one lock is taken. Null when every slot is held.
 */
function takeSlotSql(limit: number): string {
  const arms = Array.from({ length: limit }, (_, slot) => `when pg_try_advisory_lock(${QUERY_SLOT_LOCK_CLASS + slot}, $1::int) then ${slot}`);
  return `select case ${arms.join(' ')} end as slot`;
}

/**
 * How long a query that finds every slot held keeps trying before its 429. A query stopped at its deadline or its
 * budget closes its session rather than reusing it, and PostgreSQL releases that session's slot only once the
 * session has ended, a moment after the caller got its answer: a caller's next query must not find it still held.
 */
const SLOT_GRACE_MS = 1_000;
const SLOT_RETRY_EVERY_MS = 50;

async function takeSlotWithin(session: ClientBase, take: string, environmentId: number, graceMs: number): Promise<number | null> {
  const deadline = performance.now() + graceMs;
  for (;;) {
    const slot = (await runQuery<{ slot: number | null }>(session, take, [environmentId])).rows[0]?.slot ?? null;
    if (slot !== null || performance.now() + SLOT_RETRY_EVERY_MS > deadline) return slot;
    await new Promise((resolve) => setTimeout(resolve, SLOT_RETRY_EVERY_MS));
  }
}

export function tooManyQueries(limit: number) {
  return errors.tooManyQueries(
    `Exceeded maximum concurrency limit: ${limit} ${limit === 1 ? 'query' : 'queries'} at once for this environment. Retry when one has finished.`,
    SLOT_RETRY_AFTER_SECONDS,
  );
}

/**
 * The read pool for the environment's synchronous queries: each session it lends has taken one of the
 * environment's `limit` slots (or the lending fails with the 429), and gives it back before it returns.
 * `limit` 0: no slots, only the process's share of sessions.
 */
export function queryReader(reader: ReadDb, environmentId: number, limit: number): ReadDb {
  if (limit <= 0) return environmentReader(reader, environmentId);
  const take = takeSlotSql(Math.min(limit, MAX_QUERY_SLOTS));
  const slots = new Map<ClientBase, number>();
  return environmentReader(reader, environmentId, {
    async lent(session) {
      let slot: number | null;
      try {
        slot = await takeSlotWithin(session, take, environmentId, SLOT_GRACE_MS);
      } catch (error) {
        // Whether a lock was taken before the failure is unknown: the session's end releases any.
        discardConnection(session, 'taking a query slot failed');
        throw asUnavailable(error);
      }
      if (slot === null) throw tooManyQueries(limit);
      slots.set(session, slot);
    },
    async returning(session) {
      const slot = slots.get(session);
      if (slot === undefined) return;
      slots.delete(session);
      // A discarded session is closing: its end releases the slot.
      if (isDiscarded(session)) return;
      await runQuery(session, 'select pg_advisory_unlock($1::int, $2::int)', [QUERY_SLOT_LOCK_CLASS + slot, environmentId]).catch(() =>
        discardConnection(session, 'its query slot could not be given back'),
      );
    },
  });
}
