/**
 * Regular expressions as PostHog runs them (ClickHouse's re2, where `.` also matches a newline unless the pattern
 * starts with `(?-s)`), rewritten for PostgreSQL's engine (its "advanced" syntax), which agrees with re2 on most
 * of it. Where they differ:
 * - `\b` and `\B` are word boundaries in re2 and a backspace in PostgreSQL; `\w`, `\d` and `\s` count only ASCII
 *   characters in re2 and every letter, digit or space of the locale in PostgreSQL (`é` is a word character):
 *   all of them become their ASCII classes (the boundaries as lookarounds of `[0-9A-Za-z_]`); `\z` (the end of
 *   the text) becomes `\Z`; `\Q…\E` becomes its characters, escaped;
 * - named groups `(?P<name>…)` and `(?<name>…)` become plain groups (the names are never used);
 * - a `{` that does not start a repetition is a literal brace in re2; PostgreSQL needs it escaped;
 * - flags come first, for the whole pattern: `(?i)`, `(?m)` (`^` and `$` at line ends), `(?-s)` (`.` stops at
 *   a newline), in PostgreSQL's letters;
 * - what PostgreSQL cannot run is refused with a 400 naming the pattern rather than failing in the database:
 *   Unicode classes (`\p{L}`), `\C`, `\x{…}`, flags elsewhere than first or on a group, the ungreedy flag `U`,
 *   more than 255 repetitions (`x{1000}`).
 * Anything else that JavaScript's syntax (close to re2's) does not accept is refused too. Inside a class, `\W`,
 * `\D` and `\S` keep PostgreSQL's (locale) meaning.
 */
import { HogQLError } from './errors.js';
import { ownEntry } from './lookup.js';

/** PostgreSQL's most repetitions of a bound ({n,m}). */
const MAX_REPETITIONS = 255;

/** re2's `\w`, `\d` and `\s`: ASCII only. */
const WORD = '0-9A-Za-z_';
const ASCII_CLASSES: Readonly<Record<string, string>> = { w: WORD, d: '0-9', s: '\\t\\n\\f\\r ' };
/** re2's escapes outside a class, in PostgreSQL's syntax. */
const OUTSIDE_CLASS: Readonly<Record<string, string>> = {
  b: `(?:(?<![${WORD}])(?=[${WORD}])|(?<=[${WORD}])(?![${WORD}]))`,
  B: `(?:(?<=[${WORD}])(?=[${WORD}])|(?<![${WORD}])(?![${WORD}]))`,
  w: `[${ASCII_CLASSES.w}]`,
  W: `[^${ASCII_CLASSES.w}]`,
  d: `[${ASCII_CLASSES.d}]`,
  D: `[^${ASCII_CLASSES.d}]`,
  s: `[${ASCII_CLASSES.s}]`,
  S: `[^${ASCII_CLASSES.s}]`,
  z: '\\Z',
};

const LEADING_FLAGS = /^\(\?([a-zA-Z]*)(?:-([a-zA-Z]+))?\)/;
const FLAGS_ANYWHERE = /^\(\?(?:[a-zA-Z]+(?:-[a-zA-Z]+)?|-[a-zA-Z]+)[):]/;
const NAMED_GROUP = /^\(\?P?<[A-Za-z_][A-Za-z0-9_]*>/;
const BOUND = /^\{(\d+)(?:,(\d*))?\}/;
/** Inside a class: a POSIX class (`[:alpha:]`), an equivalence class or a collating element, kept whole. */
const CLASS_ITEM = /^\[([:=.]).*?\1\]/;

function refuse(pattern: string, why: string): never {
  throw new HogQLError(`"${pattern}" ${why}.`);
}

/** PostgreSQL's embedded options for re2's leading flags. */
function postgresFlags(pattern: string, on: string, off: string): string {
  for (const flag of on + off) {
    if (!'ims'.includes(flag)) refuse(pattern, `cannot be run: PostgreSQL has no flag "${flag}"`);
  }
  const multiLine = on.includes('m') && !off.includes('m');
  const dotStopsAtNewline = off.includes('s') && !on.includes('s');
  // n: newline-sensitive (both); w: ^ and $ at line ends only; p: . stops at newlines only.
  const newlines = multiLine ? (dotStopsAtNewline ? 'n' : 'w') : dotStopsAtNewline ? 'p' : '';
  const letters = `${on.includes('i') && !off.includes('i') ? 'i' : ''}${newlines}`;
  return letters === '' ? '' : `(?${letters})`;
}

/** The pattern as PostgreSQL's `~` reads it; throws a HogQLError (400) when it cannot be run. */
export function postgresRegex(pattern: string): string {
  const flags = LEADING_FLAGS.exec(pattern);
  const body = flags ? pattern.slice(flags[0].length) : pattern;
  let out = flags ? postgresFlags(pattern, flags[1] ?? '', flags[2] ?? '') : '';
  let checked = ''; // the body as JavaScript checks its syntax
  let inClass = false;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    const rest = body.slice(index);
    if (char === '\\') {
      const next = body[index + 1] ?? '';
      index += 1;
      if (next === 'p' || next === 'P') refuse(pattern, 'cannot be run: PostgreSQL has no Unicode classes such as \\p{L}');
      if (next === 'C' || (next === 'x' && body[index + 1] === '{')) refuse(pattern, `cannot be run: PostgreSQL has no \\${next === 'C' ? 'C' : 'x{…}'}`);
      if (next === 'Q') {
        const end = body.indexOf('\\E', index + 1);
        const literal = body.slice(index + 1, end === -1 ? body.length : end);
        const escaped = literal.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
        out += escaped;
        checked += escaped;
        index = end === -1 ? body.length : end + 1;
        continue;
      }
      out += inClass ? (ownEntry(ASCII_CLASSES, next) ?? `\\${next}`) : (ownEntry(OUTSIDE_CLASS, next) ?? `\\${next}`);
      checked += `\\${next === 'z' ? 'b' : next}`; // (\z has no JavaScript spelling; any valid escape checks the same)
      continue;
    }
    if (inClass) {
      const item = CLASS_ITEM.exec(rest);
      if (item) {
        out += item[0];
        checked += 'a';
        index += item[0].length - 1;
        continue;
      }
      if (char === ']') inClass = false;
      out += char;
      checked += char;
      continue;
    }
    if (char === '[') {
      inClass = true;
      let opening = char;
      // A `]` first in the class (after an optional `^`) is a literal, not its end.
      if (body[index + 1] === '^') opening += body[++index];
      if (body[index + 1] === ']') opening += body[++index];
      out += opening;
      checked += opening;
      continue;
    }
    if (char === '(' && NAMED_GROUP.test(rest)) {
      const name = NAMED_GROUP.exec(rest)![0];
      out += '(';
      checked += '(';
      index += name.length - 1;
      continue;
    }
    if (char === '(' && FLAGS_ANYWHERE.test(rest)) {
      refuse(pattern, 'cannot be run: flags apply to the whole pattern and come first, as (?i)');
    }
    if (char === '{') {
      const bound = BOUND.exec(rest);
      if (!bound) {
        out += '\\{';
        checked += '\\{';
        continue;
      }
      if ([bound[1], bound[2]].some((count) => count !== undefined && count !== '' && Number(count) > MAX_REPETITIONS)) {
        refuse(pattern, `cannot be run: PostgreSQL repeats at most ${MAX_REPETITIONS} times`);
      }
    }
    if (char === '}' && !/\{\d+(?:,\d*)?$/.test(checked)) {
      out += '\\}';
      checked += '\\}';
      continue;
    }
    out += char;
    checked += char;
  }
  try {
    new RegExp(checked);
  } catch {
    refuse(pattern, 'is not a valid regular expression');
  }
  return out;
}
