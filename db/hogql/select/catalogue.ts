/**
 * Every function a HogQL query may name, as the generated list (generated/hogql-functions.md) shows it: the ones
 * that run, from the compiler's own tables, and the ones refused, with the reason the refusal gives.
 */
import { FUNCTIONS, type FunctionDef } from '../functions.js';
import { FAMILIES } from '../library/index.js';
import { SELECT_FUNCTIONS } from './functions.js';
import { WINDOW_FUNCTION_NAMES } from './window.js';

export interface CatalogueEntry {
  name: string;
  family: string;
  /** The arguments it takes, or why it is refused. */
  note: string;
  available: boolean;
}

function signature(fn: FunctionDef): string {
  const count = fn.minArgs === fn.maxArgs ? `${fn.minArgs}` : fn.maxArgs === Infinity ? `${fn.minArgs} or more` : `${fn.minArgs} to ${fn.maxArgs}`;
  const params = fn.params ? `, ${fn.params[0] === fn.params[1] ? fn.params[0] : `${fn.params[0]} to ${fn.params[1]}`} parameter(s)` : '';
  return `${count} argument(s)${params}${fn.aggregate ? ', aggregate' : ''}`;
}

export function functionCatalogue(): CatalogueEntry[] {
  const entries: CatalogueEntry[] = [];
  const add = (family: string, definitions: Iterable<FunctionDef>) => {
    for (const fn of definitions) entries.push({ name: fn.name, family, note: signature(fn), available: true });
  };
  // A query's own definition of a core function (JSONExtractString) is the one that runs.
  add('Core', Object.values(FUNCTIONS).filter((fn) => !Object.hasOwn(SELECT_FUNCTIONS, fn.name.toLowerCase())));
  add('Query', Object.values(SELECT_FUNCTIONS));
  for (const name of WINDOW_FUNCTION_NAMES) entries.push({ name, family: 'Window (with OVER)', note: 'with OVER (…)', available: true });
  for (const family of FAMILIES) {
    add(family.title, family.definitions);
    for (const [name, reason] of Object.entries(family.unavailable)) entries.push({ name, family: family.title, note: reason, available: false });
  }
  return entries;
}

/** The list as Markdown: a table a family. */
export function catalogueMarkdown(): string {
  const entries = functionCatalogue();
  const families = [...new Set(entries.map((entry) => entry.family))];
  const escape = (text: string) => text.replace(/\|/g, '\\|');
  const sections = families.map((family) => {
    const rows = entries
      .filter((entry) => entry.family === family)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((entry) => `| \`${entry.name}\` | ${entry.available ? 'yes' : 'no'} | ${escape(entry.note)} |`);
    return [`## ${family}`, '', '| function | runs | arguments, or why not |', '| --- | --- | --- |', ...rows].join('\n');
  });
  const available = entries.filter((entry) => entry.available).length;
  return [
    '# HogQL functions',
    '',
    '<!-- GENERATED FILE: written by `npm run gen` (scripts/gen.ts) from the compiler\'s function tables; `npm run gen:check` fails when it is stale. -->',
    '',
    `${available} functions run; ${entries.length - available} of PostHog's are refused with the reason below. Names are matched without regard to case.`,
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}
