/**
 * Personal API keys' request budgets (`rate_limit_windows`), counted in the database so that every host on it
 * counts against one budget per key. A key's window is a minute that begins with its first request after the
 * previous window ended, as PostHog's default throttle; the database's clock decides, so hosts whose clocks
 * disagree still agree on it.
 */
import type { Db } from '../pg/client.js';

const WINDOW = "interval '1 minute'";

/**
 * Counts one request of the key `keyId` in one statement: 0 when it is within `perMinute`, else the whole
 * seconds (at least 1) until its window ends. Requests past the budget are counted too, so the count alone
 * says whether this one was allowed, whichever host counted the others at the same moment.
 */
export async function takeRequest(db: Db, keyId: string, perMinute: number): Promise<number> {
  const { rows } = await db.raw<{ rows: Array<{ requests: number; wait_seconds: number }> }>(
    `insert into rate_limit_windows as w (key_id, started_at, requests) values (?, now(), 1)
     on conflict (key_id) do update set
       started_at = case when w.started_at <= now() - ${WINDOW} then now() else w.started_at end,
       requests = case when w.started_at <= now() - ${WINDOW} then 1 else least(w.requests, ?) + 1 end
     returning requests, ceil(extract(epoch from w.started_at + ${WINDOW} - now()))::int as wait_seconds`,
    [keyId, perMinute],
  );
  const row = rows[0]!;
  return row.requests <= perMinute ? 0 : Math.max(1, row.wait_seconds);
}

/** Deletes the windows that ended: what keeps the table as small as the keys used in the last minute. */
export async function deleteEndedWindows(db: Db): Promise<number> {
  return db('rate_limit_windows').where('started_at', '<=', db.raw(`now() - ${WINDOW}`)).delete();
}
