/**
 * Turns PostgreSQL errors into API errors, here in the data layer, so that handlers never see a driver error:
 * a database that cannot be reached or does not answer in time is a 503 with `Retry-After` (the caller may try
 * again; nothing is wrong with the request), and errors PostgreSQL raises on values the caller wrote are 400s.
 * Anything not listed stays as it is and becomes a logged 500 in the error middleware.
 */
import { ApiError, errors } from '../core/errors.js';

interface PgError {
  code?: string;
  constraint?: string;
  column?: string;
  detail?: string;
}

/** Constraint names whose violation means "this value is taken", with the API field they belong to. */
const UNIQUE_FIELDS: Readonly<Record<string, string>> = {
  organizations_slug_unique: 'slug',
  users_email_unique: 'email',
  organization_memberships_organization_id_user_id_unique: 'user',
};

/** Seconds a client is told to wait before retrying while the database is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export function databaseUnavailable(detail = 'The database is unavailable; retry later.'): ApiError {
  return errors.unavailable(detail, UNAVAILABLE_RETRY_AFTER_SECONDS);
}

/**
 * `pg`'s own deadline for an answer (query_timeout) passed: the statement may still be running on the server.
 * (Knex puts the statement's text before the message.)
 */
export function isClientTimeout(error: unknown): boolean {
  return error instanceof Error && error.message.endsWith('Query read timeout');
}

/**
 * The database could not be reached or did not answer in time: network errors, PostgreSQL's connection-exception,
 * insufficient-resources, operator-intervention (a shutdown, or a statement cancelled by its timeout: the event
 * listing, where the caller's query is the cause, answers that one 504 before it comes here) and system-error classes,
 * `pg`'s connection and answer deadlines, the pool's deadline for lending a connection, and an ApiError 503
 * already made of one of those.
 */
export function isUnavailable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 503;
  if (typeof error !== 'object' || error === null) return false;
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string') {
    if (/^E(CONNREFUSED|CONNRESET|PIPE|TIMEDOUT|HOSTUNREACH|NETUNREACH|AI_AGAIN|NOTFOUND)$/.test(code)) return true;
    if (/^(08|53|57P0|57014|58)/.test(code)) return true;
  }
  return (
    typeof message === 'string' &&
    /Connection terminated|connection error|not queryable|timeout exceeded|timeout expired|Query read timeout/i.test(message)
  );
}

/** `error` as a 503 when the database is unavailable, otherwise as it is. */
export function asUnavailable(error: unknown): unknown {
  return isUnavailable(error) && !(error instanceof ApiError) ? databaseUnavailable() : error;
}

export function translatePgError(error: unknown): unknown {
  if (error instanceof ApiError || typeof error !== 'object' || error === null) return error;
  if (isUnavailable(error)) return databaseUnavailable();
  const pg = error as PgError;
  switch (pg.code) {
    case '23505': {
      const attr = (pg.constraint && UNIQUE_FIELDS[pg.constraint]) ?? null;
      return errors.conflict(attr ? `A resource with this ${attr} already exists.` : 'This resource already exists.', attr);
    }
    case '23503':
      return errors.validation('A referenced resource does not exist.', pg.column ?? null, 'does_not_exist');
    case '23502':
      return pg.column ? errors.required(pg.column) : errors.validation('A required value is missing.');
    case '22001':
      return errors.validation('A value is longer than allowed.', pg.column ?? null, 'max_length');
    case '22P02':
    case '22007':
    case '22008':
      return errors.validation('A value is not of the expected type.', pg.column ?? null);
    case '22003':
      return errors.validation('A number is out of range.', pg.column ?? null);
    // Values the caller wrote that PostgreSQL refuses to compute with.
    case '22012':
      return errors.validation('Division by zero.', pg.column ?? null);
    case '2201E':
    case '2201F':
    case '22023':
      return errors.validation('A value is not valid for the function it is given to.', pg.column ?? null);
    case '2201B':
      return errors.validation('A regular expression is not valid.', pg.column ?? null);
    case '22019':
    case '22025':
      return errors.validation('A pattern has an invalid escape sequence.', pg.column ?? null);
    case '54023':
      return errors.validation('A function is given more than 100 arguments.', pg.column ?? null);
    case '23514':
      return errors.validation('A value is not allowed here.', pg.column ?? null, 'invalid_choice');
    // A NUL character in a text parameter (22021) or in a JSON string bound for jsonb (22P05): PostgreSQL
    // cannot store either, and DRF refuses them with this text.
    case '22021':
    case '22P05':
      return errors.validation('Null characters are not allowed.', null, 'null_characters_not_allowed');
    default:
      return error;
  }
}

/** Runs a query function and rethrows its PostgreSQL error as an API error. */
export async function translated<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw translatePgError(error);
  }
}

/** SQLSTATE of a statement cancelled, here by the session's statement timeout. */
const QUERY_CANCELED = '57014';

/** The code of the 504 a query cancelled by the statement timeout answers. */
const QUERY_TIMEOUT = 'query_timeout';

/** Whether a read failed for the statement timeout (as onReadSession reports it). */
export function isQueryTimeout(error: unknown): boolean {
  return error instanceof ApiError && error.code === QUERY_TIMEOUT;
}

/** `advice`: how to make the query shorter, in the words of the request it came from (the listing's by default). */
export function queryTimeout(timeoutMs: number, advice = 'Narrow it with after and before, or more selective filters.'): ApiError {
  return new ApiError(504, 'server_error', QUERY_TIMEOUT, `The query ran longer than ${timeoutMs} ms and was cancelled. ${advice}`);
}

/** The request parameters that the errors of a query the caller wrote are named by, as the caller knows them. */
export interface QueryParameters {
  /** Where a data error comes from, when only one parameter could hold it. */
  data?: string | null;
  /**
   * The parameter of the selected expressions, named when one of them uses a field outside an aggregate. Without
   * it that error is left as PostgreSQL raised it, for the caller to word (as other errors of the query's shape).
   */
  selectedExpressions?: string;
}

/**
 * The errors of a query the caller wrote (the event listing's HogQL): a data error is named by the request
 * parameter it came from, when only one could hold it; anything else as translatePgError answers it.
 */
export function translateQueryError(error: unknown, timeoutMs: number, parameters: QueryParameters = {}): unknown {
  const pg = error as { code?: string; message?: string };
  const dataErrorParameter = parameters.data ?? null;
  switch (pg.code) {
    case QUERY_CANCELED:
      return queryTimeout(timeoutMs);
    case '2201B':
      return errors.validation(`A regular expression is not valid: ${pg.message ?? ''}`.trim(), dataErrorParameter);
    case '22025': // invalid_escape_sequence: a like pattern that ends with its escape character
      return errors.validation('A like pattern cannot end with a backslash; write \\\\ for one.', dataErrorParameter);
    case '22003':
    case '22008':
      return errors.validation('A number or date in the query is out of range.', dataErrorParameter);
    case '42803':
      if (parameters.selectedExpressions === undefined) return error;
      return errors.validation(
        'With aggregates, every other selected expression is grouped by: it cannot use a field outside an aggregate inside a larger expression.',
        parameters.selectedExpressions,
      );
    case '54001':
      return errors.validation('The query is too deeply nested.');
    case '54023':
      return errors.validation('A function is given more than 100 arguments.', dataErrorParameter);
    // An operator or function PostgreSQL has for none of the types the expression gives it.
    case '42883':
      return errors.validation(`An expression combines values of types that cannot be combined: ${pg.message ?? ''}`.trim(), dataErrorParameter);
    case '22023': {
      // A zone name the compiler let through (the runtime's list of zones has a few PostgreSQL's has not).
      const zone = /^time zone "(.*)" not recognized$/.exec(pg.message ?? '');
      if (zone) return errors.validation(`Unknown timezone "${zone[1]}".`, dataErrorParameter);
      return errors.validation(`A value in the query is not valid: ${pg.message ?? ''}`.trim(), dataErrorParameter);
    }
    case '22012':
    case '2201E':
    case '2201F':
    case '22019':
      return errors.validation(`A value in the query is not valid: ${pg.message ?? ''}`.trim(), dataErrorParameter);
    case '22P02':
      return errors.validation(`A value in the query is not of the expected type: ${pg.message ?? ''}`.trim(), dataErrorParameter);
    case '54011':
      return errors.validation(`The query selects too many columns: at most ${MAX_SELECTED_COLUMNS} can be returned.`);
    default: {
      const translated = translatePgError(error);
      return translated !== error ? translated : (queryCausedError(pg, dataErrorParameter) ?? error);
    }
  }
}

/** PostgreSQL's limit on the entries of one select list (MaxTupleAttributeNumber). */
const MAX_SELECTED_COLUMNS = 1664;

/**
 * The classes of errors that the text of a query causes, not the database's state: a 400 that names the problem
 * in PostgreSQL's words. Data exceptions (22: a value a function refuses, a cast of text that is not a number,
 * a number out of range), cardinality violations (21: a subquery that answers more than one row where one value
 * is wanted), features a statement uses that are not supported (0A), and program limits (54: too complex, too
 * many columns, too many arguments). The database's own trouble (connections, resources, a shutdown) is not here:
 * a 503.
 */
function queryCausedError(pg: { code?: string; message?: string }, dataErrorParameter: string | null): ApiError | null {
  const detail = (pg.message ?? '').trim();
  switch (pg.code?.slice(0, 2)) {
    case '22':
      return errors.validation(`A value in the query is not valid: ${detail}`, dataErrorParameter);
    case '21':
    case '0A':
      return errors.validation(`The query cannot run: ${detail}.`);
    case '54':
      return errors.validation(`The query exceeds a limit of the database: ${detail}.`);
    default:
      return null;
  }
}
