/**
 * Conditions on the autocapture element chain (`elements_chain`), as PostHog stores it: elements innermost first,
 * separated by `;`, each `tag.class1.class2:attr="value"…` with `"` inside values escaped as `\"`. Values are
 * read out of the chain with regular expressions that are bound parameters, never SQL text.
 */
import { escapeLike, escapeRegExp } from '../core/text.js';
import { HogQLError } from './errors.js';
import { ownEntry } from './lookup.js';
import { postgresRegex } from './regex.js';
import { join, keyword, param, sql, type Fragment } from './sql.js';

/** What an element filter may look at, and the regular expression whose first group reads it. */
const EXTRACTORS: Readonly<Record<string, string>> = {
  tag_name: '(?:^|;)([^.:;"]+)',
  text: '(?:^|[:"])text="((?:[^"\\\\]|\\\\.)*)"',
  href: '(?:^|[:"])href="((?:[^"\\\\]|\\\\.)*)"',
};

export const ELEMENT_KEYS = [...Object.keys(EXTRACTORS), 'selector'];

/** A value as the chain writes it. */
export function escapeChainValue(text: string): string {
  return text.replace(/"/g, '\\"');
}

export type ElementOperator = 'exact' | 'is_not' | 'icontains' | 'not_icontains' | 'regex' | 'not_regex' | 'is_set' | 'is_not_set';

/**
 * The condition of one element filter. `values` holds one or more values (any of them matches); it is empty
 * for is_set and is_not_set.
 */
export function elementCondition(key: string, operator: ElementOperator, values: readonly string[]): Fragment {
  if (key === 'selector') return selectorCondition(operator, values);
  const extractor = ownEntry(EXTRACTORS, key);
  if (!extractor) throw new HogQLError(`Element filters read ${ELEMENT_KEYS.join(', ')}, not "${key}".`);
  const chain = keyword('e.elements_chain');
  if (operator === 'is_set' || operator === 'is_not_set') {
    const body = sql`${chain} ~ ${param(extractor, 'text')}`;
    return operator === 'is_set' ? sql`(${body})` : sql`(not (${body}))`;
  }
  const negative = operator.startsWith('not_') || operator === 'is_not';
  const value = keyword('m.v[1]');
  let test: Fragment;
  switch (operator) {
    case 'exact':
    case 'is_not': {
      const stored = values.map((item) => param(key === 'tag_name' ? item : escapeChainValue(item), 'text'));
      test = sql`${value} in (${join(stored, ', ')})`;
      break;
    }
    case 'icontains':
    case 'not_icontains':
      test = join(
        values.map((item) => sql`${value} ilike ${param(`%${escapeLike(key === 'tag_name' ? item : escapeChainValue(item))}%`, 'text')}`),
        ' or ',
      );
      break;
    default:
      test = join(values.map((item) => sql`${value} ~ ${param(postgresRegex(item), 'text')}`), ' or ');
  }
  const exists = sql`exists (select 1 from regexp_matches(${chain}, ${param(extractor, 'text')}, 'g') as m(v) where ${test})`;
  return negative ? sql`(not ${exists})` : sql`(${exists})`;
}

interface Compound {
  tag: string | null;
  classes: string[];
  id: string | null;
  attributes: { name: string; value: string | null }[];
}

const COMPOUND = /^([A-Za-z][A-Za-z0-9-]*|\*)?((?:\.[A-Za-z0-9_-]+|#[A-Za-z0-9_-]+|\[[A-Za-z0-9_-]+(?:=(?:"[^"]*"|'[^']*'|[^\]]*))?\])*)$/;

function parseCompound(text: string): Compound {
  const match = COMPOUND.exec(text);
  if (!match) throw new HogQLError(`The selector part "${text}" is not supported (use tag, .class, #id and [attr="value"]).`);
  const compound: Compound = { tag: match[1] && match[1] !== '*' ? match[1] : null, classes: [], id: null, attributes: [] };
  for (const part of (match[2] ?? '').match(/\.[A-Za-z0-9_-]+|#[A-Za-z0-9_-]+|\[[^\]]*\]/g) ?? []) {
    if (part.startsWith('.')) compound.classes.push(part.slice(1));
    else if (part.startsWith('#')) compound.id = part.slice(1);
    else {
      const [, name, raw] = /^\[([A-Za-z0-9_-]+)(?:=(.*))?\]$/.exec(part)!;
      const value = raw === undefined ? null : raw.replace(/^(["'])(.*)\1$/, '$2');
      compound.attributes.push({ name: name!, value });
    }
  }
  return compound;
}

/** A regular expression matching one element of the chain that satisfies the compound selector. */
function elementRegex(compound: Compound): string {
  let regex = `(?:^|;)${compound.tag ? escapeRegExp(compound.tag) : '[^.:;]*'}(?=[.:;]|$)`;
  for (const name of compound.classes) regex += `(?=[^:;]*\\.${escapeRegExp(name)}(?:[.:;]|$))`;
  if (compound.id !== null) regex += `(?=[^;]*attr_id="${escapeRegExp(escapeChainValue(compound.id))}")`;
  for (const { name, value } of compound.attributes) {
    regex += value === null
      ? `(?=[^;]*attr__${escapeRegExp(name)}=")`
      : `(?=[^;]*attr__${escapeRegExp(name)}="${escapeRegExp(escapeChainValue(value))}")`;
  }
  return regex;
}

/** A CSS selector (compounds joined by descendant spaces or `>`) as a regular expression over the chain. */
export function selectorRegex(selector: string): string {
  const tokens = selector.trim().replace(/\s*>\s*/g, ' > ').split(/\s+/).filter(Boolean);
  if (tokens.length === 0) throw new HogQLError('The selector is empty.');
  const parts: { compound: Compound; child: boolean }[] = [];
  let child = false;
  for (const token of tokens) {
    if (token === '>') {
      if (parts.length === 0 || child) throw new HogQLError(`The selector "${selector}" is not valid.`);
      child = true;
      continue;
    }
    parts.push({ compound: parseCompound(token), child });
    child = false;
  }
  if (child) throw new HogQLError(`The selector "${selector}" is not valid.`);
  // The chain lists the innermost element first: match the last compound, then its ancestors in turn.
  let regex = elementRegex(parts[parts.length - 1]!.compound);
  for (let index = parts.length - 2; index >= 0; index -= 1) {
    const direct = parts[index + 1]!.child;
    regex += `${direct ? '[^;]*' : '.*'}${elementRegex(parts[index]!.compound)}`;
  }
  return regex;
}

function selectorCondition(operator: ElementOperator, values: readonly string[]): Fragment {
  if (operator !== 'exact' && operator !== 'is_not') {
    throw new HogQLError('Selector filters take the operators exact and is_not.');
  }
  const chain = keyword('e.elements_chain');
  const tests = values.map((selector) => sql`${chain} ~ ${param(selectorRegex(selector), 'text')}`);
  const any = sql`(${join(tests, ' or ')})`;
  return operator === 'exact' ? any : sql`(not ${any})`;
}
