/**
 * The deprecated event listing (events_list, events_retrieve, events_values_retrieve) and its twins under
 * /api/environments/, which answer the same.
 */
import { getEvent, listEvents, listPropertyValues } from '../db/queries/events/listing.js';
import { parseEventJson, type EventJson, type LegacyEvent } from '../db/queries/events/shape.js';
import { csvOfObjects, csvTable } from './csv.js';
import { errors } from '../db/core/errors.js';
import { tenantReader } from '../db/pg/session-shares.js';
import { environmentOf, tenantOf, jsonText, type Handler } from './types.js';

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

/** A page of events as the listing's JSON: each event is JSON text already (db/queries/events/shape.ts). */
export function eventsPageJson(next: string | null, results: readonly EventJson[]): string {
  return `{"next":${JSON.stringify(next)},"results":[${results.join(',')}]}`;
}

function eventsCsv(events: readonly LegacyEvent[]): string {
  return csvOfObjects(events as unknown as Record<string, unknown>[], EVENT_FIELDS);
}

export const events_list: Handler<'events_list'> = async ({ query, state, deps, ctx }) => {
  const csv = wantsCsv(query.format, ctx);
  const limit = Math.min(query.limit ?? (csv ? DEFAULT_CSV_EVENTS_LIMIT : DEFAULT_EVENTS_LIMIT), MAX_EVENTS_LIMIT);
  const page = await listEvents(
    tenantReader(deps.reader, tenantOf(state)),
    environmentOf(state).environment,
    { ...query, limit, offset: query.offset ?? 0 },
    deps.config.queryTimeoutMs,
  );
  if (csv) {
    const body = page.kind === 'events' ? eventsCsv(page.results.map(parseEventJson)) : csvTable(page.columns, page.results);
    return { status: 200, body, contentType: 'text/csv' };
  }
  const next = page.nextCursor ? nextLink(new URL(ctx.originalUrl, `${ctx.protocol}://${ctx.host}`), page.nextCursor) : null;
  if (page.kind === 'rows') return { status: 200, body: { columns: page.columns, next, results: page.results } };
  return { status: 200, body: jsonText(eventsPageJson(next, page.results)) };
};

export const events_retrieve: Handler<'events_retrieve'> = async ({ params, query, state, deps, ctx }) => {
  if (!UUID.test(params.id)) throw errors.validation('Invalid UUID', 'id', 'invalid');
  const { environment } = environmentOf(state);
  const event = await getEvent(tenantReader(deps.reader, tenantOf(state)), environment, hyphenated(params.id), deps.config.queryTimeoutMs);
  if (!event) throw errors.notFound(`No events exist for event UUID ${params.id}`);
  if (wantsCsv(query.format, ctx)) return { status: 200, body: eventsCsv([event]), contentType: 'text/csv' };
  return { status: 200, body: event };
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
  if (wantsCsv(query.format, ctx)) {
    return { status: 200, body: csvTable(['name'], values.map((value) => [value.name])), contentType: 'text/csv' };
  }
  return { status: 200, body: values };
};

// The twins under /api/environments/ take and answer the same (the compiler checks it field by field).
export const environments_events_list: Handler<'environments_events_list'> = (input) => events_list({ ...input });
export const environments_events_retrieve: Handler<'environments_events_retrieve'> = (input) => events_retrieve({ ...input });
export const environments_events_values_retrieve: Handler<'environments_events_values_retrieve'> = (input) =>
  events_values_retrieve({ ...input });
