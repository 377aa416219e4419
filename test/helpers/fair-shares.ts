/**
 * What the tests of fair shares of the database (between environments, between users) have in common: a database
 * of their own with a server of the shares under test, each tenant's five events, the endless statements a
 * saturating tenant runs (see ENDLESS_QUERY), the query slots held, a read session held until the test lets it
 * go, and a server without shares.
 */
import type { Config } from '../../handlers/server/config.js';
import { createDb, createReadDb, type Db, type ReadDb } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { onReadSession } from '../../db/pg/read-session.js';
import { createDatabase, databaseUrl, dropDatabase } from './database.js';
import type { HttpClient } from './http.js';
import { startTestServer, type TestServer } from './server.js';
import { waitFor } from './wait.js';

/** Long enough that an endless query runs until the test cancels it. */
export const QUERY_TIMEOUT_MS = 60_000;
/** The share of synchronous queries each environment (and each user) is given. */
export const SYNC_LIMIT = 3;
/** The share of asynchronous queries queued or running each environment (and each user) is given. */
export const ASYNC_LIMIT = 10;
/** A query answered at once: [[5]] over FIVE_PAGEVIEWS. */
export const TRIVIAL_QUERY = 'select count() from events';

/** Five pageviews, one a day, by five people: a trivial count of them answers [[5]]. */
export const FIVE_PAGEVIEWS = ['alice', 'bob', 'carol', 'dave', 'erin'].map((distinct_id, day) => ({
  event: '$pageview',
  distinct_id,
  timestamp: `2024-01-0${day + 1}T10:00:00Z`,
}));

/** Runs `work` and answers its result with how long it took, in milliseconds. */
export async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/** The endless statements active in this database (compiled, each names its environment), but this session's. */
const ENDLESS_ACTIVE = `from pg_stat_activity
  where datname = current_database() and state = 'active' and query like '%join%join%join%' and pid <> pg_backend_pid()`;

/** The endless statements running now, by their sessions' pids and when each statement started. */
export async function endlessStatements(db: Db): Promise<Array<{ pid: number; started: string }>> {
  return (await db.raw(`select pid, query_start::text as started ${ENDLESS_ACTIVE}`)).rows as Array<{ pid: number; started: string }>;
}

/** Cancels every endless statement running now. */
export async function cancelEndlessStatements(db: Db): Promise<void> {
  await db.raw(`select pg_cancel_backend(pid) ${ENDLESS_ACTIVE}`);
}

/** The advisory lock classes of query slots (db/queries/query/shares.ts): the low byte is free. */
const SLOT_LOCK_CLASSES = { environment: 0x48675300, user: 0x48675500 } as const;

/** Query slots held now, of environments or of users: session advisory locks of that slot class. */
export async function querySlotsHeld(db: Db, holder: keyof typeof SLOT_LOCK_CLASSES): Promise<number> {
  const lowest = SLOT_LOCK_CLASSES[holder];
  const { rows } = await db.raw(
    `select count(*)::int as n from pg_locks where locktype = 'advisory' and objsubid = 2 and classid between ?::int and ?::int`,
    [lowest, lowest + 0xff],
  );
  return rows[0].n as number;
}

/** A promise the test settles when it chooses: `opened` resolves once `open` is called. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * Takes a read session of `reader` and holds it until `until` settles; answers once the session is held, with
 * the promise of its release.
 */
export async function holdReadSession(reader: ReadDb, until: Promise<void>): Promise<{ released: Promise<void> }> {
  let holds = false;
  const released = onReadSession(reader, 5_000, async (read) => {
    await read('select 1', []);
    holds = true;
    await until;
  });
  await waitFor('a read session to be held', async () => holds);
  return { released };
}

/**
 * Runs `work` with a read pool of `poolMax` sessions over a database whose waits for a session are short, so a
 * read waiting past its share is refused soon; both are destroyed after.
 */
export async function withShortWaitReader<T>(databaseUrl: string, poolMax: number, work: (reader: ReadDb) => Promise<T>): Promise<T> {
  const shortWaits = createDb(databaseUrl, { deadlines: { connectTimeoutMs: 300 } });
  const reader = createReadDb(shortWaits, 5_000, { poolMax });
  try {
    return await work(reader);
  } finally {
    await reader.destroy();
    await shortWaits.destroy();
  }
}

/** A database of its own, migrated, and a server over it; `close` cancels the endless statements first. */
export interface SharesDatabase {
  name: string;
  db: Db;
  server: TestServer;
  close(): Promise<void>;
}

export async function startSharesDatabase(prefix: string, config: Partial<Config>): Promise<SharesDatabase> {
  const name = await createDatabase(prefix);
  const db = createDb(databaseUrl(name));
  await migrateLatest(db);
  const server = await startTestServer({ db, config });
  return {
    name,
    db,
    server,
    close: async () => {
      await cancelEndlessStatements(db);
      await server.close();
      await db.destroy();
      await dropDatabase(name);
    },
  };
}

/** Runs `work` against a second server of `db` with no query shares at all, closed after. */
export async function withUnlimitedServer<T>(db: Db, work: (http: HttpClient) => Promise<T>): Promise<T> {
  const unlimited = await startTestServer({
    db,
    config: { queryTimeoutMs: QUERY_TIMEOUT_MS, queryConcurrencyPerEnvironment: 0, queryConcurrencyPerUser: 0 },
  });
  try {
    return await work(unlimited.http);
  } finally {
    await unlimited.close();
  }
}
