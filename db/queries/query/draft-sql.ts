/**
 * draft_sql without a language model: a HogQL query drafted by fixed rules from the prompt's words and the
 * environment's own event names and property keys (the rules are listed in the spec's description of
 * environments_query_draft_sql_retrieve). The draft is built as a SELECT tree and printed, so it always
 * parses; it is compiled here too, so that a draft the endpoint could not run is never answered.
 */
import { errors } from '../../core/errors.js';
import type { Expr, IntervalUnit } from '../../hogql/ast.js';
import { ownEntry } from '../../hogql/lookup.js';
import type { ReadDb } from '../../pg/client.js';
import { onReadSession } from '../../pg/read-session.js';
import { compileSelect, parseSelect, printQuery, type SelectQuery } from '../../hogql/select/index.js';
import type { SelectColumn } from '../../hogql/select/parser.js';
import type { EnvironmentRow } from '../../rows.js';
import { DEFAULT_RETURNED_ROWS, MAX_SELECT_RETURNED_ROWS } from './hogql-query.js';

/** Longest prompt, in characters, as PostHog. */
export const MAX_PROMPT_LENGTH = 400;
/** Event names read (in name order) through the (team, event) index, one index probe each. */
const MAX_EVENT_NAMES = 1000;
/** Property keys are those of the environment's latest events: a bounded read however many events it has. */
const PROPERTY_KEY_EVENTS = 10_000;
const MAX_PROPERTY_KEYS = 5000;

export interface DraftVocabulary {
  eventNames: string[];
  propertyKeys: string[];
}

/** The environment's event names and property keys, read within the query timeout. */
export async function draftVocabulary(reader: ReadDb, environment: EnvironmentRow, timeoutMs: number): Promise<DraftVocabulary> {
  return onReadSession(reader, timeoutMs, async (read) => {
    // A skip scan of the (team_id, event, timestamp) index: one probe per distinct name, not a read of every event.
    const names = await read<{ event: string }>(
      `with recursive names(event) as (
         (select event from events where team_id = $1 order by event limit 1)
         union all
         select (select e.event from events e where e.team_id = $1 and e.event > names.event order by e.event limit 1)
         from names where names.event is not null)
       select event from names where event is not null limit ${MAX_EVENT_NAMES}`,
      [environment.id],
    );
    const keys = await read<{ key: string }>(
      `select distinct k.key from (select properties from events where team_id = $1 order by timestamp desc limit ${PROPERTY_KEY_EVENTS}) e
         cross join lateral jsonb_object_keys(e.properties) as k(key)
       order by k.key limit ${MAX_PROPERTY_KEYS}`,
      [environment.id],
    );
    return { eventNames: names.rows.map((row) => row.event), propertyKeys: keys.rows.map((row) => row.key) };
  });
}

/** Lower-case words, `$` and other punctuation dropped: `$pageview` and "Pageview" are both `pageview`. */
function words(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

/** A name or key as words, and those words joined by single spaces, as the prompt's text is. */
interface Phrase {
  parts: string[];
  text: string;
}

function phraseOf(text: string): Phrase {
  const parts = words(text);
  return { parts, text: parts.join(' ') };
}

/**
 * The prompt's words and which of them a rule has used. A phrase is found through an index of the prompt's spans of
 * its length by their text, and whether a span is free is read from a running count of used words: with a thousand
 * event names and thousands of property keys, finding each costs a lookup, whatever the prompt.
 */
class Prompt {
  readonly words: string[];
  private readonly used: boolean[];
  /** usedBefore[i]: how many of the first i words are used. */
  private usedBefore: number[];
  /** For each length asked for, where each span of that many words starts, by the span's text. */
  private readonly spans = new Map<number, Map<string, number[]>>();

  constructor(prompt: string) {
    this.words = words(prompt);
    this.used = this.words.map(() => false);
    this.usedBefore = this.words.map(() => 0).concat(0);
  }

  get length(): number {
    return this.words.length;
  }

  isUsed(index: number): boolean {
    return this.used[index]!;
  }

  isFree(start: number, length: number): boolean {
    return this.usedBefore[start + length]! === this.usedBefore[start]!;
  }

  /** The text of `length` words from `start` (which must be within the prompt). */
  span(start: number, length: number): string {
    return this.words.slice(start, start + length).join(' ');
  }

  private spansOf(length: number): Map<string, number[]> {
    let spans = this.spans.get(length);
    if (!spans) {
      spans = new Map();
      for (let start = 0; start + length <= this.words.length; start += 1) {
        const text = this.span(start, length);
        const starts = spans.get(text);
        if (starts) starts.push(start);
        else spans.set(text, [start]);
      }
      this.spans.set(length, spans);
    }
    return spans;
  }

  /** Where the phrase is said at words not yet used (a plural `s` on its last word allowed), or -1. */
  find(phrase: Phrase): number {
    const length = phrase.parts.length;
    if (length === 0 || length > this.words.length) return -1;
    const spans = this.spansOf(length);
    const firstFree = (starts: number[] | undefined) => starts?.find((start) => this.isFree(start, length)) ?? -1;
    const exact = firstFree(spans.get(phrase.text));
    const plural = firstFree(spans.get(`${phrase.text}s`));
    return exact < 0 ? plural : plural < 0 ? exact : Math.min(exact, plural);
  }

  take(start: number, length: number): void {
    for (let index = start; index < start + length; index += 1) this.used[index] = true;
    let count = 0;
    this.usedBefore = [0];
    for (const used of this.used) this.usedBefore.push((count += used ? 1 : 0));
  }

  /** The first of `phrases` found; its words are marked used. */
  takeAny(phrases: readonly string[]): boolean {
    for (const text of phrases) {
      const phrase = phraseOf(text);
      const at = this.find(phrase);
      if (at >= 0) {
        this.take(at, phrase.parts.length);
        return true;
      }
    }
    return false;
  }
}

/** String order as `localeCompare`'s, from one collator rather than one per comparison. */
const collate = new Intl.Collator().compare;

/**
 * Property keys by their words, for finding the key said at a position of the prompt with one lookup per length of
 * key rather than a test of every key. Of keys with the same words (`$browser`, `browser`), the first in the
 * key's order is kept.
 */
class KeyIndex {
  private readonly byText = new Map<string, string>();
  /** The word counts of the keys, longest first: the longest key said at a position is its breakdown. */
  private readonly lengths: number[];

  constructor(keys: readonly string[]) {
    const lengths = new Set<number>();
    for (const key of keys) {
      const { parts, text } = phraseOf(key);
      if (parts.length === 0) continue;
      const known = this.byText.get(text);
      if (known === undefined || collate(key, known) < 0) this.byText.set(text, key);
      lengths.add(parts.length);
    }
    this.lengths = [...lengths].sort((a, b) => b - a);
  }

  /** The longest key said at free words from `start` (a plural `s` on its last word allowed), and its length. */
  saidAt(prompt: Prompt, start: number): { key: string; length: number } | null {
    for (const length of this.lengths) {
      if (start + length > prompt.length || !prompt.isFree(start, length)) continue;
      const text = prompt.span(start, length);
      const exact = this.byText.get(text);
      const singular = text.endsWith('s') ? this.byText.get(text.slice(0, -1)) : undefined;
      const key = exact === undefined ? singular : singular === undefined || collate(exact, singular) <= 0 ? exact : singular;
      if (key !== undefined) return { key, length };
    }
    return null;
  }
}

const BUCKETS: readonly { unit: 'hour' | 'day' | 'week' | 'month'; fn: string; phrases: string[] }[] = [
  { unit: 'hour', fn: 'toStartOfHour', phrases: ['per hour', 'by hour', 'each hour', 'hourly'] },
  { unit: 'day', fn: 'toStartOfDay', phrases: ['per day', 'by day', 'each day', 'daily'] },
  { unit: 'week', fn: 'toStartOfWeek', phrases: ['per week', 'by week', 'each week', 'weekly'] },
  { unit: 'month', fn: 'toStartOfMonth', phrases: ['per month', 'by month', 'each month', 'monthly'] },
];

const PERIOD_UNITS: Readonly<Record<string, IntervalUnit>> = { hour: 'hour', day: 'day', week: 'week', month: 'month' };

const field = (...chain: string[]): Expr => ({ kind: 'field', chain });
const call = (name: string, ...args: Expr[]): Expr => ({ kind: 'call', name, args });
const column = (expr: Expr, alias: string | null = null): SelectColumn => ({ star: false, expr, alias });

/** `timestamp >= now() - INTERVAL n unit` from "last n units" / "last unit", or `today`; null without one. */
function period(prompt: Prompt): Expr | null {
  const said = prompt.words;
  for (let index = 0; index < said.length; index += 1) {
    if (prompt.isUsed(index) || (said[index] !== 'last' && said[index] !== 'past')) continue;
    const amount = said[index + 1] !== undefined && /^\d{1,4}$/.test(said[index + 1]!) ? Number(said[index + 1]) : null;
    const unitWord = said[index + (amount === null ? 1 : 2)];
    const unit = unitWord === undefined ? undefined : ownEntry(PERIOD_UNITS, unitWord.replace(/s$/, ''));
    if (!unit || (amount !== null && amount < 1)) continue;
    prompt.take(index, amount === null ? 2 : 3);
    const since: Expr = { kind: 'arithmetic', op: '-', left: call('now'), right: { kind: 'interval', amount: { kind: 'constant', value: amount ?? 1 }, unit } };
    return { kind: 'compare', op: '>=', left: field('timestamp'), right: since };
  }
  const today = prompt.find(phraseOf('today'));
  if (today >= 0) {
    prompt.take(today, 1);
    return { kind: 'compare', op: '>=', left: field('timestamp'), right: call('toStartOfDay', call('now')) };
  }
  return null;
}

/** The draft's SELECT tree, or null when no rule finds a word of the prompt. */
export function draftTree(prompt: string, vocabulary: DraftVocabulary): SelectQuery | null {
  const said = new Prompt(prompt);
  const conditions: Expr[] = [];

  // Longest names first, so that "sign up completed" is not read as "sign up".
  const names = vocabulary.eventNames
    .map((name) => ({ name, phrase: phraseOf(name) }))
    .filter((entry) => entry.phrase.parts.length > 0)
    .sort((a, b) => b.phrase.parts.length - a.phrase.parts.length || collate(a.name, b.name));
  const events: string[] = [];
  for (const { name, phrase } of names) {
    const at = said.find(phrase);
    if (at >= 0) {
      said.take(at, phrase.parts.length);
      events.push(name);
    }
  }
  if (events.length === 1) conditions.push({ kind: 'compare', op: '=', left: field('event'), right: { kind: 'constant', value: events[0]! } });
  if (events.length > 1) conditions.push({ kind: 'in', negated: false, expr: field('event'), list: events.map((value) => ({ kind: 'constant', value })) });

  const unique = said.takeAny(['unique users', 'unique people', 'unique persons', 'unique visitors', 'distinct users']);
  const counted = said.takeAny(['how many', 'number of', 'count']);
  const bucket = BUCKETS.find((candidate) => said.takeAny(candidate.phrases)) ?? null;
  const since = period(said);
  if (since) conditions.push(since);

  const keys = new KeyIndex(vocabulary.propertyKeys);
  const breakdowns: Expr[] = [];
  for (let index = 0; index < said.length; index += 1) {
    if (said.isUsed(index) || (said.words[index] !== 'by' && said.words[index] !== 'per')) continue;
    const match = keys.saidAt(said, index + 1);
    if (!match) continue;
    said.take(index, match.length + 1);
    breakdowns.push(field('properties', match.key));
  }

  if (events.length === 0 && !unique && !counted && !bucket && !since && breakdowns.length === 0) return null;

  const where: Expr | null = conditions.length === 0 ? null : conditions.length === 1 ? conditions[0]! : { kind: 'and', exprs: conditions };
  const grouped = unique || counted || bucket !== null || breakdowns.length > 0;
  const base: Omit<SelectQuery, 'columns' | 'groupBy' | 'orderBy'> = {
    kind: 'select',
    ctes: [],
    distinct: false,
    from: { table: 'events', alias: null },
    joins: [],
    where,
    having: null,
    limitBy: null,
    limit: DEFAULT_RETURNED_ROWS,
    offset: null,
  };
  if (!grouped) {
    return {
      ...base,
      columns: [column(field('event')), column(field('distinct_id')), column(field('timestamp'))],
      groupBy: [],
      orderBy: [{ expr: field('timestamp'), descending: true }],
    };
  }
  const metric = unique ? call('uniq', field('distinct_id')) : call('count');
  const bucketColumn = bucket ? [column(call(bucket.fn, field('timestamp')), bucket.unit)] : [];
  return {
    ...base,
    columns: [...bucketColumn, ...breakdowns.map((expr) => column(expr)), column(metric)],
    groupBy: [...(bucket ? [field(bucket.unit)] : []), ...breakdowns],
    // Ties of the metric in the order of the breakdown, so that the rows' order is as fixed as the draft.
    orderBy: bucket
      ? [{ expr: field(bucket.unit), descending: false }, ...breakdowns.map((expr) => ({ expr, descending: false }))]
      : [{ expr: metric, descending: true }, ...breakdowns.map((expr) => ({ expr, descending: false }))],
  };
}

export async function draftSql(reader: ReadDb, environment: EnvironmentRow, prompt: string, timeoutMs: number): Promise<{ sql: string }> {
  if (prompt.length > MAX_PROMPT_LENGTH) throw errors.validation('This field is too long.', 'prompt', 'too_long');
  const tree = draftTree(prompt, await draftVocabulary(reader, environment, timeoutMs));
  if (!tree) {
    throw errors.validation(
      'The prompt names no event, property, count, time bucket or period of this project that a query can be drafted from. Please rephrase.',
      'prompt',
      'unclear',
    );
  }
  const sql = printQuery(tree);
  // The draft must be a query the endpoint runs: a failure here is a bug of the rules, not of the prompt.
  compileSelect(parseSelect(sql), { teamId: environment.id, timezone: environment.timezone, defaultLimit: DEFAULT_RETURNED_ROWS, maxLimit: MAX_SELECT_RETURNED_ROWS });
  return { sql };
}
