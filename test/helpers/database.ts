/**
 * One fresh PostgreSQL database per test run, on the machine's server (never the embedded one), created and
 * migrated before the first test and dropped after the last.
 */
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { DEFAULT_ADMIN_URL, postgresServer } from './postgres.js';

/** A maintenance connection to the server the tests may create databases on. */
export const ADMIN_URL = process.env.HEDGEROW_TEST_ADMIN_URL || DEFAULT_ADMIN_URL;

const server = postgresServer(ADMIN_URL);

export function databaseUrl(name: string): string {
  return server.databaseUrl(name);
}

export function createDatabase(prefix = 'hedgerow_test'): Promise<string> {
  return server.createDatabase(prefix);
}

export function dropDatabase(name: string): Promise<void> {
  return server.dropDatabase(name);
}

/**
 * Kept on globalThis rather than in a module variable: mocha requires most spec files but imports those with
 * top-level await, and the two loaders give this module two instances.
 */
const holder = globalThis as typeof globalThis & { hedgerowTestDatabase?: { name: string; db: Db } | null };

/** The run's database, migrated. */
export function testDb(): Db {
  const shared = holder.hedgerowTestDatabase;
  if (!shared) throw new Error('the test database is created by the root hooks of test/setup.ts');
  return shared.db;
}

export async function openSharedDatabase(): Promise<void> {
  const name = await createDatabase();
  const db = createDb(databaseUrl(name));
  await migrateLatest(db);
  holder.hedgerowTestDatabase = { name, db };
}

export async function closeSharedDatabase(): Promise<void> {
  const shared = holder.hedgerowTestDatabase;
  if (!shared) return;
  holder.hedgerowTestDatabase = null;
  await shared.db.destroy();
  await dropDatabase(shared.name);
}
