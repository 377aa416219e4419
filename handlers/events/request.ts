/**
 * The listing's request parameters, parsed and checked: a bad one is a 400 whose `attr` names it. HogQL text is
 * parsed here too (its errors are named by inParameter), so that the query (db/queries/events/listing.ts) is
 * compiled from values only.
 */
import { errors, type ApiError } from '../../db/core/errors.js';
import { parseJson as parseExactJson } from '../../db/core/exact-json.js';
import { MAX_JSON_DEPTH } from '../../db/core/json-limits.js';
import { HogQLError, inParameter, parseDateTimeInput, parseExpression, parsePropertyFilters, parseSelectItem, type DateTimeText } from '../../db/hogql/index.js';
import { decodeCursor } from '../../db/queries/events/cursor.js';
import type { EventListQuery } from '../../db/queries/events/listing.js';

/** The listing's parameters as the request carries them. */
export interface EventListRequest {
  after?: string;
  before?: string;
  distinct_id?: string;
  event?: string;
  person_id?: string;
  properties?: string;
  select?: string;
  where?: string;
  orderBy?: string;
  cursor?: string;
  limit: number;
  offset: number;
}

/**
 * Every parameter of the request, parsed in a fixed order so that the first bad one is the one reported. `limit`
 * is the page size, already capped by the caller.
 */
export function parseEventListRequest(request: EventListRequest, timezone: string): EventListQuery {
  try {
    const cursor = decodeCursor(request.cursor);
    const propertiesText = request.properties;
    const properties =
      propertiesText === undefined || propertiesText === ''
        ? null
        : inParameter('properties', () => parsePropertyFilters(parseFilterJson(propertiesText)));
    const where = inParameter('where', () => expressionList('where', request.where).map(parseExpression));
    const selectTexts = expressionList('select', request.select);
    const select = selectTexts.length > 0 ? inParameter('select', () => selectTexts.map(parseSelectItem)) : null;
    const direction = order(request.orderBy);
    const after = dateTime('after', request.after, timezone);
    const before = dateTime('before', request.before, timezone);
    return {
      cursor,
      properties,
      where,
      select,
      direction,
      after,
      before,
      event: request.event ?? null,
      distinctId: request.distinct_id ?? null,
      personId: request.person_id ?? null,
      limit: request.limit,
      offset: request.offset,
      dataErrorParameter: dataErrorParameterOf(request),
    };
  } catch (error) {
    if (error instanceof HogQLError) throw errors.validation(error.message, error.parameter);
    throw error;
  }
}

function invalid(attr: string, detail: string): ApiError {
  return errors.validation(detail, attr);
}

function parseJson(attr: string, text: string, detail: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalid(attr, detail);
  }
}

/** `properties` as JSON, its integers beyond 2^53 exact, so that a filter matches what capture stored. */
function parseFilterJson(text: string): unknown {
  try {
    return parseExactJson(text, MAX_JSON_DEPTH);
  } catch {
    throw invalid('properties', 'Properties are unparsable!');
  }
}

/** `select` and `where` are JSON lists of expressions; a single JSON string is one expression. */
function expressionList(attr: string, text: string | undefined): string[] {
  if (text === undefined) return [];
  const value = parseJson(attr, text, `${attr} must be a JSON list of HogQL expressions, such as ["event", "count()"].`);
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || !list.every((item) => typeof item === 'string')) {
    throw invalid(attr, `${attr} must be a JSON list of HogQL expressions, such as ["event", "count()"].`);
  }
  if (attr === 'select' && list.length === 0) throw invalid(attr, 'select must name at least one expression.');
  if (list.length > 100) throw invalid(attr, `${attr} may hold at most 100 expressions.`);
  return list;
}

function dateTime(attr: string, text: string | undefined, timezone: string): DateTimeText | null {
  if (text === undefined || text === '') return null;
  const parsed = parseDateTimeInput(text, undefined, timezone);
  if (!parsed) throw invalid(attr, `"${text}" is not an ISO 8601 date-time or a relative date such as -7d.`);
  return parsed;
}

function order(text: string | undefined): 'asc' | 'desc' {
  if (text === undefined || text === '') return 'desc';
  const value = parseJson('orderBy', text, 'orderBy must be ["timestamp"] or ["-timestamp"].');
  if (Array.isArray(value) && value.length === 1 && value[0] === '-timestamp') return 'desc';
  if (Array.isArray(value) && value.length === 1 && value[0] === 'timestamp') return 'asc';
  throw invalid('orderBy', 'orderBy must be ["timestamp"] or ["-timestamp"].');
}

/**
 * The parameter that an error PostgreSQL raises on the data (a value out of range, a pattern it cannot run)
 * comes from, when only one parameter holds expressions or filters; otherwise none is named.
 */
function dataErrorParameterOf(request: EventListRequest): string | null {
  const given = (['select', 'where', 'properties'] as const).filter((name) => request[name] !== undefined && request[name] !== '');
  return given.length === 1 ? given[0]! : null;
}

