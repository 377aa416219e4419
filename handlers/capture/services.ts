/**
 * What the capture-lane operations share for the life of the app: the capture pipeline and the group commit
 * that stores its events, the project-key cache, the counters and the validators compiled from the spec.
 */
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import type { Db } from '../../db/pg/client.js';
import { GroupCommit, type Transaction } from '../../db/pg/group-commit.js';
import type { SpecValidators } from '../openapi/validators.js';
import { MemoryBudget } from './budget.js';
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
  /** The bytes capture requests in flight may hold, across all of them (budget.ts). */
  budget: MemoryBudget;
  /** Waits until every event accepted so far is stored (or refused). */
  drain(): Promise<void>;
}

/**
 * When a second transaction starts beside the one in flight. Single events: a second transaction made batches
 * smaller without making them faster, each one's fixed cost in the database being most of its time, so they
 * wait for the commit in flight and grow (under single-event load they never queue this many). `/batch/` load:
 * with one transaction at a time the server and the database took turns (the server decoding the next requests
 * while the database idled, then idling while it committed them); from this many queued events a second
 * transaction keeps both busy, and lower or higher thresholds did worse (scripts/bench/README.md).
 */
const OVERLAP_FROM_EVENTS = 400;

/**
 * The commit deadline's allowance per event: a legitimate batch of tens of thousands of new events (persons
 * included) takes seconds to write on a loaded machine, longer than the fixed deadline. About five times the
 * rate observed keeps a slow but working database from being taken for a stalled one; a 10,000-event
 * transaction gets 2.5 s more.
 */
const COMMIT_MS_PER_EVENT = 0.25;

/**
 * Large payloads inflated or read at once, in this process: as many in the whole server as it has cores keep
 * them busy and the event loop's turns short (with a worker per core, one each).
 */
function largeWorkAtOnce(workers: number | undefined): number {
  return Math.max(1, Math.floor(availableParallelism() / (workers ?? 1)));
}

/**
 * What the services need of the app's dependencies (handlers/types.ts AppDeps has it all): named here, and not
 * imported, so that the registry's types may name CaptureServices without the two modules importing each other.
 */
export interface CaptureServiceDeps {
  db: Db;
  logger: Logger;
  config: {
    captureBatchEvents: number;
    captureCommitTimeoutMs: number;
    captureMemoryBytes: number;
    captureBudgetWaitMs: number;
    workers: number | undefined;
  };
}

export function createCaptureServices(deps: CaptureServiceDeps, validators: SpecValidators): CaptureServices {
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
      commitTimeoutMs: deps.config.captureCommitTimeoutMs,
      commitMsPerSize: COMMIT_MS_PER_EVENT,
      // A second transaction starts while one is in flight only for a queue of OVERLAP_FROM_EVENTS or more.
      maxInFlight: 2,
      overlapFromSize: OVERLAP_FROM_EVENTS,
      size: (request) => Math.max(1, request.events.length + request.warnings.length),
      logger: deps.logger,
      observe: ({ items, size, ms, ok, overlapped }) => {
        metrics.flushes.add(1, { result: ok ? 'committed' : 'failed' });
        if (overlapped) metrics.overlappingFlushes.add(1);
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
      validateEvent: validators.schema('CaptureEvent'),
      validateBatch: validators.schema('CaptureBatch'),
      tokens,
      store: (request) => writer.submit(request),
      metrics,
    },
    tokens,
    metrics,
    validators,
    budget: new MemoryBudget(deps.config.captureMemoryBytes, deps.config.captureBudgetWaitMs, largeWorkAtOnce(deps.config.workers)),
    drain: () => writer.drain(),
  };
}
