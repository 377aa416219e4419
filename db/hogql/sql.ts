/**
 * SQL fragments that carry their own parameters. Text only ever comes from this codebase (template strings and
 * `keyword()`); every value from a request goes through `param()` and reaches PostgreSQL as a bound parameter.
 * Fragments use Knex's `?` placeholders, in text order, so a whole query runs as `db.raw(text, params)`.
 */

export interface Fragment {
  readonly text: string;
  readonly params: readonly unknown[];
  /**
   * The parts of the SQL once PostgreSQL has written each column of a nested statement into the places that
   * read it (which its planner does when it pulls a subquery up): a column reference weighs as the column's
   * expression, and a fragment as the sum of its pieces. A compiler bounds it, since the text alone can be short
   * where the planner's copy is exponential.
   */
  readonly weight: number;
}

/** The PostgreSQL type a parameter is cast to: values are sent as text, so the cast fixes their type. */
export type ParamCast = 'text' | 'bigint' | 'int' | 'numeric' | 'boolean' | 'timestamptz' | 'timestamp' | 'date' | 'uuid' | 'jsonb' | 'smallint' | 'float8';

function checkStatic(text: string): string {
  // A literal "?" would be taken for a placeholder by Knex; static SQL never needs one.
  if (text.includes('?')) throw new Error(`static SQL must not contain "?": ${text}`);
  return text;
}

/** Composes a fragment: the template's text is static, each interpolation is a fragment. */
export function sql(strings: TemplateStringsArray, ...values: Fragment[]): Fragment {
  let text = checkStatic(strings[0]!);
  const params: unknown[] = [];
  let weight = 1;
  values.forEach((value, index) => {
    text += value.text + checkStatic(strings[index + 1]!);
    // One by one: spreading a large list into push() as arguments overflows the call stack.
    for (const bound of value.params) params.push(bound);
    weight += value.weight;
  });
  return { text, params, weight };
}

/** A bound parameter of a scalar value, cast to `cast`. */
export function param(value: string | number | boolean | bigint, cast: ParamCast): Fragment {
  const bound = typeof value === 'bigint' ? value.toString() : value;
  return { text: `?::${cast}`, params: [bound], weight: 1 };
}

/**
 * A row count (LIMIT, OFFSET) written into the text, not bound: PostgreSQL estimates a parameterised one as a
 * tenth of the rows, so a prepared statement's generic plan would never match its custom plans and every
 * execution would be planned again (db/pg/prepared.ts). Only a non-negative safe integer is accepted.
 */
export function rowCount(value: number): Fragment {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`a row count must be a non-negative integer: ${value}`);
  return { text: String(value), params: [], weight: 1 };
}

/** A bound parameter holding a list of texts (one text[] parameter, whatever its length). */
export function textArrayParam(values: readonly string[]): Fragment {
  return { text: '?::text[]', params: [[...values]], weight: 1 };
}

/** Static SQL chosen by code (a keyword, an operator, a column of the fixed field table). */
export function keyword(text: string): Fragment {
  return { text: checkStatic(text), params: [], weight: 1 };
}

/** A column of a nested statement, by its name there (`s1.c0`), weighing as the expression it names. */
export function columnReference(text: string, expressionWeight: number): Fragment {
  return { text: checkStatic(text), params: [], weight: expressionWeight };
}

export function join(fragments: readonly Fragment[], separator: string): Fragment {
  checkStatic(separator);
  return {
    text: fragments.map((fragment) => fragment.text).join(separator),
    params: fragments.flatMap((fragment) => fragment.params),
    weight: fragments.reduce((sum, fragment) => sum + fragment.weight, 0),
  };
}

export const EMPTY: Fragment = { text: '', params: [], weight: 0 };
