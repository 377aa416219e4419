/**
 * What the engine (handlers/jobs/) hands a destination for one run, and what the destination answers.
 *
 * A destination writes every record of the run's window once, and reports how many it wrote and how many bytes
 * that came to. Exactly-once across retries is each destination's own business (S3: the same keys overwritten;
 * Postgres: an idempotent write; HTTP: event uuids, which capture deduplicates), because a run may be retried
 * after any point of a previous attempt, including a process killed mid-write.
 */
import type { AddressPolicy } from '../../../db/destinations/address-policy.js';
import type { Db } from '../../../db/pg/client.js';
import type { BatchExportRow, BatchExportRunRow } from '../../../db/queries/batch-exports/rows.js';

export type { ExportRecord } from '../../../db/queries/batch-exports/rows.js';

export interface ExportRun {
  /** The export as stored, with its destination's secrets. */
  batchExport: BatchExportRow;
  run: BatchExportRunRow;
  /** Scheduled runs select by ingestion time, backfills by event time. */
  selectBy: 'inserted_at' | 'timestamp';
  /** Hedgerow's own database, to read the records from. */
  db: Db;
  /** What the run may connect to: every connection it makes is checked against it first. */
  addresses: AddressPolicy;
  /** Aborted when the run is cancelled or its process shuts down; a destination stops and rejects soon after. */
  signal: AbortSignal;
  /** Records progress (and the cursor a retry may resume from); best effort, as PostHog's heartbeat. */
  progress(update: { recordsCompleted?: number; bytesExported?: number; cursor?: string | null }): Promise<void>;
}

export interface ExportOutcome {
  recordsCompleted: number;
  bytesExported: number;
}

export interface Destination {
  run(exportRun: ExportRun): Promise<ExportOutcome>;
}

/**
 * A failure that retrying cannot mend (bad credentials, a missing bucket or table, a refused request): the run
 * ends `Failed` at once with this message as its `latest_error`. Any other error is retried with backoff.
 */
export class NonRetryableExportError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'NonRetryableExportError';
  }
}
