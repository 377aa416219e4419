/**
 * The Postgres destination: one run's records loaded into the user's PostgreSQL in one transaction, exactly once
 * across retries, and in place of what the interval delivered before when it is run again on purpose
 * (db/destinations/postgres.ts says how). Errors retrying cannot mend (credentials, an unknown
 * database or schema, a table that cannot take the rows) end the run at once; a database that cannot be reached
 * now is retried.
 */
import {
  connectDestination,
  isServerAnswer,
  loadRun,
  permanentSqlState,
  PostgresDestinationError,
  postgresConfigOf,
  refuseOwnDatabase,
} from '../../../db/destinations/postgres.js';
import { DestinationAddressError } from '../../../db/destinations/address-policy.js';
import { isConnectionFailure, UNREACHABLE_MESSAGE } from './egress.js';
import { exportRecordsQuery } from '../../../db/queries/batch-exports/records.js';
import { InvalidExportSettingsError } from '../../../db/queries/batch-exports/records-query.js';
import { NonRetryableExportError, type Destination, type ExportOutcome, type ExportRun } from './types.js';
import { maskSecrets } from '../latest-error.js';

function permanent(error: unknown): NonRetryableExportError | null {
  if (error instanceof NonRetryableExportError) return error;
  if (error instanceof PostgresDestinationError || error instanceof InvalidExportSettingsError || error instanceof DestinationAddressError) {
    return new NonRetryableExportError(error.message, { cause: error });
  }
  const code = permanentSqlState(error);
  if (code !== null) {
    const message = error instanceof Error ? error.message : String(error);
    return new NonRetryableExportError(`The destination database refused the export (${code}): ${message}`, { cause: error });
  }
  return null;
}

/**
 * A failure to connect as the run reports it: a refused address, or what a PostgreSQL that answered said (a
 * SQLSTATE); anything else (refused, reset, timed out, a TLS failure, a port that speaks something else) is the
 * one message of every connection failure (egress.ts).
 */
function connectionFailure(error: unknown): unknown {
  if (error instanceof DestinationAddressError || error instanceof PostgresDestinationError) return error;
  return isServerAnswer(error) ? error : new Error(UNREACHABLE_MESSAGE);
}

/**
 * Which run of its interval a run row is. A retry (pg-boss's, or a takeover after a worker died) keeps the row as
 * it is; running the interval again (a backfill over it, or the runs' retry operation, which makes a backfill)
 * resets the same row with the new backfill's id. A scheduled run is made once per interval and has none.
 */
function generationOf(runRow: ExportRun['run']): string {
  return runRow.backfill_id === null ? 'scheduled' : `backfill ${runRow.backfill_id}`;
}

async function run(exportRun: ExportRun): Promise<ExportOutcome> {
  const { batchExport, run: runRow, signal } = exportRun;
  signal.throwIfAborted();
  try {
    const config = postgresConfigOf(batchExport.destination_config);
    const records = exportRecordsQuery(
      exportRun.db,
      { batchExport, start: runRow.data_interval_start, end: runRow.data_interval_end, selectBy: exportRun.selectBy },
      { ordered: false },
    );
    const destination = await connectDestination(config, exportRun.addresses).catch((error: unknown) => {
      throw connectionFailure(error);
    });
    // An error of the connection while it idles (the server went away) surfaces through the statement that fails.
    destination.on('error', () => undefined);
    try {
      await refuseOwnDatabase(exportRun.db, destination);
      const outcome = await loadRun(exportRun.db, destination, config, {
        batchExportId: batchExport.id,
        dataIntervalEnd: runRow.data_interval_end,
        generation: generationOf(runRow),
        model: batchExport.model,
        defaultEventColumns: batchExport.hogql_query === null || batchExport.hogql_query.trim() === '',
        records,
        signal,
      });
      await exportRun.progress({ recordsCompleted: outcome.recordsCompleted, bytesExported: outcome.bytesExported });
      return { recordsCompleted: outcome.recordsCompleted, bytesExported: outcome.bytesExported };
    } finally {
      await destination.end().catch(() => undefined);
    }
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    const final = permanent(error);
    // A connection lost midway is reported as every connection failure is (egress.ts).
    if (!final && isConnectionFailure(error)) throw new Error(UNREACHABLE_MESSAGE);
    throw withoutSecrets(final ?? error, batchExport.destination_config);
  }
}

/**
 * The error with the destination's user and password taken out of its message: a run's latest_error is answered
 * by the API and logged, and PostgreSQL names the role in its messages (the password is masked by the rule of
 * every latest_error, latest-error.ts). The original is not kept as the cause,
 * which the log would print.
 */
function withoutSecrets(error: unknown, config: Record<string, unknown>): unknown {
  if (!(error instanceof Error)) return error;
  let message = error.message;
  message = maskSecrets(message, [config.password]);
  if (typeof config.user === 'string' && config.user !== '') message = message.replaceAll(`"${config.user}"`, '"***"');
  if (message === error.message) return error;
  return error instanceof NonRetryableExportError ? new NonRetryableExportError(message) : new Error(message);
}

export const postgresDestination: Destination = { run };
