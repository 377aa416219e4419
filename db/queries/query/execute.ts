/**
 * Running a compiled SELECT (db/hogql/select/) on a read-only session within the query timeout, with what
 * PostgreSQL finds wrong with the statement answered as a 400 about the query: shared by every query kind.
 *
 * The rows are taken one at a time as they arrive (db/pg/read-session.ts RowReader), each turned at once into the
 * values the answer shows, never all buffered first; the answer is held to a byte budget twice over:
 * - PostgreSQL counts the JSON of the rows it sends, and fails the statement with a recognisable error before
 *   sending the row that would take their total past the budget. No row, however large (one row of
 *   `groupArray(properties)` over millions of events), nor any number of them ever reaches this process past
 *   the budget.
 * - Here the JSON of each row as the answer shows it is counted, and the statement stopped once it passes the
 *   budget (an answer may show a row larger than PostgreSQL wrote it: an event's properties parsed into a dict).
 */
import { ApiError, errors } from '../../core/errors.js';
import { DEFAULT_RESULT_MAX_BYTES } from '../../core/query-limits.js';
import type { ReadDb } from '../../pg/client.js';
import { isQueryTimeout, queryTimeout } from '../../pg/errors.js';
import { onReadSession, type Reader } from '../../pg/read-session.js';
import { outputValue } from '../../hogql/index.js';
import type { CompiledSelect } from '../../hogql/select/index.js';

/**
 * Told of the session that runs a statement: before the statement, and after it (however it ended) while the
 * session is still held. An asynchronous run records the session for the length of its statement, so that a
 * cancel from any process reaches that statement and no other.
 */
export interface SessionHook {
  onStart(read: Reader): Promise<void>;
  onEnd(): Promise<void>;
}

/** What one query may cost: its time, waiting for a session and reading every row included, and its answer's size. */
export interface QueryBounds {
  timeoutMs: number;
  /** Bytes of JSON the answer's rows may take. */
  maxResultBytes: number;
  /**
   * Told the answer's bytes so far as its rows are counted (at most the budget): the memory it holds in the
   * process grows with them. It may throw to stop the query (the process holds as many answers as it may).
   */
  onAnswerBytes?: (bytes: number) => void;
}

const MIB = 1024 * 1024;

export { DEFAULT_RESULT_MAX_BYTES };

/** The rows of the page (at most `query.limit`, as the answer shows them) and whether more came after them. */
export interface ReadRows {
  rows: unknown[][];
  more: boolean;
}

/**
 * Runs the query and answers its rows, each of them as `shape` makes it of the row's output values (the compiled
 * columns' values as the response shows them).
 */
export async function runCompiledSelect(
  reader: ReadDb,
  query: CompiledSelect,
  bounds: QueryBounds,
  shape: (values: unknown[]) => unknown[] = (values) => values,
  session?: SessionHook,
): Promise<ReadRows> {
  const run = (read: Reader) => readRows(read, query, bounds, shape);
  return onReadSession(reader, bounds.timeoutMs, async (read) => {
    if (!session) return run(read);
    try {
      await session.onStart(read);
      return await run(read);
    } finally {
      await session.onEnd();
    }
  }).catch((error: unknown) => {
    if (isQueryTimeout(error)) throw queryTimeout(bounds.timeoutMs, TIMEOUT_ADVICE);
    // What PostgreSQL finds wrong with the statement a query compiled to (class 42) is the query's shape.
    const code = (error as { code?: unknown }).code;
    if (!(error instanceof ApiError) && code === '42803') {
      throw errors.validation('An expression outside an aggregate function uses a field that is not in GROUP BY.');
    }
    if (!(error instanceof ApiError) && code === '42P10') throw errors.validation('With DISTINCT, ORDER BY may only name selected expressions.');
    if (!(error instanceof ApiError) && typeof code === 'string' && code.startsWith('42')) {
      throw errors.validation(`The query cannot run: ${(error as Error).message}.`);
    }
    throw error;
  });
}

const TIMEOUT_ADVICE = 'Narrow it with a condition on timestamp, a LIMIT, or fewer joins.';

async function readRows(read: Reader, query: CompiledSelect, bounds: QueryBounds, shape: (values: unknown[]) => unknown[]): Promise<ReadRows> {
  const maxBytes = bounds.maxResultBytes;
  const rows: unknown[][] = [];
  let more = false;
  // The answer's `results` array: its brackets, and a comma between rows.
  let bytes = 2;
  let tooLarge = false;
  try {
    await read.eachRow(withinBudget(query, maxBytes), query.params, (raw) => {
      // The row past the page (a query without a LIMIT reads one more) only says that there are more.
      if (rows.length === query.limit) {
        more = true;
        return true;
      }
      const row = shape(query.columns.map((column, index) => outputValue(column.type, raw[index])));
      bytes += Buffer.byteLength(JSON.stringify(row)) + (rows.length > 0 ? 1 : 0);
      if (bytes > maxBytes) {
        tooLarge = true;
        return false;
      }
      bounds.onAnswerBytes?.(bytes);
      rows.push(row);
      return true;
    });
  } catch (error) {
    if (isOverBudget(error)) throw resultTooLarge(maxBytes);
    throw error;
  }
  if (tooLarge) throw resultTooLarge(maxBytes);
  return { rows, more };
}

/** The text PostgreSQL's error quotes when the rows it sent would pass the budget. */
const OVER_BUDGET_MARK = 'hedgerow: result over budget, bytes ';

/**
 * A statement's rows counted as they leave PostgreSQL: the running total of each row's JSON (as row_to_json
 * writes it, less `uncountedBytes` of each), and an error raised by the row that would take it past `maxBytes`,
 * so that the row is never sent. The total is a window sum over the rows in the order the statement gives them,
 * which PostgreSQL computes row by row as it sends them. The error is a cast to integer of a text naming the
 * total (a statement cannot raise an error of its own without a function; the text depends on the row, so that
 * the planner never computes it ahead). `selected` picks the columns back out of the row record; the column
 * `hedgerow_total` is taken.
 */
function countedRows(text: string, maxBytes: number, selected: string, uncountedBytes: number): string {
  const total = `sum(octet_length(row_to_json(hedgerow_row)::text) - ${uncountedBytes}) over (rows between unbounded preceding and current row)`;
  const raise = `case when hedgerow_rows.hedgerow_total > ${Math.trunc(maxBytes)} then ('${OVER_BUDGET_MARK}' || hedgerow_rows.hedgerow_total)::int end`;
  return `select ${selected} from (select hedgerow_row, ${total} as hedgerow_total from (${text}) hedgerow_row) hedgerow_rows where ${raise} is null`;
}

/**
 * The compiled query, counted as countedRows() counts: the answer's rows are arrays, so the column names
 * row_to_json writes (`"cN":` before each value) are not counted. The columns are named back one by one, so
 * that the guard adds no column to a select list that PostgreSQL limits.
 */
function withinBudget(query: CompiledSelect, maxBytes: number): string {
  const names = query.columns.map((_, index) => `c${index}`);
  const namesBytes = names.reduce((sum, name) => sum + name.length + 3, 0);
  return countedRows(query.text, maxBytes, names.map((name) => `(hedgerow_rows.hedgerow_row).${name}`).join(', '), namesBytes);
}

/**
 * Any statement's rows, counted as countedRows() counts, column names included (the event listing's, whose
 * answers are objects): the same columns in the same order.
 */
export function guardedByBudget(text: string, maxBytes: number): string {
  return countedRows(text, maxBytes, '(hedgerow_rows.hedgerow_row).*', 0);
}

/** SQLSTATE invalid_text_representation, which the guard's cast raises. */
const INVALID_TEXT_REPRESENTATION = '22P02';

/** PostgreSQL's message for the guard's cast, whole: a query's own text cast to a number is never taken for it. */
const OVER_BUDGET_MESSAGE = new RegExp(`^invalid input syntax for type integer: "${OVER_BUDGET_MARK}\\d+"$`);

export function isOverBudget(error: unknown): boolean {
  const pg = error as { code?: unknown; message?: unknown };
  return pg.code === INVALID_TEXT_REPRESENTATION && typeof pg.message === 'string' && OVER_BUDGET_MESSAGE.test(pg.message);
}

function sizeText(maxBytes: number): string {
  return maxBytes % MIB === 0 ? `${maxBytes / MIB} MB` : `${maxBytes} bytes`;
}

/** The 400 of an answer larger than its budget. */
export function resultTooLarge(maxBytes: number): ApiError {
  return errors.validation(`The query's result is larger than ${sizeText(maxBytes)}, the most one answer may hold. Add a LIMIT or select fewer columns.`);
}

/** The 400 of an event listing's page larger than the answer budget. */
export function pageTooLarge(maxBytes: number): ApiError {
  return errors.validation(
    `The page of events is larger than ${sizeText(maxBytes)}, the most one answer may hold. Lower \`limit\` or select fewer columns.`,
  );
}

/** Seconds with millisecond precision, as the responses' `timings` show them. */
export function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}
