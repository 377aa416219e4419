/**
 * Project API key → environment id, cached: every capture request names its project by key, and keys change
 * only when a project is created or deleted. Unknown keys are cached briefly too, so that a client sending a
 * wrong key cannot turn each of its requests into a query. Concurrent lookups of one key share one query.
 */
import type { Db } from '../../db/pg/client.js';
import { unavailableError } from '../../db/pg/group-commit.js';
import { isUnavailable } from '../../db/pg/errors.js';
import { findEnvironmentIdByApiToken } from '../../db/queries/ingestion.js';

export interface ProjectTokenOptions {
  ttlMs: number;
  unknownTtlMs: number;
  maxEntries: number;
  now: () => number;
}

const DEFAULTS: ProjectTokenOptions = { ttlMs: 60_000, unknownTtlMs: 5_000, maxEntries: 10_000, now: Date.now };

export class ProjectTokens {
  private readonly cache = new Map<string, { environmentId: number | null; expiresAt: number }>();
  private readonly inflight = new Map<string, Promise<number | null>>();
  private readonly options: ProjectTokenOptions;

  constructor(
    private readonly db: Db,
    options: Partial<ProjectTokenOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** The environment of `token`, or null when no project has it; 503 when the database cannot be asked. */
  async environmentId(token: string): Promise<number | null> {
    const now = this.options.now();
    const cached = this.cache.get(token);
    if (cached && cached.expiresAt > now) return cached.environmentId;
    let lookup = this.inflight.get(token);
    if (!lookup) {
      lookup = this.lookup(token).finally(() => this.inflight.delete(token));
      this.inflight.set(token, lookup);
    }
    return lookup;
  }

  /** Drops what is cached for `token` (its environment turned out to be gone). */
  forget(token: string): void {
    this.cache.delete(token);
  }

  private async lookup(token: string): Promise<number | null> {
    let environmentId: number | null;
    try {
      environmentId = await findEnvironmentIdByApiToken(this.db, token);
    } catch (error) {
      if (isUnavailable(error)) throw unavailableError();
      throw error;
    }
    if (this.cache.size >= this.options.maxEntries) this.cache.clear();
    const ttl = environmentId === null ? this.options.unknownTtlMs : this.options.ttlMs;
    this.cache.set(token, { environmentId, expiresAt: this.options.now() + ttl });
    return environmentId;
  }
}
