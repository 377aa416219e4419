/**
 * The one way to open the database: a Knex instance on the `pg` driver, whatever PostgreSQL is behind the URL
 * (the machine's, a managed one, or the embedded one of db/pg/embedded.ts).
 *
 * Every wait for the database has a deadline (DatabaseDeadlines): opening a connection, waiting for one from the
 * pool, and each statement, twice over: PostgreSQL's `statement_timeout` cancels a statement that runs too long,
 * and `pg`'s `query_timeout` a little later gives up on a database that stopped answering at all (a silent peer
 * cannot cancel anything). A connection given up on that way is destroyed, never pooled again: its statement may
 * still be running, and its next answer would be read as the next statement's. Failures to reach the database
 * reject as ApiError 503 (db/pg/errors.ts), from any Knex query and any pooled connection.
 */
import { createRequire } from 'node:module';
import net from 'node:net';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import type { ClientBase } from 'pg';
import { parseJson } from '../core/exact-json.js';
import { MAX_JSON_DEPTH } from '../core/json-limits.js';
import { asUnavailable, isClientTimeout } from './errors.js';

export type Db = Knex;

/** Sessions of a Db's pool at most (createDb), and of a read-only pool (createReadDb), unless told otherwise. */
export const DB_POOL_MAX = 10;
export const READ_DB_POOL_MAX = 5;

export interface DatabaseDeadlines {
  /** Longest wait to open a connection, and to be lent one by the pool (which may open one). */
  connectTimeoutMs: number;
  /** PostgreSQL cancels a statement of the API's and capture's pool that runs longer. */
  statementTimeoutMs: number;
}

export const DEFAULT_DEADLINES: DatabaseDeadlines = { connectTimeoutMs: 5_000, statementTimeoutMs: 30_000 };

/**
 * How much longer than a statement's timeout `pg` waits for its answer before giving up on the connection: the
 * server's own cancel, whose error names the cause, should come first whenever the database is alive.
 */
const SILENCE_GRACE_MS = 1_000;

/**
 * How often PostgreSQL looks whether the client of a running statement is still there, on every session: the
 * statements of a process that died (killed, crashed) are cancelled then, instead of running to their timeout
 * for nobody and holding the sessions and locks of the processes that replace it.
 */
export const CLIENT_CHECK_MS = 1_000;

/** TCP keepalive probes from this long of silence on: a peer that vanished shows as an error on an idle socket. */
const KEEPALIVE_DELAY_MS = 10_000;

export function createDb(databaseUrl: string, options: { poolMax?: number; deadlines?: Partial<DatabaseDeadlines> } = {}): Db {
  const deadlines = { ...DEFAULT_DEADLINES, ...options.deadlines };
  const db = knex({
    client: GuardedPgClient,
    connection: {
      connectionString: databaseUrl,
      ...sessionDeadlines(deadlines, deadlines.statementTimeoutMs),
      options: `-c client_connection_check_interval=${CLIENT_CHECK_MS}`,
    },
    pool: { min: 0, max: options.poolMax ?? DB_POOL_MAX },
    acquireConnectionTimeout: deadlines.connectTimeoutMs,
  });
  deadlinesOfDb.set(db, deadlines);
  return db;
}

/** `pg` connection settings that bound every wait on a session whose statements may run `statementTimeoutMs`. */
function sessionDeadlines(deadlines: DatabaseDeadlines, statementTimeoutMs: number) {
  const timeout = Math.max(1, Math.trunc(statementTimeoutMs));
  return {
    statement_timeout: timeout,
    query_timeout: timeout + SILENCE_GRACE_MS,
    connectionTimeoutMillis: Math.max(1, deadlines.connectTimeoutMs),
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  };
}

const deadlinesOfDb = new WeakMap<Db, DatabaseDeadlines>();

/** The deadlines a Db was created with. */
export function deadlinesOf(db: Db): DatabaseDeadlines {
  return deadlinesOfDb.get(db) ?? DEFAULT_DEADLINES;
}

/** A `pg` connection as Knex pools it: Knex never lends again one whose `__knex__disposed` is set. */
type PooledConnection = ClientBase & { __knex__disposed?: unknown; connection?: { stream?: { destroy(): void } } };

/**
 * Makes sure a connection is never lent again, and closes it now: its statement may still be running, or the
 * peer went silent. Closing the socket also makes PostgreSQL roll back whatever transaction it had open.
 */
export function discardConnection(connection: unknown, reason: string): void {
  const pooled = connection as PooledConnection;
  pooled.__knex__disposed ??= reason;
  pooled.connection?.stream?.destroy();
}

/** What `pg` keeps of a session: where it connected, and the key PostgreSQL gave it to cancel its statements. */
interface CancellableSession {
  host?: string;
  port?: number;
  processID?: number | null;
  secretKey?: number | null;
}

/** The CancelRequest code of PostgreSQL's protocol (1234 << 16 | 5678). */
const CANCEL_REQUEST_CODE = 80877102;

/**
 * Asks PostgreSQL to cancel the statement a session is running, by a cancel request on a connection of its own:
 * no session of a pool is needed, nor any wait for an answer (PostgreSQL sends none). Best effort: a failure to
 * reach the server is ignored, as the session is discarded by the caller anyway.
 */
export function cancelStatement(connection: unknown): void {
  const session = connection as CancellableSession;
  if (typeof session.processID !== 'number' || typeof session.secretKey !== 'number' || !session.host || !session.port) return;
  const request = Buffer.alloc(16);
  request.writeInt32BE(16, 0);
  request.writeInt32BE(CANCEL_REQUEST_CODE, 4);
  request.writeInt32BE(session.processID, 8);
  request.writeInt32BE(session.secretKey, 12);
  const socket = session.host.startsWith('/') ? net.connect(`${session.host}/.s.PGSQL.${session.port}`) : net.connect(session.port, session.host);
  socket.setTimeout(5_000, () => socket.destroy());
  socket.on('error', () => socket.destroy());
  socket.on('connect', () => socket.end(request));
}

/** Whether a connection was discarded (discardConnection, or by Knex for an error of its own). */
export function isDiscarded(connection: unknown): boolean {
  return (connection as PooledConnection).__knex__disposed !== undefined;
}

const requireCjs = createRequire(import.meta.url);
/** Knex's PostgreSQL dialect (its `client: 'pg'`), to be extended. */
const PgDialect = requireCjs('knex/lib/dialects/postgres/index.js') as typeof Knex.Client;

/**
 * Knex's PostgreSQL client, with its pool's connections lent and its statements run under the rules above: an
 * unreachable database rejects as ApiError 503, and a connection whose statement timed out client-side is
 * discarded. (A subclass rather than a wrapper: Knex's transactions run on clients made from its prototype.)
 */
class GuardedPgClient extends PgDialect {
  override async acquireConnection(): Promise<unknown> {
    try {
      return (await super.acquireConnection()) as unknown;
    } catch (error) {
      throw asUnavailable(error);
    }
  }

  override async query(connection: unknown, statement: unknown): Promise<unknown> {
    try {
      return (await super.query(connection, statement)) as unknown;
    } catch (error) {
      if (isClientTimeout(error)) discardConnection(connection, 'a statement got no answer in time');
      throw asUnavailable(error);
    }
  }
}

/**
 * A pool whose sessions are read-only and cut off every statement after `statementTimeoutMs`: for the API's
 * reads that run user-written filters (the event listing). A query needs no transaction of its own to be
 * bounded and harmless, which spares each one the round trip of a BEGIN and a COMMIT.
 */
export type ReadDb = Db & { readonly __readOnlySessions: true };

const JSON_OID = 114;
const JSONB_OID = 3802;

/**
 * `pg`'s type parsers, with json and jsonb read so that integers beyond 2^53 stay exact (db/core/exact-json.ts):
 * the listing shows stored values as capture stored them.
 */
const EXACT_JSON_TYPES = {
  getTypeParser: (oid: number, format: string): unknown =>
    (oid === JSON_OID || oid === JSONB_OID) && format !== 'binary'
      ? (text: string) => parseJson(text, MAX_JSON_DEPTH)
      : pg.types.getTypeParser(oid, format as 'text'),
};

/** The connection string a Db was created with (for sessions of its own: read-only pools, LISTEN). */
export function connectionStringOf(db: Db): string {
  return (db.client.config.connection as { connectionString: string }).connectionString;
}

/**
 * `checkClientEveryMs`: PostgreSQL looks this often whether the client of a running statement is still connected
 * and cancels the statement when it is gone, instead of running it to its end for nobody (CLIENT_CHECK_MS unless
 * told otherwise).
 */
export function createReadDb(db: Db, statementTimeoutMs: number, options: { poolMax?: number; checkClientEveryMs?: number } = {}): ReadDb {
  const deadlines = deadlinesOf(db);
  const clientCheck = ` -c client_connection_check_interval=${Math.trunc(options.checkClientEveryMs ?? CLIENT_CHECK_MS)}`;
  const reader = knex({
    client: GuardedPgClient,
    connection: {
      connectionString: connectionStringOf(db),
      ...sessionDeadlines(deadlines, statementTimeoutMs),
      options: `-c default_transaction_read_only=on${clientCheck}`,
      types: EXACT_JSON_TYPES,
    },
    pool: { min: 0, max: options.poolMax ?? READ_DB_POOL_MAX },
    acquireConnectionTimeout: deadlines.connectTimeoutMs,
  });
  deadlinesOfDb.set(reader, deadlines);
  return reader as ReadDb;
}

/** True when the database answers a trivial query within `timeoutMs` (waiting for a connection included). */
export async function isReachable(db: Db, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const answered = db
    .raw('select 1')
    .options({ query_timeout: Math.max(1, timeoutMs) })
    .then(
      () => true,
      () => false,
    );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}
