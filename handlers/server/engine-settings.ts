/** The engine's settings (handlers/jobs/) from the server's configuration. */
import type { EngineSettings } from '../jobs/index.js';
import type { Config } from './config.js';

export function engineSettings(config: Config, databaseUrl: string): EngineSettings {
  return {
    databaseUrl,
    concurrency: config.exportConcurrency,
    leaseMs: config.exportLeaseMs,
    tickIntervalMs: config.exportTickIntervalMs,
    clockOffsetMs: config.clockOffsetMs,
    noopDelayMs: config.noopDelayMs,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    queryTimeoutMs: config.queryTimeoutMs,
    queryResultMaxBytes: config.queryResultMaxBytes,
    destinationAllowlist: config.destinationAllowlist,
  };
}
