/**
 * Runs the migrations of db/migrations: files named `YYYYMMDDHHMMSS_<what>.ts`, each exporting `up` and `down`.
 * A custom migration source keeps Knex's own file loader (and its CommonJS/ESM guessing) out of the way.
 *
 * `npm start` runs the JavaScript of `.hedgerow-build/` (scripts/build.ts), where each migration is a `.js`
 * file; a migration is recorded under its source name (`….ts`) either way, so a database migrated by one tree
 * is up to date for the other.
 */
import { readdir } from 'node:fs/promises';
import type { Knex } from 'knex';
import type { Db } from './client.js';

const MIGRATIONS_DIR = new URL('../migrations/', import.meta.url);
export const MIGRATION_NAME = /^\d{14}_[a-z0-9_]+\.ts$/;

/** The modules of this tree: TypeScript beside the sources, JavaScript in the build. */
const MODULE_EXTENSION = /\.(ts|js)$/;

/** The name a migration module is recorded under: its source file's. */
function sourceName(file: string): string {
  return file.replace(MODULE_EXTENSION, '.ts');
}

interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

class DirectoryMigrationSource implements Knex.MigrationSource<string> {
  async getMigrations(): Promise<string[]> {
    const files = (await readdir(MIGRATIONS_DIR)).filter((file) => MODULE_EXTENSION.test(file) && !file.endsWith('.d.ts'));
    const misnamed = files.filter((file) => !MIGRATION_NAME.test(sourceName(file)));
    if (misnamed.length > 0) {
      throw new Error(`Migration files must be named YYYYMMDDHHMMSS_<what>.ts: ${misnamed.join(', ')}`);
    }
    return files.sort();
  }

  getMigrationName(file: string): string {
    return sourceName(file);
  }

  async getMigration(file: string): Promise<Migration> {
    return (await import(new URL(file, MIGRATIONS_DIR).href)) as Migration;
  }
}

const config = (): Knex.MigratorConfig => ({ migrationSource: new DirectoryMigrationSource() });

/** The advisory lock class of the schema's setup ('HgSc'); the key within it is 0. */
const SCHEMA_LOCK_CLASS = 0x48675363;

/**
 * Runs `work` while this process alone, of every process on the database, sets the schema up: hosts started at
 * once on one database take turns, where Knex's own migration lock would fail the second instead of waiting.
 * The lock is held by a transaction of its own, so `work` runs on the pool's other sessions as usual.
 */
export async function withSchemaLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  return db.transaction(async (trx) => {
    await trx.raw('select pg_advisory_xact_lock(?, 0)', [SCHEMA_LOCK_CLASS]);
    return work();
  });
}

/** Applies every pending migration (one process at a time); returns the names applied. */
export async function migrateLatest(db: Db): Promise<string[]> {
  return withSchemaLock(db, async () => {
    const [, applied] = (await db.migrate.latest(config())) as [number, string[]];
    return applied;
  });
}

/** Undoes every applied migration, newest first. */
export async function rollbackAll(db: Db): Promise<string[]> {
  const [, undone] = (await db.migrate.rollback(config(), true)) as [number, string[]];
  return undone;
}
