/**
 * Who a personal API key is, and what it may reach, remembered between requests.
 *
 * Why: every API request asks the database who is calling (one prepared statement and a round trip, a
 * noticeable share of a simple request). The answer changes only when a key, a user, a membership, an
 * environment or an organization does.
 *
 * Why it stays exact: PostgreSQL tells. Every write of db/queries/ to those tables sends a notification on the
 * channel below in its own transaction (db/queries/access-changes.ts), whichever process makes it (this server,
 * the admin CLI, another server), and every notification empties the cache. The cache answers only
 * while its listening session is up: from the moment that session is lost until it is back and listening again,
 * every lookup goes to the database, so a change can never be missed. The operations that change access
 * themselves (marked `x-hedgerow-changes-access` in the spec) also empty it before answering
 * (handlers/server/openapi-backend.ts), so that the writer's next request never needs the notification. A lookup that was
 * already running when the cache was emptied does not store its answer (it may have read the old rows).
 * Entries also expire after `ttlMs`, a bound on anything unforeseen, and only
 * found answers are stored: unknown keys always ask the database. A listening session that died without a word
 * (a half-open connection) is found by a heartbeat: a query on it every `heartbeatMs` that must answer within
 * `heartbeatTimeoutMs`. Remembered answers are frozen, as every request that gets one shares it.
 *
 * What it relies on: writers that announce their changes. One made outside db/queries/ (an operator's psql)
 * is unheard until entries expire, unless it sends `select pg_notify('hedgerow_access', '<table>')` itself, in
 * its transaction or after it. And a connection of its own that keeps its session (a pooler in transaction mode
 * cannot hold a LISTEN).
 */
import pg from 'pg';
import type { Logger } from 'pino';
import { connectionStringOf, deadlinesOf, DEFAULT_DEADLINES, type Db } from '../pg/client.js';

/** The channel every access change is announced on (db/queries/access-changes.ts). */
export const ACCESS_CHANNEL = 'hedgerow_access';

/** The listening session's name in pg_stat_activity. */
export const ACCESS_LISTENER_NAME = 'hedgerow access listener';

export interface AccessCacheOptions {
  ttlMs: number;
  maxEntries: number;
  /** First wait before listening again after the session was lost; doubles up to `maxRetryMs`. */
  retryMs: number;
  maxRetryMs: number;
  /** How often the listening session is asked whether it is alive, and how long it has to answer. */
  heartbeatMs: number;
  heartbeatTimeoutMs: number;
  /** Longest wait to open the listening session; its statements must answer within `heartbeatTimeoutMs`. */
  connectTimeoutMs: number;
}

const DEFAULTS: AccessCacheOptions = {
  ttlMs: 60_000,
  maxEntries: 10_000,
  retryMs: 250,
  maxRetryMs: 10_000,
  heartbeatMs: 15_000,
  heartbeatTimeoutMs: 5_000,
  connectTimeoutMs: DEFAULT_DEADLINES.connectTimeoutMs,
};

/** Freezes a remembered answer, with the objects and arrays in it. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export class AccessCache {
  private readonly entries = new Map<string, { value: unknown; expiresAt: number }>();
  private readonly options: AccessCacheOptions;
  /** Counts the times the cache was emptied: a lookup stores its answer only if none happened meanwhile. */
  private generation = 0;
  private listener: pg.Client | null = null;
  private listening = false;
  private retryMs: number;
  private retryTimer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Lookups answered from memory and from the database (for /_metrics). */
  readonly lookups = { memory: 0, database: 0 };
  /** Times a listening session started (for /_metrics: more than one means sessions were lost). */
  listens = 0;

  constructor(
    private readonly connectionString: string,
    private readonly logger: Logger,
    options: Partial<AccessCacheOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.retryMs = this.options.retryMs;
  }

  static forDb(db: Db, logger: Logger, options: Partial<AccessCacheOptions> = {}): AccessCache {
    return new AccessCache(connectionStringOf(db), logger, { connectTimeoutMs: deadlinesOf(db).connectTimeoutMs, ...options });
  }

  /** Whether the cache may answer: its listening session is up. */
  get isListening(): boolean {
    return this.listening;
  }

  /** Starts listening; resolves once listening, or once the first attempt failed (it then retries by itself). */
  async start(): Promise<void> {
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.lose();
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
  }

  /**
   * The remembered answer for `key`, or `load()`'s (remembered when it is not null, `keep` accepts it, the cache
   * is listening, and nothing was changed while it ran).
   */
  async remember<T extends object>(key: string, load: () => Promise<T | null>, keep: (value: T) => boolean = () => true): Promise<T | null> {
    if (this.listening) {
      const entry = this.entries.get(key);
      if (entry && entry.expiresAt > Date.now()) {
        this.lookups.memory += 1;
        return entry.value as T;
      }
    }
    this.lookups.database += 1;
    const generation = this.generation;
    const value = await load();
    if (value !== null && keep(value) && this.listening && generation === this.generation) {
      if (this.entries.size >= this.options.maxEntries) this.entries.clear();
      this.entries.set(key, { value: deepFreeze(value), expiresAt: Date.now() + this.options.ttlMs });
    }
    return value;
  }

  /** Forgets everything (something that decides access may have changed). */
  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const listener = new pg.Client({
      connectionString: this.connectionString,
      application_name: ACCESS_LISTENER_NAME,
      keepAlive: true,
      // A database that stopped answering must not leave the cache waiting to listen: it retries instead.
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      query_timeout: this.options.heartbeatTimeoutMs,
    });
    this.listener = listener;
    listener.on('notification', () => this.clear());
    // Once connected, an error or the end of the session both mean notifications may be missed from now on.
    listener.on('error', (error) => this.lost(listener, error));
    listener.on('end', () => this.lost(listener, null));
    try {
      await listener.connect();
      await listener.query(`listen ${ACCESS_CHANNEL}`);
    } catch (error) {
      this.lost(listener, error);
      return;
    }
    if (this.listener !== listener) return; // stopped, or lost while connecting
    // Anything may have changed while no one was listening.
    this.clear();
    this.listening = true;
    this.listens += 1;
    this.retryMs = this.options.retryMs;
    this.startHeartbeat(listener);
  }

  /** Asks the listening session a question now and then: no answer in time means it is gone. */
  private startHeartbeat(listener: pg.Client): void {
    let beating = false;
    this.heartbeat = setInterval(() => {
      if (beating) return; // the one asked is not late yet: its own deadline decides
      beating = true;
      const deadline = setTimeout(
        () => this.lost(listener, new Error(`no answer from the listening session in ${this.options.heartbeatTimeoutMs} ms`)),
        this.options.heartbeatTimeoutMs,
      );
      deadline.unref();
      listener.query('select 1').then(
        () => {
          beating = false;
          clearTimeout(deadline);
        },
        (error: unknown) => {
          clearTimeout(deadline);
          this.lost(listener, error);
        },
      );
    }, this.options.heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private lose(): void {
    this.stopHeartbeat();
    this.listening = false;
    this.clear();
  }

  private lost(listener: pg.Client, error: unknown): void {
    if (this.listener !== listener) return;
    this.listener = null;
    this.lose();
    listener.removeAllListeners('notification');
    listener.on('error', () => undefined);
    void listener.end().catch(() => undefined);
    if (this.stopped) return;
    this.logger.warn({ err: error ?? undefined, retryInMs: this.retryMs }, 'access cache: not listening; every lookup asks the database');
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.listen();
    }, wait);
    this.retryTimer.unref();
  }
}
