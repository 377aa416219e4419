/**
 * CSV answers (RFC 4180: CRLF line ends, fields quoted when they need it). Objects are flattened to dotted
 * columns as PostHog's CSV renderer does: `properties.$browser`, `person.distinct_ids.0`, `elements.0.tag_name`.
 */

import { ExactInteger, stringifyExact } from '../db/core/exact-json.js';

/**
 * What a spreadsheet reads as the start of a formula (OWASP's CSV Injection list, line feed included): anyone
 * with a project's public key can store such text, and an export opened in a spreadsheet would run it.
 */
const FORMULA_START = /^[=+\-@\t\r\n]/;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Numbers are written as they are, a negative one with its minus sign: they cannot hold a formula, and a
  // quote in front would turn them into text. Only text (strings, and objects written as JSON) is neutralised.
  if (typeof value === 'number' || typeof value === 'bigint' || value instanceof ExactInteger) return String(value);
  const text = typeof value === 'object' ? stringifyExact(value) : String(value);
  // As OWASP advises: a leading single quote (spreadsheets show the rest as text) and the cell quoted.
  if (FORMULA_START.test(text)) return `"'${text.replace(/"/g, '""')}"`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

function line(cells: readonly unknown[]): string {
  return `${cells.map(cell).join(',')}\r\n`;
}

/** A CSV document of a header row and rows of values. */
export function csvTable(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return line(header) + rows.map(line).join('');
}

function flattenInto(value: unknown, path: (string | number)[], out: Map<string, { path: (string | number)[]; value: unknown }>): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => flattenInto(item, [...path, index], out));
  } else if (typeof value === 'object' && value !== null && !(value instanceof ExactInteger)) {
    for (const [key, item] of Object.entries(value)) flattenInto(item, [...path, key], out);
  } else {
    out.set(path.join('.'), { path, value });
  }
}

function comparePaths(a: (string | number)[], b: (string | number)[], topLevel: Map<string, number>): number {
  const first = topLevel.get(String(a[0])) ?? topLevel.size;
  const second = topLevel.get(String(b[0])) ?? topLevel.size;
  if (first !== second) return first - second;
  for (let index = 0; index < Math.min(a.length, b.length); index += 1) {
    const x = a[index]!;
    const y = b[index]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * Flattens objects to dotted columns. Top-level fields keep the order of the first object; nested keys are
 * sorted (list positions by number). Empty objects and lists give no column.
 */
export function csvOfObjects(objects: readonly Record<string, unknown>[], fieldOrder: readonly string[]): string {
  const topLevel = new Map(fieldOrder.map((field, index) => [field, index]));
  const flattened = objects.map((object) => {
    const out = new Map<string, { path: (string | number)[]; value: unknown }>();
    flattenInto(object, [], out);
    return out;
  });
  const columns = new Map<string, (string | number)[]>();
  for (const row of flattened) for (const [name, { path }] of row) if (!columns.has(name)) columns.set(name, path);
  const header = [...columns.entries()].sort((a, b) => comparePaths(a[1], b[1], topLevel)).map(([name]) => name);
  return csvTable(
    header,
    flattened.map((row) => header.map((name) => row.get(name)?.value)),
  );
}
