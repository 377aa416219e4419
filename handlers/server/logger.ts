/**
 * The server's logger, and the name each process gives its database sessions. Kept apart from runtime.ts so that
 * the supervisor can log without loading the database modules.
 */
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';

export function createLogger(config: Config): Logger {
  return pino({ level: config.logLevel, base: { service: 'hedgerow' } });
}

/**
 * Names every database session this process opens `hedgerow <role> <pid>` (`pg` reads PGAPPNAME; a session that
 * names itself keeps its own name), so that `pg_stat_activity` tells which process holds which session.
 */
export function nameDatabaseSessions(role: string): void {
  process.env.PGAPPNAME = `hedgerow ${role} ${process.pid}`;
}
