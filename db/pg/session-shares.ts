/**
 * Shares of a read pool between environments (db/pg/client.ts createReadDb): within one process, an environment
 * holds at most all of the pool's sessions but one, so that another environment's read always finds a session
 * however many slow reads the first one sends. An environment's reads past its share wait for one of its own
 * sessions to come back, never in front of another environment's, and as long as any read waits for a session
 * of the pool (the connect timeout); past that, a 429.
 *
 * The share is taken where a session is lent: `environmentReader` gives the pool as one environment sees it, to
 * be handed to onReadSession (and sessionFreeNow) in place of the pool itself.
 */
import type { ClientBase } from 'pg';
import { errors } from '../core/errors.js';
import { deadlinesOf, type ReadDb } from './client.js';

/** Told of each session the environment is lent, before its work, and before the session goes back. */
export interface LentSessionHooks {
  /** May refuse the session by throwing: it goes back to the pool unused. */
  lent(session: ClientBase): Promise<void>;
  /** Must leave the session as it found it, or discard it (db/pg/client.ts discardConnection). */
  returning(session: ClientBase): Promise<void>;
}

/** Sessions held by each environment, and the reads of each waiting for one of its own to come back. */
class SessionShares {
  private readonly held = new Map<number, number>();
  private readonly waiting = new Map<number, Array<() => void>>();

  constructor(readonly sessionsEach: number) {}

  hasRoom(environmentId: number): boolean {
    return (this.held.get(environmentId) ?? 0) < this.sessionsEach;
  }

  /** Takes a share, waiting at most `waitMs` for one of the environment's own to come back. */
  async take(environmentId: number, waitMs: number): Promise<void> {
    if (this.hasRoom(environmentId)) {
      this.held.set(environmentId, (this.held.get(environmentId) ?? 0) + 1);
      return;
    }
    // Woken by give(), which hands its share straight over: the count does not change.
    await new Promise<void>((resolve, reject) => {
      const queue = this.waiting.get(environmentId) ?? [];
      const waiter = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const left = (this.waiting.get(environmentId) ?? []).filter((other) => other !== waiter);
        if (left.length > 0) this.waiting.set(environmentId, left);
        else this.waiting.delete(environmentId);
        reject(tooManySessions(this.sessionsEach));
      }, waitMs);
      queue.push(waiter);
      this.waiting.set(environmentId, queue);
    });
  }

  give(environmentId: number): void {
    const queue = this.waiting.get(environmentId);
    const next = queue?.shift();
    if (queue?.length === 0) this.waiting.delete(environmentId);
    if (next) {
      next();
      return;
    }
    const count = (this.held.get(environmentId) ?? 1) - 1;
    if (count <= 0) this.held.delete(environmentId);
    else this.held.set(environmentId, count);
  }

  /** Sessions the environment holds now (tests). */
  heldBy(environmentId: number): number {
    return this.held.get(environmentId) ?? 0;
  }
}

/**
 * An environment waited for one of its own sessions as long as anyone waits for a session of the pool: a 429
 * (the database is there; this environment is using all of its share), not the 503 of an unavailable database.
 */
function tooManySessions(sessions: number) {
  return errors.tooManyQueries(
    `Exceeded maximum concurrency limit: ${sessions} database ${sessions === 1 ? 'session' : 'sessions'} at once for this environment. Retry when a read has finished.`,
    SHARE_RETRY_AFTER_SECONDS,
  );
}

/** What that 429 suggests. */
const SHARE_RETRY_AFTER_SECONDS = 1;

const sharesOfPool = new WeakMap<ReadDb, SessionShares>();

function sharesOf(reader: ReadDb): SessionShares {
  let shares = sharesOfPool.get(reader);
  if (!shares) {
    const poolMax = (reader.client.config as { pool?: { max?: number } }).pool?.max ?? 1;
    shares = new SessionShares(Math.max(1, poolMax - 1));
    sharesOfPool.set(reader, shares);
  }
  return shares;
}

/** How many sessions one environment may hold at once in the pool. */
export function sessionsPerEnvironment(reader: ReadDb): number {
  return sharesOf(reader).sessionsEach;
}

/** Sessions of the pool the environment holds now. */
export function sessionsHeldBy(reader: ReadDb, environmentId: number): number {
  return sharesOf(reader).heldBy(environmentId);
}

/** What sessionFreeNow reads of a pool in which the environment has no room left: nothing free. */
const NO_ROOM = Object.freeze({
  max: 0,
  numFree: () => 0,
  numUsed: () => 0,
  numPendingAcquires: () => 0,
  numPendingCreates: () => 0,
});

/**
 * The pool as the environment sees it, for onReadSession and sessionFreeNow: each session it lends counts
 * against the environment's share until it is back, and it is free now only when the share has room too (a
 * read that takes a second session only when one is free then never waits on its own environment). With
 * `hooks`, each session lent is handed to them first, and back to them before it returns.
 */
export function environmentReader(reader: ReadDb, environmentId: number, hooks?: LentSessionHooks): ReadDb {
  const shares = sharesOf(reader);
  const pool = reader.client;
  const client = Object.create(pool as object, {
    acquireConnection: {
      value: async (): Promise<unknown> => {
        await shares.take(environmentId, deadlinesOf(reader).connectTimeoutMs);
        let session: unknown;
        try {
          session = await pool.acquireConnection();
        } catch (error) {
          shares.give(environmentId);
          throw error;
        }
        if (!hooks) return session;
        try {
          await hooks.lent(session as ClientBase);
        } catch (error) {
          await pool.releaseConnection(session).finally(() => shares.give(environmentId));
          throw error;
        }
        return session;
      },
    },
    releaseConnection: {
      value: async (session: unknown): Promise<unknown> => {
        try {
          // (A hook that fails discards the session itself: it goes back all the same, never to be lent again.)
          if (hooks) await hooks.returning(session as ClientBase).catch(() => undefined);
          return await pool.releaseConnection(session);
        } finally {
          shares.give(environmentId);
        }
      },
    },
    pool: {
      get: () => (shares.hasRoom(environmentId) ? (pool as unknown as { pool: unknown }).pool : NO_ROOM),
    },
  }) as ReadDb['client'];
  // Only `client` differs: onReadSession and sessionFreeNow read nothing else of the pool.
  return Object.create(reader as object, { client: { value: client } }) as ReadDb;
}
