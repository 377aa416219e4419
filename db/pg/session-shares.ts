/**
 * Shares of a read pool between environments and between users (db/pg/client.ts createReadDb): within one
 * process, an environment holds at most all of the pool's sessions but one, and so does a user across all of
 * its environments (any key with organization:write makes environments at will), so that another user's read
 * always finds a session however many slow reads the first one sends. Reads past a share wait for one of its
 * own sessions to come back, never in front of another's, and as long as any read waits for a session of the
 * pool (the connect timeout); past that, a 429.
 *
 * The share is taken where a session is lent: `tenantReader` gives the pool as one environment and user see
 * it, to be handed to onReadSession (and sessionFreeNow) in place of the pool itself.
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

/**
 * Who a read is for: its environment, and the user of the API key that sent it (null: no user, as for reads
 * not made for a key). Each holds its own share: a user who makes more environments gets no more sessions.
 */
export interface ReadTenant {
  environmentId: number;
  userId: number | null;
}

/** The holders a tenant's session counts against, as keys of one map. */
function holdersOf(tenant: ReadTenant): string[] {
  return tenant.userId === null ? [`environment:${tenant.environmentId}`] : [`environment:${tenant.environmentId}`, `user:${tenant.userId}`];
}

interface Waiter {
  holders: readonly string[];
  grant(): void;
}

/**
 * Sessions held by each environment and each user, and the reads waiting for one of their own to come back:
 * a session counts against every holder of its read.
 */
class SessionShares {
  private readonly held = new Map<string, number>();
  private waiting: Waiter[] = [];

  constructor(readonly sessionsEach: number) {}

  hasRoom(holders: readonly string[]): boolean {
    return holders.every((holder) => (this.held.get(holder) ?? 0) < this.sessionsEach);
  }

  private count(holders: readonly string[], by: number): void {
    for (const holder of holders) {
      const count = (this.held.get(holder) ?? 0) + by;
      if (count <= 0) this.held.delete(holder);
      else this.held.set(holder, count);
    }
  }

  /**
   * Takes a share for every holder, waiting at most `waitMs` for their own sessions to come back. A session
   * that comes back goes to the reads already waiting that it lets fit, in their order, before any read that
   * comes later (give() grants them at once); a read that fits now never waits behind one that does not.
   */
  async take(holders: readonly string[], waitMs: number): Promise<void> {
    if (this.hasRoom(holders)) {
      this.count(holders, 1);
      return;
    }
    // Granted by give(), which counts the share for the waiter before waking it.
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        holders,
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((other) => other !== waiter);
        const full = holders.find((holder) => (this.held.get(holder) ?? 0) >= this.sessionsEach) ?? holders[0]!;
        reject(tooManySessions(this.sessionsEach, full.startsWith('user:') ? 'user' : 'environment'));
      }, waitMs);
      this.waiting.push(waiter);
    });
  }

  give(holders: readonly string[]): void {
    this.count(holders, -1);
    this.grantWaiters();
  }

  /** Grants the waiting reads that fit now, in their order: those left each have a holder without room. */
  private grantWaiters(): void {
    this.waiting = this.waiting.filter((waiter) => {
      if (!this.hasRoom(waiter.holders)) return true;
      this.count(waiter.holders, 1);
      waiter.grant();
      return false;
    });
  }

  /** Sessions the holder holds now (tests). */
  heldBy(holder: string): number {
    return this.held.get(holder) ?? 0;
  }
}

/**
 * An environment (or a user) waited for one of its own sessions as long as anyone waits for a session of the
 * pool: a 429 (the database is there; this one is using all of its share), not the 503 of an unavailable
 * database.
 */
function tooManySessions(sessions: number, holder: 'environment' | 'user') {
  return errors.tooManyQueries(
    `Exceeded maximum concurrency limit: ${sessions} database ${sessions === 1 ? 'session' : 'sessions'} at once for this ${holder}. Retry when a read has finished.`,
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

/** How many sessions one environment, or one user, may hold at once in the pool. */
export function sessionsPerEnvironment(reader: ReadDb): number {
  return sharesOf(reader).sessionsEach;
}

/** Sessions of the pool the environment holds now. */
export function sessionsHeldBy(reader: ReadDb, environmentId: number): number {
  return sharesOf(reader).heldBy(`environment:${environmentId}`);
}

/** Sessions of the pool the user holds now, across all of its environments. */
export function sessionsHeldByUser(reader: ReadDb, userId: number): number {
  return sharesOf(reader).heldBy(`user:${userId}`);
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
 * The pool as the tenant sees it, for onReadSession and sessionFreeNow: each session it lends counts against
 * the environment's share and the user's until it is back, and it is free now only when both have room too (a
 * read that takes a second session only when one is free then never waits on its own shares). With `hooks`,
 * each session lent is handed to them first, and back to them before it returns.
 */
export function tenantReader(reader: ReadDb, tenant: ReadTenant, hooks?: LentSessionHooks): ReadDb {
  const shares = sharesOf(reader);
  const holders = holdersOf(tenant);
  const pool = reader.client;
  const client = Object.create(pool as object, {
    acquireConnection: {
      value: async (): Promise<unknown> => {
        await shares.take(holders, deadlinesOf(reader).connectTimeoutMs);
        let session: unknown;
        try {
          session = await pool.acquireConnection();
        } catch (error) {
          shares.give(holders);
          throw error;
        }
        if (!hooks) return session;
        try {
          await hooks.lent(session as ClientBase);
        } catch (error) {
          await pool.releaseConnection(session).finally(() => shares.give(holders));
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
          shares.give(holders);
        }
      },
    },
    pool: {
      get: () => (shares.hasRoom(holders) ? (pool as unknown as { pool: unknown }).pool : NO_ROOM),
    },
  }) as ReadDb['client'];
  // Only `client` differs: onReadSession and sessionFreeNow read nothing else of the pool.
  return Object.create(reader as object, { client: { value: client } }) as ReadDb;
}

/** The pool as an environment sees it, for reads made for no user. */
export function environmentReader(reader: ReadDb, environmentId: number, hooks?: LentSessionHooks): ReadDb {
  return tenantReader(reader, { environmentId, userId: null }, hooks);
}
