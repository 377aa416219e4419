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

/** Where `phrase` appears in `prompt` at a word not yet used (a plural `s` on its last word allowed), or -1. */
function find(prompt: readonly string[], used: readonly boolean[], phrase: readonly string[], from = 0): number {
  if (phrase.length === 0) return -1;
  for (let start = from; start + phrase.length <= prompt.length; start += 1) {
    const matches = phrase.every((word, offset) => {
      const candidate = prompt[start + offset]!;
      const last = offset === phrase.length - 1;
      return !used[start + offset] && (candidate === word || (last && candidate === `${word}s`));
    });
    if (matches) return start;
  }
  return -1;
}

function take(used: boolean[], start: number, length: number): void {
  for (let index = start; index < start + length; index += 1) used[index] = true;
}

/** The first of `phrases` found; its words are marked used. */
function takeAny(prompt: readonly string[], used: boolean[], phrases: readonly string[]): boolean {
  for (const phrase of phrases) {
    const parts = phrase.split(' ');
    const at = find(prompt, used, parts);
    if (at >= 0) {
      take(used, at, parts.length);
      return true;
    }
  }
  return false;
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
function period(prompt: readonly string[], used: boolean[]): Expr | null {
  for (let index = 0; index < prompt.length; index += 1) {
    if (used[index] || (prompt[index] !== 'last' && prompt[index] !== 'past')) continue;
    const amount = prompt[index + 1] !== undefined && /^\d{1,4}$/.test(prompt[index + 1]!) ? Number(prompt[index + 1]) : null;
    const unitWord = prompt[index + (amount === null ? 1 : 2)];
    const unit = unitWord === undefined ? undefined : ownEntry(PERIOD_UNITS, unitWord.replace(/s$/, ''));
    if (!unit || (amount !== null && amount < 1)) continue;
    take(used, index, amount === null ? 2 : 3);
    const since: Expr = { kind: 'arithmetic', op: '-', left: call('now'), right: { kind: 'interval', amount: { kind: 'constant', value: amount ?? 1 }, unit } };
    return { kind: 'compare', op: '>=', left: field('timestamp'), right: since };
  }
  const today = find(prompt, used, ['today']);
  if (today >= 0) {
    take(used, today, 1);
    return { kind: 'compare', op: '>=', left: field('timestamp'), right: call('toStartOfDay', call('now')) };
  }
  return null;
}

/** The draft's SELECT tree, or null when no rule finds a word of the prompt. */
export function draftTree(prompt: string, vocabulary: DraftVocabulary): SelectQuery | null {
  const said = words(prompt);
  const used = said.map(() => false);
  const conditions: Expr[] = [];

  // Longest names first, so that "sign up completed" is not read as "sign up".
  const names = vocabulary.eventNames
    .map((name) => ({ name, parts: words(name) }))
    .filter((entry) => entry.parts.length > 0)
    .sort((a, b) => b.parts.length - a.parts.length || a.name.localeCompare(b.name));
  const events: string[] = [];
  for (const { name, parts } of names) {
    const at = find(said, used, parts);
    if (at >= 0) {
      take(used, at, parts.length);
      events.push(name);
    }
  }
  if (events.length === 1) conditions.push({ kind: 'compare', op: '=', left: field('event'), right: { kind: 'constant', value: events[0]! } });
  if (events.length > 1) conditions.push({ kind: 'in', negated: false, expr: field('event'), list: events.map((value) => ({ kind: 'constant', value })) });

  const unique = takeAny(said, used, ['unique users', 'unique people', 'unique persons', 'unique visitors', 'distinct users']);
  const counted = takeAny(said, used, ['how many', 'number of', 'count']);
  const bucket = BUCKETS.find((candidate) => takeAny(said, used, candidate.phrases)) ?? null;
  const since = period(said, used);
  if (since) conditions.push(since);

  const keys = vocabulary.propertyKeys
    .map((key) => ({ key, parts: words(key) }))
    .filter((entry) => entry.parts.length > 0)
    .sort((a, b) => b.parts.length - a.parts.length || a.key.localeCompare(b.key));
  const breakdowns: Expr[] = [];
  for (let index = 0; index < said.length; index += 1) {
    if (used[index] || (said[index] !== 'by' && said[index] !== 'per')) continue;
    const match = keys.find(({ parts }) => find(said, used, parts, index + 1) === index + 1);
    if (!match) continue;
    take(used, index, match.parts.length + 1);
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
