/**
 * The destinations the engine runs, by the export's `destination_type`. A type missing here fails its runs at
 * once (non-retryable): the API refuses types this server cannot run, so only an old row can meet that.
 */
import type { DestinationType } from '../../../db/queries/batch-exports/rows.js';
import { httpDestination } from './http.js';
import { noopDestination } from './noop.js';
import { postgresDestination } from './postgres.js';
import type { Destination } from './types.js';

export type DestinationRegistry = Partial<Record<DestinationType, Destination>>;

/**
 * The S3 destinations, loaded by their first run: the AWS SDK they import holds megabytes of memory that a
 * process running no S3 export never needs (their Parquet writer waits for a Parquet file: files.ts).
 */
const lazyS3Destination: Destination = {
  async run(exportRun) {
    const { s3Destination } = await import('./s3.js');
    return s3Destination.run(exportRun);
  },
};

export function defaultDestinations(options: { noopDelayMs?: number } = {}): DestinationRegistry {
  return {
    S3: lazyS3Destination,
    AwsS3: lazyS3Destination,
    S3Compatible: lazyS3Destination,
    Postgres: postgresDestination,
    HTTP: httpDestination,
    NoOp: noopDestination(options.noopDelayMs ?? 0),
  };
}
