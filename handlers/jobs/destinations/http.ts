/**
 * The HTTP destination: a run's events posted to a PostHog-style `/batch/` endpoint (PostHog's own, or another
 * Hedgerow), as historical migration so the receiver takes their timestamps as they are.
 *
 * Exactly once rests on the receiver: every event keeps its uuid, and capture stores a uuid once, so a retried
 * run re-posting what an earlier attempt already delivered changes nothing.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { readExportRecords } from '../../../db/queries/batch-exports/records.js';
import {
  addressRefusalIn,
  DESTINATION_REQUEST_DEADLINE_MS,
  excerpt,
  guardedAgents,
  requestDeadline,
  UNREACHABLE_MESSAGE,
  type GuardedAgents,
} from './egress.js';
import { formatDatetime } from './files.js';
import { NonRetryableExportError, type Destination, type ExportOutcome, type ExportRecord, type ExportRun } from './types.js';

/** PostHog's limits of one request: this many events, or this many bytes of them, whichever comes first. */
export const HTTP_BATCH_EVENTS = 5000;
export const HTTP_BATCH_BYTES = 50 * 1024 * 1024;

export interface HttpConfig {
  url: string;
  token: string;
}

export function readHttpConfig(config: Record<string, unknown>): HttpConfig {
  const { url, token } = config;
  if (typeof url !== 'string' || url === '') throw new NonRetryableExportError("The HTTP setting 'url' is missing");
  if (typeof token !== 'string' || token === '') throw new NonRetryableExportError("The HTTP setting 'token' is missing");
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NonRetryableExportError(`Invalid destination URL: ${url}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new NonRetryableExportError(`Invalid destination URL: ${url}`);
  return { url, token };
}

/** One record as an event of the `/batch/` body. */
export function batchEvent(record: ExportRecord): Record<string, unknown> {
  const stored = record.properties;
  const properties: Record<string, unknown> =
    stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? { ...(stored as Record<string, unknown>) } : {};
  // The receiver must not look the sender's IP up again: the properties already hold what capture found.
  properties.$geoip_disable = true;
  if (record.event === '$autocapture') properties.$elements_chain = record.elements_chain;
  const timestamp = record.timestamp;
  return {
    uuid: record.uuid,
    distinct_id: record.distinct_id,
    timestamp: timestamp instanceof Date ? formatDatetime(timestamp) : timestamp,
    event: record.event,
    properties,
  };
}

export interface HttpDestinationOptions {
  /** Rows read from the database at a time (not the request size, which PostHog's limits set). */
  batchSize?: number;
  maxEventsPerRequest?: number;
  maxBytesPerRequest?: number;
  records?: (exportRun: ExportRun, batchSize: number) => AsyncIterable<ExportRecord[]>;
  /** The longest one POST may take, its answer included (DESTINATION_REQUEST_DEADLINE_MS unless a test says). */
  requestDeadlineMs?: number;
}

function runRecords(exportRun: ExportRun, batchSize: number): AsyncIterable<ExportRecord[]> {
  return readExportRecords(
    exportRun.db,
    {
      batchExport: exportRun.batchExport,
      start: exportRun.run.data_interval_start,
      end: exportRun.run.data_interval_end,
      selectBy: exportRun.selectBy,
    },
    { batchSize, signal: exportRun.signal },
  );
}

/** How much of a response's body a run reads (its latest_error keeps a short excerpt of it). */
const RESPONSE_TEXT_BYTES = 1024;

/** A request's longest wait for the destination to answer or take more of the body (the deadline bounds the whole). */
const REQUEST_TIMEOUT_MS = 120_000;

/** The first RESPONSE_TEXT_BYTES of the body as text; the rest is not read. */
async function responseStart(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= RESPONSE_TEXT_BYTES) break;
    }
  } catch {
    // What arrived before the connection failed is all there is to quote.
  } finally {
    response.destroy();
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_TEXT_BYTES).toString('utf8');
}

/**
 * One POST through the run's guarded agents. Redirects are not followed (node:http never does): a destination
 * that answers 3xx fails the run like one that answers 4xx, so no redirect can lead a run elsewhere.
 */
function send(url: URL, body: string, agents: GuardedAgents, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        agent: url.protocol === 'https:' ? agents.httpsAgent : agents.httpAgent,
        signal,
        timeout: REQUEST_TIMEOUT_MS,
      },
      resolve,
    );
    request.on('timeout', () => request.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })));
    request.on('error', reject);
    request.end(body);
  });
}

/** Posts one body; answers its size, or throws: retryable for 5xx, 429 and the network, final for other answers. */
async function post(config: HttpConfig, events: string[], agents: GuardedAgents, signal: AbortSignal, deadlineMs: number): Promise<number> {
  const head = JSON.stringify({ api_key: config.token, historical_migration: true });
  const body = `${head.slice(0, -1)},"batch":[${events.join(',')}]}`;
  const deadline = requestDeadline(signal, deadlineMs);
  let response: IncomingMessage;
  try {
    response = await send(new URL(config.url), body, agents, deadline.signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason ?? error;
    const refused = addressRefusalIn(error);
    if (refused) throw new NonRetryableExportError(refused.message);
    throw new Error(UNREACHABLE_MESSAGE, { cause: error });
  }
  const status = response.statusCode ?? 0;
  if (status >= 200 && status < 300) {
    response.destroy();
    return Buffer.byteLength(body);
  }
  const text = excerpt(await responseStart(response));
  if (deadline.expired()) throw new Error(UNREACHABLE_MESSAGE);
  const answer = (kind: string) => `${kind} (status: ${status})${text === '' ? '' : `: ${text}`}`;
  if (status >= 500 || status === 429) throw new Error(answer('RetryableResponseError'));
  throw new NonRetryableExportError(answer('NonRetryableResponseError'));
}

export function createHttpDestination(options: HttpDestinationOptions = {}): Destination {
  const batchSize = options.batchSize ?? 10_000;
  const maxEvents = options.maxEventsPerRequest ?? HTTP_BATCH_EVENTS;
  const maxBytes = options.maxBytesPerRequest ?? HTTP_BATCH_BYTES;
  const records = options.records ?? runRecords;
  const deadlineMs = options.requestDeadlineMs ?? DESTINATION_REQUEST_DEADLINE_MS;

  return {
    async run(exportRun: ExportRun): Promise<ExportOutcome> {
      const config = readHttpConfig(exportRun.batchExport.destination_config);
      const { signal } = exportRun;
      const agents = guardedAgents(exportRun.addresses);
      let pending: string[] = [];
      let pendingBytes = 0;
      let recordsCompleted = 0;
      let bytesExported = 0;
      // Records come ordered by the run's selection time: the last one sent is how far the run got (`cursor`).
      const cursorColumn = exportRun.selectBy === 'inserted_at' ? '_inserted_at' : 'timestamp';
      let pendingCursor: string | null = null;

      const flush = async () => {
        if (pending.length === 0) return;
        bytesExported += await post(config, pending, agents, signal, deadlineMs);
        recordsCompleted += pending.length;
        pending = [];
        pendingBytes = 0;
        await exportRun.progress({ recordsCompleted, bytesExported, cursor: pendingCursor });
      };

      try {
        for await (const batch of records(exportRun, batchSize)) {
          signal.throwIfAborted();
          for (const record of batch) {
            const event = JSON.stringify(batchEvent(record));
            pending.push(event);
            const at = record[cursorColumn];
            if (at instanceof Date) pendingCursor = at.toISOString();
            pendingBytes += Buffer.byteLength(event) + 1;
            if (pending.length >= maxEvents || pendingBytes >= maxBytes) await flush();
          }
        }
        signal.throwIfAborted();
        await flush();
        return { recordsCompleted, bytesExported };
      } finally {
        agents.destroy();
      }
    },
  };
}

export const httpDestination: Destination = createHttpDestination();
