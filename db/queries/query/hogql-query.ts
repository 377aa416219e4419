/**
 * Running a HogQLQuery of the query endpoint: the SELECT parsed and compiled by db/hogql/select/ for the caller's
 * environment, run on a read-only session within the query timeout (db/pg/read-session.ts), and answered as
 * PostHog answers a HogQLQuery: rows of values, the columns' names and ClickHouse types, the query as it ran.
 */
import { ApiError, errors } from '../../core/errors.js';
import type { ReadDb } from '../../pg/client.js';
import { onReadSession, type Reader } from '../../pg/read-session.js';
import { HogQLError, outputValue } from '../../hogql/index.js';
import { compileSelect, parseSelect, type CompiledSelect } from '../../hogql/select/index.js';
import type { EnvironmentRow } from '../../rows.js';

/** Rows returned when the query has no LIMIT, as PostHog. */
export const DEFAULT_RETURNED_ROWS = 100;
/** The most rows one query returns; a larger LIMIT is lowered to it, as PostHog. */
export const MAX_SELECT_RETURNED_ROWS = 50_000;

export interface HogQLQueryInput {
  query: string;
  values?: Record<string, unknown>;
}

export interface HogQLQueryResult {
  results: unknown[][];
  columns: string[];
  types: [string, string][];
  query: string;
  hogql: string;
  timings: { k: string; t: number }[];
  /** Only for a query without a LIMIT, as PostHog's paginator adds them. */
  hasMore?: boolean;
  limit?: number;
  offset?: number;
}

export interface RowLimits {
  defaultRows: number;
  maxRows: number;
}

type PlaceholderValue = string | number | boolean | null;

function placeholderValues(values: Record<string, unknown>): Record<string, PlaceholderValue> {
  for (const [name, value] of Object.entries(values)) {
    const scalar = value === null || ['string', 'number', 'boolean'].includes(typeof value);
    if (!scalar) throw new HogQLError(`The value of the placeholder {${name}} must be a string, a number, a boolean or null.`);
    if (typeof value === 'number' && !Number.isFinite(value)) throw new HogQLError(`The value of the placeholder {${name}} is out of range.`);
  }
  return values as Record<string, PlaceholderValue>;
}

function compiledQuery(environment: EnvironmentRow, input: HogQLQueryInput, limits: RowLimits): CompiledSelect {
  try {
    const parsed = parseSelect(input.query, placeholderValues(input.values ?? {}));
    return compileSelect(parsed, {
      teamId: environment.id,
      timezone: environment.timezone,
      defaultLimit: limits.defaultRows,
      maxLimit: limits.maxRows,
    });
  } catch (error) {
    if (error instanceof HogQLError) throw errors.validation(error.message);
    throw error;
  }
}

export async function runHogQLQuery(
  reader: ReadDb,
  environment: EnvironmentRow,
  input: HogQLQueryInput,
  timeoutMs: number,
  limits: RowLimits = { defaultRows: DEFAULT_RETURNED_ROWS, maxRows: MAX_SELECT_RETURNED_ROWS },
  /**
   * Told of the session that runs the statement: before the statement, and after it (however it ended) while the
   * session is still held. An asynchronous run records the session for the length of its statement.
   */
  session?: { onStart(read: Reader): Promise<void>; onEnd(): Promise<void> },
): Promise<HogQLQueryResult> {
  const started = performance.now();
  const query = compiledQuery(environment, input, limits);
  const compiledAt = performance.now();
  // The text is already numbered ($n), so the session's `?` numbering leaves it as it is. Unnamed: each query
  // is planned for its own values.
  const rows = await onReadSession(reader, timeoutMs, async (read) => {
    if (!session) return (await read(query.text, query.params, { prepare: false })).rows;
    try {
      await session.onStart(read);
      return (await read(query.text, query.params, { prepare: false })).rows;
    } finally {
      await session.onEnd();
    }
  }).catch(
    (error: unknown) => {
      // The one query error read-session names the listing's `select` for: here the query is one text.
      if (error instanceof ApiError && error.status === 400 && error.attr === 'select') {
        throw errors.validation('An expression outside an aggregate function uses a field that is not in GROUP BY.');
      }
      // What PostgreSQL finds wrong with the statement a query compiled to (class 42) is the query's shape.
      const code = (error as { code?: unknown }).code;
      if (!(error instanceof ApiError) && code === '42P10') throw errors.validation('With DISTINCT, ORDER BY may only name selected expressions.');
      if (!(error instanceof ApiError) && typeof code === 'string' && code.startsWith('42')) {
        throw errors.validation(`The query cannot run: ${(error as Error).message}.`);
      }
      throw error;
    },
  );
  const more = query.paginated && rows.length > query.limit;
  const page = more ? rows.slice(0, query.limit) : rows;
  const results = page.map((row) => query.columns.map((column, index) => outputValue(column.type, row[`c${index}`])));
  const finished = performance.now();
  const seconds = (ms: number) => Math.round(ms) / 1000;
  return {
    results,
    columns: query.columns.map((column) => column.name),
    types: query.columns.map((column) => [column.name, column.clickhouseType]),
    query: input.query,
    hogql: query.hogql,
    timings: [
      { k: './compile', t: seconds(compiledAt - started) },
      { k: './execute', t: seconds(finished - compiledAt) },
      { k: '.', t: seconds(finished - started) },
    ],
    ...(query.paginated ? { hasMore: more, limit: query.limit, offset: query.offset } : {}),
  };
}
