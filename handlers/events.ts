/**
 * The deprecated event listing (events_list, events_retrieve, events_values_retrieve) and its twins under
 * /api/environments/, which answer the same.
 */
import type { components } from '../generated/api.js';
import { getEvent, listEvents, listPropertyValues, shapeWithinBudget } from '../db/queries/events/listing.js';
import { parseEventListRequest } from './events/request.js';
import { eventJson, parseEventJson, type EventJson, type LegacyEvent } from './events/shape.js';
import { csvOfObjects, csvTable } from './csv.js';
import { errors } from '../db/core/errors.js';
import { stringifyExact } from '../db/core/exact-json.js';
import { pageTooLarge } from '../db/queries/query/execute.js';
import { holdRequestAnswer } from './server/answer-memory.js';
import { tenantReader } from '../db/pg/session-shares.js';
import { environmentOf, tenantOf, jsonText, type Handler, type HandlerInput } from './types.js';

/** The listing's JSON answer (either shape), as the spec has it. */
type ListedRows = components['responses']['EventPage']['content']['application/json'];

/** Events per page by default, as PostHog (CSV exports get more). */
export const DEFAULT_EVENTS_LIMIT = 100;
export const DEFAULT_CSV_EVENTS_LIMIT = 1000;
/** The most events one page holds; larger limits are lowered to it. */
export const MAX_EVENTS_LIMIT = 1000;

const EVENT_FIELDS = ['id', 'distinct_id', 'properties', 'event', 'timestamp', 'person', 'elements', 'elements_chain'];
/** A UUID with or without its hyphens, as PostHog's `UUIDT.is_valid_uuid` takes it. */
const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32})$/i;

/** The UUID with its hyphens. */
function hyphenated(uuid: string): string {
  return uuid.length === 32 ? uuid.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5') : uuid;
}

/**
 * CSV when asked by `format=csv` or, without `format`, by the Accept header as Django REST framework negotiates
 * it for PostHog's events (renderers JSON, then CSV): the most specific media ranges first (`type/subtype;params`,
 * `type/subtype`, `type/*`, `*\/*`), JSON winning a tie, quality values not read. The answer varies with Accept.
 */
function wantsCsv(format: string | undefined, ctx: { get(field: string): string; vary(field: string): void }): boolean {
  if (format !== undefined) return format === 'csv';
  ctx.vary('Accept');
  const ranges = ctx
    .get('accept')
    .split(',')
    .map((range) => {
      const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
      const specific = params.some((param) => !param.startsWith('q='));
      return { type, precedence: type === '*/*' ? 0 : type.endsWith('/*') ? 1 : specific ? 3 : 2 };
    })
    .filter((range) => range.type.includes('/'));
  const matches = (range: string, mediaType: string) =>
    range === '*/*' || range === mediaType || (range.endsWith('/*') && mediaType.startsWith(range.slice(0, -1)));
  for (const precedence of [3, 2, 1, 0]) {
    const group = ranges.filter((range) => range.precedence === precedence).map((range) => range.type);
    if (group.some((range) => matches(range, 'application/json'))) return false;
    if (group.some((range) => matches(range, 'text/csv'))) return true;
  }
  return false;
}

/** The request's URL with the page's cursor: every other parameter is kept, `offset` is spent. */
export function nextLink(requestUrl: URL, cursor: string): string {
  const url = new URL(requestUrl);
  url.searchParams.delete('offset');
  url.searchParams.set('cursor', cursor);
  return url.toString();
}

/** A page of events as the listing's JSON: each event is JSON text already (handlers/events/shape.ts). */
export function eventsPageJson(next: string | null, results: readonly EventJson[]): string {
  return `{"next":${JSON.stringify(next)},"results":[${results.join(',')}]}`;
}

function eventsCsv(events: readonly LegacyEvent[]): string {
  return csvOfObjects(events as unknown as Record<string, unknown>[], EVENT_FIELDS);
}

export const events_list: Handler<'events_list'> = async ({ query, state, deps, ctx }) => {
  // The page's memory is reserved for its user before it is read (as much as its events may take, up to the
  // budget), grown if its rows take more, and kept until it has been sent.
  const hold = holdRequestAnswer(ctx, deps, state, Math.min(deps.config.queryResultMaxBytes, pageLimit(query, ctx) * EVENT_BYTES_RESERVED));
  try {
    const answer = await listPage({ query, state, deps, ctx }, (bytes) => hold.growing(bytes));
    hold.sending(Buffer.byteLength(typeof answer.body === 'string' ? answer.body : stringifyExact(answer.body)));
    return answer;
  } catch (error) {
    hold.release();
    throw error;
  }
};

/** Bytes an event of a page is reserved before the page is read: most events take far less. */
const EVENT_BYTES_RESERVED = 32 * 1024;

function pageLimit(query: HandlerInput<'events_list'>['query'], ctx: HandlerInput<'events_list'>['ctx']): number {
  return Math.min(query.limit ?? (wantsCsv(query.format, ctx) ? DEFAULT_CSV_EVENTS_LIMIT : DEFAULT_EVENTS_LIMIT), MAX_EVENTS_LIMIT);
}

async function listPage(
  { query, state, deps, ctx }: Pick<HandlerInput<'events_list'>, 'query' | 'state' | 'deps' | 'ctx'>,
  onAnswerBytes: (bytes: number) => void,
) {
  const csv = wantsCsv(query.format, ctx);
  const limit = pageLimit(query, ctx);
  const maxResultBytes = deps.config.queryResultMaxBytes;
  const { environment } = environmentOf(state);
  const bounds = { timeoutMs: deps.config.queryTimeoutMs, maxResultBytes, onAnswerBytes };
  const page = await listEvents(
    tenantReader(deps.reader, tenantOf(state)),
    environment,
    parseEventListRequest({ ...query, limit, offset: query.offset ?? 0 }, environment.timezone),
    bounds,
  );
  // The events as the answer shows them, held to the budget as they are written (the rows of a `select` were).
  const events = page.kind === 'events' ? shapeWithinBudget(page.rows, eventJson, (json) => Buffer.byteLength(json), bounds) : [];
  if (csv) {
    const body = page.kind === 'events' ? eventsCsv(events.map(parseEventJson)) : csvTable(page.columns, page.results);
    return { status: 200 as const, body: withinBudget(body, maxResultBytes), contentType: 'text/csv' as const };
  }
  const next = page.nextCursor ? nextLink(new URL(ctx.originalUrl, `${ctx.protocol}://${ctx.host}`), page.nextCursor) : null;
  if (page.kind === 'rows') {
    return { status: 200 as const, body: jsonText<ListedRows>(withinBudget(stringifyExact({ columns: page.columns, next, results: page.results }), maxResultBytes)) };
  }
  return { status: 200 as const, body: jsonText<ListedRows>(eventsPageJson(next, events)) };
}

/**
 * The answer's text, when it is within the budget. The page's rows were held to it as they were shaped; the
 * whole (its CSV, which quotes what JSON escapes) is held to it once more.
 */
function withinBudget(text: string, maxBytes: number): string {
  if (text.length > maxBytes || Buffer.byteLength(text) > maxBytes) throw pageTooLarge(maxBytes);
  return text;
}

export const events_retrieve: Handler<'events_retrieve'> = async ({ params, query, state, deps, ctx }) => {
  if (!UUID.test(params.id)) throw errors.validation('Invalid UUID', 'id', 'invalid');
  const { environment } = environmentOf(state);
  const row = await getEvent(tenantReader(deps.reader, tenantOf(state)), environment, hyphenated(params.id), deps.config.queryTimeoutMs);
  if (!row) throw errors.notFound(`No events exist for event UUID ${params.id}`);
  const event = parseEventJson(eventJson(row));
  const maxResultBytes = deps.config.queryResultMaxBytes;
  if (wantsCsv(query.format, ctx)) return { status: 200, body: withinBudget(eventsCsv([event]), maxResultBytes), contentType: 'text/csv' };
  return { status: 200, body: jsonText<LegacyEvent>(withinBudget(stringifyExact(event), maxResultBytes)) };
};

export const events_values_retrieve: Handler<'events_values_retrieve'> = async ({ query, state, deps, ctx }) => {
  if (query.key === '') throw errors.validation('You must provide a key'); // PostHog's words, without an attr
  const values = await listPropertyValues(
    tenantReader(deps.reader, tenantOf(state)),
    environmentOf(state).environment,
    {
      key: query.key,
      ...(query.value !== undefined ? { value: query.value } : {}),
      eventNames: query.event_name ?? [],
      isColumn: query.is_column ?? false,
    },
    deps.config.queryTimeoutMs,
  );
  const maxResultBytes = deps.config.queryResultMaxBytes;
  if (wantsCsv(query.format, ctx)) {
    return { status: 200, body: withinBudget(csvTable(['name'], values.map((value) => [value.name])), maxResultBytes), contentType: 'text/csv' };
  }
  return { status: 200, body: jsonText<typeof values>(withinBudget(stringifyExact(values), maxResultBytes)) };
};

// The twins under /api/environments/ take and answer the same (the compiler checks it field by field).
export const environments_events_list: Handler<'environments_events_list'> = (input) => events_list({ ...input });
export const environments_events_retrieve: Handler<'environments_events_retrieve'> = (input) => events_retrieve({ ...input });
export const environments_events_values_retrieve: Handler<'environments_events_values_retrieve'> = (input) =>
  events_values_retrieve({ ...input });
