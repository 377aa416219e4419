/**
 * Regular expressions as PostHog runs them (ClickHouse's re2 syntax), rewritten for PostgreSQL's engine (its
 * "advanced" syntax), which agrees with re2 on most of it. Where they differ:
 * - `\b` and `\B` are word boundaries in re2 and a backspace in PostgreSQL: they become `\y` and `\Y`;
 * - flags come first, as `(?i)`; PostgreSQL reads them only there, and names re2's `m` (`^` and `$` at line
 *   ends) `w`;
 * - what PostgreSQL lacks is refused with a 400 naming the pattern rather than failing in the database:
 *   Unicode classes (`\p{L}`), flags after the start, more than 255 repetitions (`x{1000}`).
 * Anything else that neither JavaScript nor the rules above accept is refused too.
 */
import { HogQLError } from './errors.js';

/** PostgreSQL's most repetitions of a bound ({n,m}). */
const MAX_REPETITIONS = 255;

const LEADING_FLAGS = /^\(\?([ims]+)\)/;
const POSTGRES_FLAGS: Readonly<Record<string, string>> = { i: 'i', m: 'w', s: 's' };

function refuse(pattern: string, why: string): never {
  throw new HogQLError(`"${pattern}" ${why}.`);
}

/** The pattern as PostgreSQL's `~` reads it; throws a HogQLError (400) when it cannot be run. */
export function postgresRegex(pattern: string): string {
  const flags = LEADING_FLAGS.exec(pattern);
  const body = flags ? pattern.slice(flags[0].length) : pattern;
  let out = flags ? `(?${[...new Set(flags[1]!)].map((flag) => POSTGRES_FLAGS[flag]).join('')})` : '';
  let inClass = false;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    if (char === '\\') {
      const next = body[index + 1] ?? '';
      index += 1;
      if (next === 'p' || next === 'P') refuse(pattern, 'cannot be run: PostgreSQL has no Unicode classes such as \\p{L}');
      if (!inClass && (next === 'b' || next === 'B')) out += next === 'b' ? '\\y' : '\\Y';
      else out += `\\${next}`;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char;
      continue;
    }
    if (char === '[') {
      inClass = true;
      out += char;
      // A `]` first in the class (after an optional `^`) is a literal, not its end.
      if (body[index + 1] === '^') out += body[++index];
      if (body[index + 1] === ']') out += body[++index];
      continue;
    }
    if (char === '(' && body.startsWith('(?', index) && /^\(\?[imsU-]+[):]/.test(body.slice(index))) {
      refuse(pattern, 'cannot be run: flags such as (?i) must come first');
    }
    if (char === '{') {
      const bound = /^\{(\d+)(?:,(\d*))?\}/.exec(body.slice(index));
      if (bound && [bound[1], bound[2]].some((count) => count !== undefined && count !== '' && Number(count) > MAX_REPETITIONS)) {
        refuse(pattern, `cannot be run: PostgreSQL repeats at most ${MAX_REPETITIONS} times`);
      }
    }
    out += char;
  }
  try {
    new RegExp(body, flags ? [...new Set(flags[1]!)].join('') : '');
  } catch {
    refuse(pattern, 'is not a valid regular expression');
  }
  return out;
}
