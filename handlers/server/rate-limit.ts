/** Counts one request for a key: 0 when allowed, else the seconds to wait (or a promise of either). */
export interface RequestBudget {
  take(key: string): number | Promise<number>;
}

/**
 * A per-key request budget (a sliding one-minute window of counts), as PostHog's default personal-API-key
 * throttle. It lives in memory: under the supervisor only the primary keeps one, and workers ask it
 * (handlers/server/supervisor-link.ts), so that the budget is the same whatever the number of workers.
 */
export class RateLimiter implements RequestBudget {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request for `key`; returns 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    const window = this.windows.get(key);
    if (!window || now - window.startedAt >= 60_000) {
      this.windows.set(key, { startedAt: now, count: 1 });
      if (this.windows.size > 10_000) this.evictExpired(now);
      return 0;
    }
    if (window.count < this.perMinute) {
      window.count += 1;
      return 0;
    }
    return Math.max(1, Math.ceil((window.startedAt + 60_000 - now) / 1000));
  }

  private evictExpired(now: number): void {
    for (const [key, window] of this.windows) if (now - window.startedAt >= 60_000) this.windows.delete(key);
  }
}
