/**
 * Running a HogQLQuery of the query endpoint: the SELECT parsed and compiled by db/hogql/select/ for the caller's
 * environment, run on a read-only session within the query timeout (db/pg/read-session.ts), and answered as
 * PostHog answers a HogQLQuery: rows of values, the columns' names and ClickHouse types, the query as it ran.
 */
import { errors } from '../../core/errors.js';
import type { ReadDb } from '../../pg/client.js';
import { HogQLError } from '../../hogql/index.js';
import { compileSelect, parseSelect, requestPlaceholders, type CompiledSelect, type HogQLFilters, type HogQLVariable } from '../../hogql/select/index.js';
import type { EnvironmentRow } from '../../rows.js';
import { runCompiledSelect, seconds, type QueryBounds, type SessionHook } from './execute.js';

/** Rows returned when the query has no LIMIT, as PostHog. */
export const DEFAULT_RETURNED_ROWS = 100;
/** The most rows one query returns; a larger LIMIT is lowered to it, as PostHog. */
export const MAX_SELECT_RETURNED_ROWS = 50_000;

export interface HogQLQueryInput {
  query: string;
  values?: Record<string, unknown>;
  /** What `{filters}` stands for (select/placeholders.ts). */
  filters?: HogQLFilters | null;
  /** The values of `{variables.<code_name>}`, by variable id. */
  variables?: Record<string, HogQLVariable> | null;
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
    const placeholders = requestPlaceholders(input.filters, input.variables, environment.timezone);
    const parsed = parseSelect(input.query, placeholderValues(input.values ?? {}), placeholders);
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
  bounds: QueryBounds,
  limits: RowLimits = { defaultRows: DEFAULT_RETURNED_ROWS, maxRows: MAX_SELECT_RETURNED_ROWS },
  session?: SessionHook,
): Promise<HogQLQueryResult> {
  const started = performance.now();
  const query = compiledQuery(environment, input, limits);
  const compiledAt = performance.now();
  const { rows: results, more } = await runCompiledSelect(reader, query, bounds, undefined, session);
  const finished = performance.now();
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
