/**
 * The destinations the engine runs, by the export's `destination_type`. A type missing here fails its runs at
 * once (non-retryable): the API refuses types this server cannot run, so only an old row can meet that.
 */
import type { DestinationType } from '../../../db/queries/batch-exports/rows.js';
import { httpDestination } from './http.js';
import { noopDestination } from './noop.js';
import { postgresDestination } from './postgres.js';
import { s3Destination } from './s3.js';
import type { Destination } from './types.js';

export type DestinationRegistry = Partial<Record<DestinationType, Destination>>;

export function defaultDestinations(options: { noopDelayMs?: number } = {}): DestinationRegistry {
  return {
    S3: s3Destination,
    AwsS3: s3Destination,
    S3Compatible: s3Destination,
    Postgres: postgresDestination,
    HTTP: httpDestination,
    NoOp: noopDestination(options.noopDelayMs ?? 0),
  };
}
