/**
 * Opens the database the configuration names (or starts the embedded one) and migrates it: what both the
 * server and the admin CLI do before anything else.
 */
import type { Logger } from 'pino';
import { createDb, type Db } from '../../db/pg/client.js';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../db/pg/embedded.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import type { Config } from './config.js';
import { createLogger } from './logger.js';

export { createLogger };

export interface Runtime {
  db: Db;
  /** The database's URL (the embedded one's, when it was started): what worker processes connect to. */
  databaseUrl: string;
  logger: Logger;
  embedded: EmbeddedPostgres | null;
  close(): Promise<void>;
}

/** `migrate: false` for a worker process, whose supervisor has migrated before starting it. */
export async function openRuntime(
  config: Config,
  logger: Logger = createLogger(config),
  options: { migrate?: boolean } = {},
): Promise<Runtime> {
  let embedded: EmbeddedPostgres | null = null;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir });
    databaseUrl = embedded.url;
    logger.info({ dataDir: embedded.dataDir, port: embedded.port }, 'embedded PostgreSQL started');
  }
  const db = createDb(databaseUrl, {
    deadlines: { connectTimeoutMs: config.dbConnectTimeoutMs, statementTimeoutMs: config.dbStatementTimeoutMs },
  });
  try {
    const applied = options.migrate === false ? [] : await migrateLatest(db);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  } catch (error) {
    await db.destroy();
    await embedded?.stop();
    throw error;
  }
  return {
    db,
    databaseUrl,
    logger,
    embedded,
    async close() {
      await db.destroy();
      await embedded?.stop();
    },
  };
}
