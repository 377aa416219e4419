/**
 * What the capture-lane operations share for the life of the app: the capture pipeline and the group commit
 * that stores its events, the project-key cache, the counters and the validators compiled from the spec.
 */
import { GroupCommit, type Transaction } from '../../db/group-commit.js';
import type { SpecValidators } from '../spec-validators.js';
import type { AppDeps } from '../types.js';
import { IngestState, ingest } from './ingest.js';
import { CaptureMetrics } from './metrics.js';
import type { CapturePipeline } from './pipeline.js';
import { ProjectTokens } from './tokens.js';
import type { IngestRequest } from './types.js';

export interface CaptureServices {
  /** What a capture request goes through (pipeline.ts). */
  pipeline: CapturePipeline;
  tokens: ProjectTokens;
  metrics: CaptureMetrics;
  validators: SpecValidators;
  /** Waits until every event accepted so far is stored (or refused). */
  drain(): Promise<void>;
}

export function createCaptureServices(deps: AppDeps, validators: SpecValidators): CaptureServices {
  const metrics = new CaptureMetrics();
  const state = new IngestState();
  const writer = new GroupCommit<IngestRequest>(
    deps.db,
    (transaction: Transaction, requests: IngestRequest[]) =>
      ingest(transaction, requests, state, ({ stored, duplicates, path }) => {
        metrics.ingested.add(stored);
        metrics.duplicates.add(duplicates);
        metrics.batchPaths.add(1, { path });
      }),
    {
      maxBatchSize: deps.config.captureBatchEvents,
      // Measured on this project's machines: a second transaction in flight makes batches smaller without
      // making them faster (each one's fixed cost in the database is most of its time).
      maxInFlight: 1,
      size: (request) => Math.max(1, request.events.length + request.warnings.length),
      logger: deps.logger,
      observe: ({ items, size, ms, ok }) => {
        metrics.flushes.add(1, { result: ok ? 'committed' : 'failed' });
        metrics.flushedItems.add(items);
        metrics.flushedEvents.add(size);
        metrics.flushSeconds.add(ms / 1000);
      },
    },
  );
  const tokens = new ProjectTokens(deps.db);
  return {
    pipeline: {
      validatePayload: validators.schema('CapturePayload'),
      tokens,
      store: (request) => writer.submit(request),
      metrics,
    },
    tokens,
    metrics,
    validators,
    drain: () => writer.drain(),
  };
}
