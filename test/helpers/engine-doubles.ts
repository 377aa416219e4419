/**
 * Test doubles of the batch export engine's tests: a destination that records what it was asked, and reads of
 * the rows the engine writes.
 */
import { NonRetryableExportError, type Destination, type ExportRun } from '../../handlers/jobs/destinations/types.js';
import type { BatchExportRow, BatchExportRunRow } from '../../db/queries/batch-exports/rows.js';
import { testDb } from './database.js';

export interface Call {
  runId: string;
  start: string | null;
  end: string;
  selectBy: ExportRun['selectBy'];
}

export const describeCall = (exportRun: ExportRun): Call => ({
  runId: exportRun.run.id,
  start: exportRun.run.data_interval_start?.toISOString() ?? null,
  end: exportRun.run.data_interval_end.toISOString(),
  selectBy: exportRun.selectBy,
});

/** Records what it was asked; answers `records` per run (or what `count` says) and tracks runs at once. */
export function recorder(options: { records?: number; count?: (exportRun: ExportRun) => Promise<number>; failEnds?: string[] } = {}) {
  const calls: Call[] = [];
  let running = 0;
  let maxRunning = 0;
  const destination: Destination = {
    async run(exportRun) {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      try {
        calls.push(describeCall(exportRun));
        // A turn of the event loop, so that a second run started at the same time would overlap this one.
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (options.failEnds?.includes(exportRun.run.data_interval_end.toISOString())) throw new NonRetryableExportError('window refused');
        const records = options.count ? await options.count(exportRun) : (options.records ?? 0);
        return { recordsCompleted: records, bytesExported: records * 10 };
      } finally {
        running -= 1;
      }
    },
  };
  return { destination, calls, maxRunning: () => maxRunning };
}

export async function waitFor<T>(_what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const runsOf = (exportId: string): Promise<BatchExportRunRow[]> =>
  testDb()<BatchExportRunRow>('batch_export_runs').where({ batch_export_id: exportId }).orderBy('data_interval_end');

export const exportRow = (id: string): Promise<BatchExportRow> => testDb()<BatchExportRow>('batch_exports').where({ id }).first() as Promise<BatchExportRow>;
