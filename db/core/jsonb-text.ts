/**
 * Text PostgreSQL accepts: its text type cannot hold NUL, and jsonb refuses `\u0000` and unpaired surrogates.
 * Both the capture pipeline (cleaning what SDKs send) and the writers of jsonb columns need it.
 */
import { exactJsonText, isPlainObject, stringifyExact } from './exact-json.js';

/** PostgreSQL text cannot hold NUL; PostHog replaces it with U+FFFD. Lone surrogates are made whole too. */
export function cleanText(text: string): string {
  const withoutNul = text.includes('\u0000') ? text.replace(/\u0000/g, '\uFFFD') : text;
  return (withoutNul as string & { toWellFormed(): string }).toWellFormed();
}

const UNSAFE_JSON = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;

/**
 * JSON text that jsonb accepts: jsonb refuses `\u0000` and unpaired surrogates, which JSON.stringify writes as
 * escapes. Rare enough to check the text first and clean the value only when needed. Integers beyond 2^53 are
 * written exact (exact-json.ts).
 */
export function jsonbText(value: unknown): string {
  const text = JSON.stringify(value);
  if (!text.includes('\\u') || !UNSAFE_JSON.test(text)) return exactJsonText(text);
  return stringifyExact(cleanJson(value));
}

function cleanJson(value: unknown): unknown {
  if (typeof value === 'string') return cleanText(value);
  if (Array.isArray(value)) return value.map(cleanJson);
  if (isPlainObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [cleanText(key), cleanJson(inner)]));
  }
  return value;
}
