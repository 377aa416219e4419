/**
 * ClickHouse's string functions (PostHog's clickhouse/strings.py): text, searching, replacing, splitting and the
 * PostgreSQL-style names PostHog adds. PostgreSQL's text is characters where ClickHouse's String is bytes: the
 * byte functions whose answer is a number (length, position, ascii) count UTF-8 bytes; the ones that cut text
 * (substring, leftPad) cut characters, which is the same for ASCII text. lower() and upper() change ASCII letters
 * only, as ClickHouse's do; lowerUTF8() and upperUTF8() change every letter.
 */
import type { Expr } from '../ast.js';
import type { Compiler } from '../compiler.js';
import { HogQLError } from '../errors.js';
import type { FunctionDef } from '../functions.js';
import { join, keyword, param, sql, type Fragment } from '../sql.js';
import { arrayOf, typed, type Typed } from '../types.js';
import type { Family } from './index.js';
import { alias, arg, ASCII_PUNCTUATION, constantInteger, constantText, derived, int4, MAX_BUILT_TEXT, nullFor, pattern, regexConstant, scalar, to, weighBuiltText } from './common.js';

const UPPER_ASCII = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER_ASCII = 'abcdefghijklmnopqrstuvwxyz';

const asciiLower = (text: Fragment) => sql`translate(${text}, ${keyword(`'${UPPER_ASCII}'`)}, ${keyword(`'${LOWER_ASCII}'`)})`;
const asciiUpper = (text: Fragment) => sql`translate(${text}, ${keyword(`'${LOWER_ASCII}'`)}, ${keyword(`'${UPPER_ASCII}'`)})`;
const bytesOf = (text: Fragment) => sql`convert_to(${text}, 'UTF8')`;

/** An array argument (needles, a split's parts) as a jsonb array: anything else is an empty one. */
function jsonArray(c: Compiler, expr: Expr, fn: string): Typed {
  const value = c.compile(expr);
  if (value.type !== 'array' && value.type !== 'json') throw new HogQLError(`The second argument of ${fn}() must be an array of strings.`);
  return { ...value, sql: sql`(case when jsonb_typeof(${value.sql}) = 'array' then ${value.sql} else '[]'::jsonb end)` };
}

/**
 * Text built to a length a query names (repeat, leftPad): bounded, so that one call cannot fill the server's
 * memory. A constant length past the bound is refused; a computed one makes the value NULL.
 */
function boundedLength(c: Compiler, expr: Expr, fn: string): Typed {
  if (expr.kind === 'constant' && typeof expr.value === 'number' && expr.value > MAX_BUILT_TEXT) {
    throw new HogQLError(`${fn}() can build at most ${MAX_BUILT_TEXT} characters.`);
  }
  const length = to(c, expr, 'int');
  return { ...length, sql: sql`(case when ${length.sql} <= ${keyword(String(MAX_BUILT_TEXT))} then ${length.sql} end)`, nullable: true };
}

function pad(name: string, sqlName: 'lpad' | 'rpad', minArgs: number): FunctionDef {
  return {
    name,
    minArgs,
    maxArgs: 3,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const length = boundedLength(c, arg(args, 1), name);
      const filler = args.length > 2 ? to(c, arg(args, 2), 'string') : null;
      // ClickHouse pads to the length, and cuts a longer text to it: so does lpad(); a negative length is ''.
      const target = arg(args, 1);
      const most = target.kind === 'constant' && typeof target.value === 'number' ? target.value : MAX_BUILT_TEXT;
      const body = weighBuiltText(sql`${keyword(sqlName)}(${text.sql}, greatest(${int4(length.sql)}, 0), ${filler ? filler.sql : keyword("' '")})`, most);
      return derived(body, 'string', [text, length, ...(filler ? [filler] : [])]);
    },
  };
}

/** substring(s, offset[, length]): from 1, a negative offset counts from the end, 0 is an empty text. */
function substring(name: string): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const offset = to(c, arg(args, 1), 'int');
      const length = args.length > 2 ? to(c, arg(args, 2), 'int') : null;
      const size = sql`char_length(${text.sql})`;
      // Positions before the first character count, as in PostgreSQL's substr(): ('hello', -6, 3) is 'he'.
      const start = sql`(case when ${offset.sql} > 0 then ${offset.sql} when ${offset.sql} < 0 then ${size} + ${offset.sql} + 1 end)`;
      // A negative length ends that many characters before the end of the text. The bounds are worked out in
      // bigint, and only those inside the text reach substr(), whose int arguments they then fit.
      const count = length
        ? sql`greatest((case when ${length.sql} >= 0 then ${length.sql} else ${size} + ${length.sql} - ${start} + 1 end), 0)`
        : null;
      const first = sql`greatest(${start}, 1)`;
      const body = count
        ? sql`substr(${text.sql}, ${int4(first)}, ${int4(sql`greatest(${start} + ${count} - ${first}, 0)`)})`
        : sql`substr(${text.sql}, ${int4(first)})`;
      const parts = [text, offset, ...(length ? [length] : [])];
      return derived(sql`coalesce(${body}, (case when ${offset.sql} = 0 then '' end))`, 'string', parts);
    },
  };
}

/**
 * position(haystack, needle[, start]): where the needle first stands at or after start, from 1; 0 when it does
 * not; an empty needle stands at start. `bytes` counts UTF-8 bytes (position), else characters (positionUTF8).
 */
function position(name: string, bytes: boolean, caseInsensitive: boolean, needleFirst = false): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      const [haystackIndex, needleIndex] = needleFirst ? [1, 0] : [0, 1];
      let haystack = to(c, arg(args, haystackIndex), 'string');
      let needle = to(c, arg(args, needleIndex), 'string');
      if (caseInsensitive) {
        const fold = bytes ? asciiLower : (text: Fragment) => sql`lower(${text})`;
        haystack = { ...haystack, sql: fold(haystack.sql) };
        needle = { ...needle, sql: fold(needle.sql) };
      }
      const [h, n] = bytes ? [bytesOf(haystack.sql), bytesOf(needle.sql)] : [haystack.sql, needle.sql];
      const size = bytes ? sql`octet_length(${h})` : sql`char_length(${h})`;
      if (args.length < 3) return derived(sql`position(${n} in ${h})::bigint`, 'int', [haystack, needle]);
      const start = to(c, arg(args, 2), 'int');
      const found = sql`position(${n} in substring(${h} from ${int4(start.sql)}))`;
      const body = sql`(case when ${start.sql} < 1 or ${start.sql} > ${size} + 1 then 0 when ${found} = 0 then 0 else ${found} + ${start.sql} - 1 end)::bigint`;
      return derived(body, 'int', [haystack, needle, start]);
    },
  };
}

/** The multiSearch family: each needle's position in the haystack, folded as `kind` asks. */
function multiSearch(name: string, kind: 'allPositions' | 'firstPosition' | 'firstIndex' | 'any', caseInsensitive: boolean, utf8: boolean): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const haystack = to(c, arg(args, 0), 'string');
      const needles = jsonArray(c, arg(args, 1), name);
      const fold = (text: Fragment) => (caseInsensitive ? (utf8 ? sql`lower(${text})` : asciiLower(text)) : text);
      const [h, n] = [fold(haystack.sql), fold(keyword('needle.value'))];
      const found = utf8 ? sql`position(${n} in ${h})` : sql`position(${bytesOf(n)} in ${bytesOf(h)})`;
      const source = sql`jsonb_array_elements_text(${needles.sql}) with ordinality as needle(value, index)`;
      const parts = [haystack, needles];
      switch (kind) {
        case 'allPositions':
          return arrayOf(nullFor(haystack, sql`(select coalesce(jsonb_agg(${found} order by needle.index), '[]'::jsonb) from ${source})`), 'int', haystack.nullable, haystack.aggregate || needles.aggregate);
        case 'firstPosition':
          return derived(sql`(select coalesce(min(${found}) filter (where ${found} > 0), 0)::bigint from ${source})`, 'int', parts);
        case 'firstIndex':
          return derived(sql`(select coalesce(min(needle.index) filter (where ${found} > 0), 0)::bigint from ${source})`, 'int', parts);
        default:
          return c.boolean(sql`coalesce((select bool_or(${found} > 0) from ${source}), false)`, parts);
      }
    },
  };
}

/** countSubstrings(haystack, needle[, start]): non-overlapping occurrences, 0 for an empty needle. */
function countSubstrings(name: string, caseInsensitive: boolean): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      const haystack = to(c, arg(args, 0), 'string');
      const needle = to(c, arg(args, 1), 'string');
      const start = args.length > 2 ? to(c, arg(args, 2), 'int') : null;
      let h = start ? sql`substr(${haystack.sql}, greatest(${int4(start.sql)}, 1))` : haystack.sql;
      let n = needle.sql;
      if (caseInsensitive) [h, n] = [sql`lower(${h})`, sql`lower(${n})`];
      const body = sql`(case when ${n} = '' then 0 else (char_length(${h}) - char_length(replace(${h}, ${n}, ''))) / char_length(${n}) end)::bigint`;
      return derived(body, 'int', [haystack, needle, ...(start ? [start] : [])]);
    },
  };
}

function countMatches(name: string, flags: string): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const haystack = to(c, arg(args, 0), 'string');
      const body = sql`(select count(*) from regexp_matches(${haystack.sql}, ${regexConstant(arg(args, 1), name)}, ${keyword(`'${flags}'`)}))::bigint`;
      return derived(body, 'int', [haystack]);
    },
  };
}

/** hasSubsequence(haystack, needle): the needle's characters stand in the haystack in order, not always side by side. */
function hasSubsequence(name: string, caseInsensitive: boolean): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const haystack = to(c, arg(args, 0), 'string');
      const needle = to(c, arg(args, 1), 'string');
      // The needle as a LIKE pattern: its wildcards escaped, then each (escaped) character followed by `%`.
      const escaped = sql`regexp_replace(${needle.sql}, ${pattern('([%_\\\\])')}, ${pattern('\\\\\\1')}, 'g')`;
      const spread = sql`('%' || regexp_replace(${escaped}, ${pattern('(\\\\.|.)')}, ${pattern('\\1%')}, 'g'))`;
      const body = sql`${haystack.sql} ${keyword(caseInsensitive ? 'ilike' : 'like')} ${spread}`;
      return c.boolean(sql`coalesce(${body}, false)`, [haystack, needle]);
    },
  };
}

/** The ASCII characters that separate tokens (hasToken, splitByNonAlpha): all but letters and digits. */
const TOKEN_SEPARATOR = '[\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]';

function hasToken(name: string, caseInsensitive: boolean, orNull: boolean): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const haystack = to(c, arg(args, 0), 'string');
      const token = to(c, arg(args, 1), 'string');
      const quoted = sql`regexp_replace(${token.sql}, ${pattern(ASCII_PUNCTUATION)}, ${pattern('\\\\\\1')}, 'g')`;
      const expression = sql`(${pattern(`(^|${TOKEN_SEPARATOR})`)} || ${quoted} || ${pattern(`($|${TOKEN_SEPARATOR})`)})`;
      const found = sql`${haystack.sql} ${keyword(caseInsensitive ? '~*' : '~')} ${expression}`;
      // A needle that is not one token (empty, or holding a separator) is an error in ClickHouse; the OrNull
      // forms answer NULL for it, the others never find it.
      const invalid = sql`(${token.sql} = '' or ${token.sql} ~ ${pattern(TOKEN_SEPARATOR)})`;
      if (orNull) return typed(sql`(case when ${invalid} then null else coalesce(${found}, false) end)`, 'boolean', true, haystack.aggregate || token.aggregate);
      return c.boolean(sql`coalesce(not ${invalid} and ${found}, false)`, [haystack, token]);
    },
  };
}

/** A regular expression's replacement as PostgreSQL writes it: ClickHouse's \0 (the whole match) is \&. */
function replacementConstant(expr: Expr, fn: string): Fragment {
  const text = constantText(expr, `The replacement of ${fn}()`);
  const translated = text.replace(/\\(.)/gs, (_all, char: string) => (char === '0' ? '\\&' : /[1-9\\]/.test(char) ? `\\${char}` : char));
  return param(translated.replace(/&/g, (amp, offset: number) => (translated[offset - 1] === '\\' ? amp : '\\&')), 'text');
}

function replaceRegexp(name: string, global: boolean): FunctionDef {
  return {
    name,
    minArgs: 3,
    maxArgs: 3,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const flags = keyword(global ? "'g'" : "''");
      const body = sql`regexp_replace(${text.sql}, ${regexConstant(arg(args, 1), name)}, ${replacementConstant(arg(args, 2), name)}, ${flags})`;
      return derived(body, 'string', [text]);
    },
  };
}

/** A split's parts as a jsonb array of strings, the first `max` of them when the call gives a maximum. */
function splitResult(parts: Fragment, text: Typed, max: Typed | null): Typed {
  if (!max) return arrayOf(sql`to_jsonb(${parts})`, 'string', text.nullable, text.aggregate);
  const limited = sql`(case when ${max.sql} > 0 then (${parts})[1:${int4(max.sql)}] else ${parts} end)`;
  return arrayOf(sql`to_jsonb(${limited})`, 'string', text.nullable || max.nullable, text.aggregate || max.aggregate);
}

function splitBy(name: string, separatorKind: 'char' | 'string' | 'regexp'): FunctionDef {
  return {
    name,
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      const separator = arg(args, 0);
      const text = to(c, arg(args, 1), 'string');
      const max = args.length > 2 ? to(c, arg(args, 2), 'int') : null;
      let parts: Fragment;
      if (separatorKind === 'regexp') {
        parts = sql`regexp_split_to_array(${text.sql}, ${regexConstant(separator, name)})`;
      } else {
        const value = constantText(separator, `The separator of ${name}()`);
        if (separatorKind === 'char' && [...value].length !== 1) throw new HogQLError(`The separator of ${name}() must be a constant of one character.`);
        // An empty separator splits into characters; an empty text is one empty part, as in ClickHouse.
        parts =
          value === ''
            ? sql`regexp_split_to_array(${text.sql}, '')`
            : sql`(case when ${text.sql} = '' then array['']::text[] else string_to_array(${text.sql}, ${param(value, 'text')}) end)`;
      }
      return splitResult(parts, text, max);
    },
  };
}

/** The substrings of a text that match `expression` (a static pattern of our own), in order. */
function tokensMatching(name: string, expression: string, maxArgs: number): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const max = args.length > 1 ? to(c, arg(args, 1), 'int') : null;
      const parts = sql`array(select match[1] from regexp_matches(${text.sql}, ${pattern(expression)}, 'g') as match)`;
      const result = splitResult(parts, text, max);
      return { ...result, sql: nullFor(text, result.sql) };
    },
  };
}

/** format('{} and {1}', …): the pattern is a constant, compiled into a concatenation. */
function format(c: Compiler, args: readonly Expr[]): Typed {
  const template = constantText(arg(args, 0), 'The pattern of format()');
  const values = args.slice(1).map((item) => to(c, item, 'string'));
  const pieces: Fragment[] = [];
  let literal = '';
  let next = 0;
  const flush = () => {
    if (literal !== '') pieces.push(param(literal, 'text'));
    literal = '';
  };
  for (let index = 0; index < template.length; index += 1) {
    const char = template[index]!;
    if ((char === '{' || char === '}') && template[index + 1] === char) {
      literal += char;
      index += 1;
    } else if (char === '{') {
      const close = template.indexOf('}', index);
      const inside = close < 0 ? null : template.slice(index + 1, close);
      if (inside === null || !/^\d*$/.test(inside)) throw new HogQLError('The pattern of format() has a { that is not {} or {n}.');
      const position = inside === '' ? next++ : Number(inside);
      const value = values[position];
      if (!value) throw new HogQLError(`The pattern of format() names argument ${position}, which the call does not have.`);
      flush();
      pieces.push(value.sql);
      index = close;
    } else if (char === '}') {
      throw new HogQLError('The pattern of format() has a } that closes nothing.');
    } else {
      literal += char;
    }
  }
  flush();
  const body = pieces.length === 0 ? keyword("''") : sql`(${join(pieces, ' || ')})`;
  return derived(body, 'string', values);
}

/** The capturing groups of a pattern: each ( that is not escaped, not in a class and not (?…). */
function capturingGroups(expression: string): number {
  let count = 0;
  let inClass = false;
  for (let index = 0; index < expression.length; index += 1) {
    const char = expression[index]!;
    if (char === '\\') index += 1;
    else if (inClass) inClass = char !== ']';
    else if (char === '[') inClass = true;
    else if (char === '(' && expression[index + 1] !== '?') count += 1;
    else if (char === '(' && expression[index + 2] === 'P' && expression[index + 3] === '<') count += 1;
    else if (char === '(' && expression[index + 2] === '<' && expression[index + 3] !== '=' && expression[index + 3] !== '!') count += 1;
  }
  return count;
}

const XML_ESCAPES: readonly (readonly [string, string])[] = [
  ['&', '&amp;'],
  ['<', '&lt;'],
  ['>', '&gt;'],
  ['"', '&quot;'],
  ["'", '&apos;'],
];

const DEFINITIONS: FunctionDef[] = [
  // PostHog's left and right are the UTF-8 ones: a negative count leaves that many characters out.
  scalar('left', ['string', 'int'], 'string', ([text, count]) => sql`left(${text}, ${int4(count)})`),
  scalar('right', ['string', 'int'], 'string', ([text, count]) => sql`right(${text}, ${int4(count)})`),
  scalar('lengthUTF8', ['string'], 'int', ([text]) => sql`char_length(${text})::bigint`),
  pad('leftPad', 'lpad', 2),
  pad('rightPad', 'rpad', 2),
  pad('leftPadUTF8', 'lpad', 2),
  pad('rightPadUTF8', 'rpad', 2),
  pad('lpad', 'lpad', 3),
  pad('rpad', 'rpad', 3),
  scalar('lowerUTF8', ['string'], 'string', ([text]) => sql`lower(${text})`),
  scalar('upperUTF8', ['string'], 'string', ([text]) => sql`upper(${text})`),
  // PostgreSQL's text is always valid UTF-8.
  { name: 'isValidUTF8', minArgs: 1, maxArgs: 1, compile: (c, args) => c.boolean(keyword('true'), [to(c, arg(args, 0), 'string')]) },
  scalar('toValidUTF8', ['string'], 'string', ([text]) => text),
  { name: 'format', minArgs: 2, maxArgs: Infinity, compile: format },
  scalar('reverseUTF8', ['string'], 'string', ([text]) => sql`reverse(${text})`),
  substring('substringUTF8'),
  scalar('appendTrailingCharIfAbsent', ['string', 'string'], 'string', ([text, char]) =>
    sql`(case when ${text} = '' or right(${text}, char_length(${char})) = ${char} then ${text} else ${text} || ${char} end)`,
  ),
  scalar('base64Encode', ['string'], 'string', ([text]) => sql`translate(encode(${bytesOf(text)}, 'base64'), E'\\n', '')`),
  // Text that is not base64 (or whose bytes are not UTF-8) decodes to ''; ClickHouse's base64Decode() raises
  // an error for it, which a query over stored events cannot.
  scalar('base64Decode', ['string'], 'string', ([text]) => sql`coalesce(hogql_base64_decode(${text}), '')`),
  scalar('tryBase64Decode', ['string'], 'string', ([text]) => sql`coalesce(hogql_base64_decode(${text}), '')`),
  scalar('encodeXMLComponent', ['string'], 'string', ([text]) =>
    XML_ESCAPES.reduce((inner, [from, into]) => sql`replace(${inner}, ${param(from, 'text')}, ${param(into, 'text')})`, text),
  ),
  scalar('decodeXMLComponent', ['string'], 'string', ([text]) =>
    [...XML_ESCAPES].reverse().reduce((inner, [into, from]) => sql`replace(${inner}, ${param(from, 'text')}, ${param(into, 'text')})`, text),
  ),
  // The first byte's code, 0 for an empty text.
  scalar('ascii', ['string'], 'int', ([text]) => sql`(case when ${text} = '' then 0 else get_byte(${bytesOf(text)}, 0) end)::bigint`),
  {
    name: 'concatWithSeparator',
    minArgs: 2,
    maxArgs: Infinity,
    compile: (c, args) => {
      const [separator, ...values] = args.map((item) => to(c, item, 'string'));
      // A NULL among the values makes the whole NULL, as in ClickHouse (PostgreSQL's concat_ws() skips it).
      const joined = values.slice(1).reduce((text, value) => sql`${text} || ${separator!.sql} || ${value.sql}`, values[0]!.sql);
      return derived(sql`(${joined})`, 'string', [separator!, ...values]);
    },
  },

  // Searching.
  position('positionCaseInsensitive', true, true),
  position('positionUTF8', false, false),
  position('positionCaseInsensitiveUTF8', false, true),
  position('locate', true, false, true),
  multiSearch('multiSearchAllPositions', 'allPositions', false, false),
  multiSearch('multiSearchAllPositionsUTF8', 'allPositions', false, true),
  multiSearch('multiSearchAllPositionsCaseInsensitive', 'allPositions', true, false),
  multiSearch('multiSearchAllPositionsCaseInsensitiveUTF8', 'allPositions', true, true),
  multiSearch('multiSearchFirstPosition', 'firstPosition', false, false),
  multiSearch('multiSearchFirstPositionUTF8', 'firstPosition', false, true),
  multiSearch('multiSearchFirstPositionCaseInsensitive', 'firstPosition', true, false),
  multiSearch('multiSearchFirstPositionCaseInsensitiveUTF8', 'firstPosition', true, true),
  multiSearch('multiSearchFirstIndex', 'firstIndex', false, false),
  multiSearch('multiSearchFirstIndexUTF8', 'firstIndex', false, true),
  multiSearch('multiSearchFirstIndexCaseInsensitive', 'firstIndex', true, false),
  multiSearch('multiSearchFirstIndexCaseInsensitiveUTF8', 'firstIndex', true, true),
  multiSearch('multiSearchAny', 'any', false, false),
  multiSearch('multiSearchAnyUTF8', 'any', false, true),
  multiSearch('multiSearchAnyCaseInsensitive', 'any', true, false),
  multiSearch('multiSearchAnyCaseInsensitiveUTF8', 'any', true, true),
  {
    name: 'extractAll',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      // Every match's first group, or the whole match when the pattern has no group.
      const text = to(c, arg(args, 0), 'string');
      const matches = sql`array(select match[1] from regexp_matches(${text.sql}, ${regexConstant(arg(args, 1), 'extractAll')}, 'g') as match)`;
      return arrayOf(nullFor(text, sql`to_jsonb(${matches})`), 'string', text.nullable, text.aggregate);
    },
  },
  {
    name: 'extractGroups',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const match = sql`regexp_match(${text.sql}, ${regexConstant(arg(args, 1), 'extractGroups')})`;
      return arrayOf(nullFor(text, sql`coalesce(to_jsonb(${match}), '[]'::jsonb)`), 'string', text.nullable, text.aggregate);
    },
  },
  ...['extractAllGroups', 'extractAllGroupsVertical'].map(
    (name): FunctionDef => ({
      name,
      minArgs: 2,
      maxArgs: 2,
      compile: (c, args) => {
        // A list for each match, of its groups.
        const text = to(c, arg(args, 0), 'string');
        const body = sql`(select coalesce(jsonb_agg(to_jsonb(match) order by number), '[]'::jsonb) from regexp_matches(${text.sql}, ${regexConstant(arg(args, 1), name)}, 'g') with ordinality as found(match, number))`;
        return arrayOf(nullFor(text, body), 'array', text.nullable, text.aggregate);
      },
    }),
  ),
  {
    name: 'extractAllGroupsHorizontal',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      // A list for each group, of what it matched in every match: [[all of group 1], [all of group 2], …].
      const text = to(c, arg(args, 0), 'string');
      const expression = constantText(arg(args, 1), 'The pattern of extractAllGroupsHorizontal()');
      const groups = capturingGroups(expression);
      if (groups === 0) throw new HogQLError('The pattern of extractAllGroupsHorizontal() must have a group: (…).');
      const pattern = regexConstant(arg(args, 1), 'extractAllGroupsHorizontal');
      const lists = Array.from({ length: groups }, (_unused, index) => {
        const group = keyword(String(index + 1));
        return sql`(select coalesce(jsonb_agg(found.match[${group}] order by found.number), '[]'::jsonb) from regexp_matches(${text.sql}, ${pattern}, 'g') with ordinality as found(match, number))`;
      });
      return arrayOf(nullFor(text, sql`jsonb_build_array(${join(lists, ', ')})`), 'array', text.nullable, text.aggregate);
    },
  },
  countSubstrings('countSubstrings', false),
  countSubstrings('countSubstringsCaseInsensitive', true),
  countSubstrings('countSubstringsCaseInsensitiveUTF8', true),
  countMatches('countMatches', 'g'),
  countMatches('countMatchesCaseInsensitive', 'gi'),
  hasSubsequence('hasSubsequence', false),
  hasSubsequence('hasSubsequenceCaseInsensitive', true),
  hasSubsequence('hasSubsequenceUTF8', false),
  hasSubsequence('hasSubsequenceCaseInsensitiveUTF8', true),
  hasToken('hasToken', false, false),
  hasToken('hasTokenCaseInsensitive', true, false),
  hasToken('hasTokenOrNull', false, true),
  hasToken('hasTokenCaseInsensitiveOrNull', true, true),
  {
    name: 'regexpExtract',
    minArgs: 2,
    maxArgs: 3,
    compile: (c, args) => {
      // The pattern is put in a group of its own, so that group 0 (the whole match) is the first.
      const text = to(c, arg(args, 0), 'string');
      const index = args.length > 2 ? constantInteger(arg(args, 2), 'The group of regexpExtract()') : 1;
      if (index < 0 || index > 255) throw new HogQLError('The group of regexpExtract() must be from 0 to 255.');
      const expression = constantText(arg(args, 1), 'The pattern of regexpExtract()');
      const grouped = regexConstant({ kind: 'constant', value: `(${expression})` }, 'regexpExtract');
      const body = sql`coalesce((regexp_match(${text.sql}, ${grouped}))[${keyword(String(index + 1))}], '')`;
      return derived(body, 'string', [text], false);
    },
  },

  // Replacing.
  alias('replace', 'replaceAll', 3, 3),
  scalar('replaceOne', ['string', 'string', 'string'], 'string', ([text, from, into]) =>
    sql`(case when ${from} <> '' and strpos(${text}, ${from}) > 0 then overlay(${text} placing ${into} from strpos(${text}, ${from}) for char_length(${from})) else ${text} end)`,
  ),
  replaceRegexp('replaceRegexpAll', true),
  replaceRegexp('replaceRegexpOne', false),
  scalar('regexpQuoteMeta', ['string'], 'string', ([text]) => sql`regexp_replace(${text}, ${pattern('([\\\\|()^$.[\\]?*+{:-])')}, ${pattern('\\\\\\1')}, 'g')`),
  scalar('translate', ['string', 'string', 'string'], 'string', ([text, from, into]) => sql`translate(${text}, ${from}, ${into})`),
  scalar('translateUTF8', ['string', 'string', 'string'], 'string', ([text, from, into]) => sql`translate(${text}, ${from}, ${into})`),

  // Splitting.
  splitBy('splitByString', 'string'),
  splitBy('splitByRegexp', 'regexp'),
  tokensMatching('splitByWhitespace', '([^\\s]+)', 2),
  tokensMatching('splitByNonAlpha', `([^\\s\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]+)`, 2),
  tokensMatching('alphaTokens', '([A-Za-z]+)', 2),
  tokensMatching('tokens', `([^\\s\\x01-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f]+)`, 1),
  {
    name: 'ngrams',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const size = constantInteger(arg(args, 1), 'The size of ngrams()');
      if (size < 1 || size > MAX_BUILT_TEXT) throw new HogQLError(`The size of ngrams() must be from 1 to ${MAX_BUILT_TEXT}.`);
      const n = keyword(String(size));
      const body = sql`(select coalesce(jsonb_agg(substr(${text.sql}, start, ${n}) order by start), '[]'::jsonb) from generate_series(1, char_length(${text.sql}) - ${n} + 1) as start)`;
      return arrayOf(nullFor(text, body), 'string', text.nullable, text.aggregate);
    },
  },

  // PostgreSQL-style.
  {
    name: 'repeat',
    minArgs: 2,
    maxArgs: 2,
    compile: (c, args) => {
      const text = to(c, arg(args, 0), 'string');
      const count = arg(args, 1);
      if (count.kind === 'constant' && typeof count.value === 'number' && count.value > MAX_BUILT_TEXT) {
        throw new HogQLError(`repeat() can build at most ${MAX_BUILT_TEXT} characters.`);
      }
      const times = to(c, count, 'int');
      const bounded = sql`(case when char_length(${text.sql})::bigint * greatest(${times.sql}, 0) <= ${keyword(String(MAX_BUILT_TEXT))} then repeat(${text.sql}, greatest(${int4(times.sql)}, 0)) end)`;
      const source = arg(args, 0);
      const most =
        count.kind === 'constant' && typeof count.value === 'number' && source.kind === 'constant' && typeof source.value === 'string'
          ? count.value * source.value.length
          : MAX_BUILT_TEXT;
      return derived(weighBuiltText(bounded, most), 'string', [text, times], true);
    },
  },
  scalar('initcap', ['string'], 'string', ([text]) => sql`initcap(${text})`),
  scalar('split_part', ['string', 'string', 'int'], 'string', ([text, delimiter, index]) =>
    sql`(case when ${index} = 0 then '' else split_part(${text}, ${delimiter}, ${int4(index)}) end)`,
  ),
  ...(['ltrim', 'trimLeft', 'rtrim', 'trimRight', 'btrim'] as const).map((name) => {
    const sqlName = name.startsWith('l') || name === 'trimLeft' ? 'ltrim' : name.startsWith('r') || name === 'trimRight' ? 'rtrim' : 'btrim';
    return scalar(name, ['string', 'string'], 'string', (parts) => (parts.length > 1 ? sql`${keyword(sqlName)}(${parts[0]}, ${parts[1]})` : sql`${keyword(sqlName)}(${parts[0]})`), {
      optional: 1,
    });
  }),
];

/** The corrections of functions defined before the library (functions.ts, select/functions.ts). */
export const STRING_CORRECTIONS = {
  lower: scalar('lower', ['string'], 'string', ([text]) => asciiLower(text)),
  upper: scalar('upper', ['string'], 'string', ([text]) => asciiUpper(text)),
  substring: substring('substring'),
  position: position('position', true, false),
  trim: scalar('trim', ['string', 'string'], 'string', (parts) => (parts.length > 1 ? sql`btrim(${parts[0]}, ${parts[1]})` : sql`btrim(${parts[0]})`), { optional: 1 }),
  splitByChar: splitBy('splitByChar', 'char'),
};

const NO_HYPERSCAN = "It runs many patterns at once through ClickHouse's Hyperscan engine, which PostgreSQL does not have; use match() with the patterns joined by |.";
const NO_NGRAM = "It measures text by ClickHouse's own hashed 4-gram counts, whose values PostgreSQL cannot reproduce.";

export const STRINGS: Family = {
  title: 'Strings',
  definitions: DEFINITIONS,
  unavailable: {
    convertCharset: "Hedgerow's text is always UTF-8 and cannot hold the bytes of another character set.",
    base58Encode: 'Base58 has no PostgreSQL function; base64Encode() and hex() encode text.',
    base58Decode: 'Base58 has no PostgreSQL function; base64Decode() and unhex() decode text.',
    tryBase58Decode: 'Base58 has no PostgreSQL function; tryBase64Decode() and unhex() decode text.',
    extractTextFromHTML: "It follows ClickHouse's own HTML scanner, whose handling of every tag, entity and whitespace rule PostgreSQL cannot reproduce exactly.",
    multiMatchAny: NO_HYPERSCAN,
    multiMatchAnyIndex: NO_HYPERSCAN,
    multiMatchAllIndices: NO_HYPERSCAN,
    multiFuzzyMatchAny: NO_HYPERSCAN,
    multiFuzzyMatchAnyIndex: NO_HYPERSCAN,
    multiFuzzyMatchAllIndices: NO_HYPERSCAN,
    ngramDistance: NO_NGRAM,
    ngramDistanceCaseInsensitive: NO_NGRAM,
    ngramDistanceUTF8: NO_NGRAM,
    ngramDistanceCaseInsensitiveUTF8: NO_NGRAM,
    ngramSearch: NO_NGRAM,
    ngramSearchCaseInsensitive: NO_NGRAM,
    ngramSearchUTF8: NO_NGRAM,
    ngramSearchCaseInsensitiveUTF8: NO_NGRAM,
    hasAllTokens: "It splits text by ClickHouse's text-index tokenizers, which PostgreSQL does not have; use hasToken() for each token.",
    hasAnyTokens: "It splits text by ClickHouse's text-index tokenizers, which PostgreSQL does not have; use hasToken() for each token.",
  },
};
