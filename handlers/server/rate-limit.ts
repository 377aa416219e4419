import type { Logger } from 'pino';
import type { Db } from '../../db/pg/client.js';
import { deleteEndedWindows, takeRequest } from '../../db/queries/rate-limit.js';

/** Counts one request for a key: 0 when allowed, else the seconds to wait (or a promise of either). */
export interface RequestBudget {
  take(key: string): number | Promise<number>;
}

/** How often one process deletes the windows that ended, so that the table holds only the last minute's keys. */
const CLEANUP_EVERY_MS = 60_000;

/**
 * A per-key request budget (a one-minute window of counts), as PostHog's default personal-API-key throttle,
 * counted in the database (db/queries/rate-limit.ts): every worker of every host behind a load balancer counts
 * against the same budget. The database is the one truth: when it is away the request fails as any other would.
 */
export class DatabaseRateLimiter implements RequestBudget {
  private lastCleanup: number;

  constructor(
    private readonly db: Db,
    private readonly perMinute: number,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    this.lastCleanup = now();
  }

  /** Counts one request for the key with this id; returns 0 when allowed, else the seconds to wait. */
  take(keyId: string): number | Promise<number> {
    if (this.perMinute <= 0) return 0;
    this.cleanUpNowAndThen();
    return takeRequest(this.db, keyId, this.perMinute);
  }

  /** Off the request's path: a request never waits for the cleanup, nor fails with it. */
  private cleanUpNowAndThen(): void {
    const now = this.now();
    if (now - this.lastCleanup < CLEANUP_EVERY_MS) return;
    this.lastCleanup = now;
    deleteEndedWindows(this.db).catch((error: unknown) => this.logger.warn({ err: error }, 'could not delete ended rate limit windows'));
  }
}
