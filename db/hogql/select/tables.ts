/**
 * The tables a SELECT may read, each with its fields' compiler and its FROM: the environment filter is written
 * here, from the caller's environment, on every table a statement reads (the events, and the persons, distinct
 * ids, groups and sessions joined to them), so that no expression can reach another environment's rows.
 */
import type { Compiler, CompileOptions } from '../compiler.js';
import { HogQLError } from '../errors.js';
import { join, keyword, param, sql, type Fragment } from '../sql.js';
import { arrayOf, jsonKey, typed, type HogQLType, type Typed } from '../types.js';
import { StatementCompiler, type Context, type ImplicitJoin } from './statement.js';


const GROUP_JOINS: readonly ImplicitJoin[] = ['group_0', 'group_1', 'group_2', 'group_3', 'group_4'];

/** A group's fields, as PostHog's groups table names them: [column of `groups`, type]. */
const GROUP_FIELDS: Readonly<Record<string, [string, HogQLType]>> = {
  index: ['group_type_index::bigint', 'int'],
  key: ['group_key', 'string'],
  created_at: ['created_at', 'datetime'],
};

/** A field of a group (`properties…` or a column), read from the groups row under `alias`. */
function groupField(c: Compiler, alias: string, chain: readonly (string | number)[], nullable: boolean, what: string): Typed {
  const [head, ...rest] = chain;
  if (head === 'properties') return c.jsonPath(keyword(`${alias}.group_properties`), rest, nullable);
  if (head === 'updated_at' && rest.length === 0) throw new HogQLError(`The field "updated_at" of groups is not available: when a group last changed is not kept; created_at is.`);
  const column = typeof head === 'string' && Object.hasOwn(GROUP_FIELDS, head) ? GROUP_FIELDS[head] : undefined;
  if (!column) throw new HogQLError(`Unknown field "${chain.map(String).join('.')}" of ${what}.`);
  if (rest.length > 0) throw new HogQLError(`The field "${String(head)}" has no field "${rest.map(String).join('.')}".`);
  return typed(keyword(`${alias}.${column[0]}`), column[1], nullable);
}

/** The events compiler's fields, plus the ones PostHog's events table has that the listing does not offer. */
class EventsCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    // `group_2.properties.name`: the group of type 2 the event belongs to (null fields when it has none).
    if (typeof head === 'string' && (GROUP_JOINS as readonly string[]).includes(head) && rest.length > 0) {
      this.implicitJoins.add(head as ImplicitJoin);
      return groupField(this, `g${head.slice(-1)}`, rest, true, `the group ${head}`);
    }
    // `session.$session_duration`: the session of the event's $session_id.
    if (head === 'session' && rest.length > 0) {
      const field = sessionField('es', rest, 'session.');
      this.implicitJoins.add('session');
      // An event without a session has none of its fields.
      return { ...field, nullable: true };
    }
    // `pdi.*`: the distinct id's current mapping to a person, and that person (`pdi.person.properties.email`).
    if (head === 'pdi' && rest.length > 0) {
      this.usesPerson = true;
      return distinctIdField(this, rest, 'pdi.');
    }
    // `poe.*`: the person as stored on the event at capture (its properties as they were then).
    if (head === 'poe' && rest.length > 0) return this.personOnEvent(rest);
    if (rest.length === 0) {
      // PostHog's created_at is when the event was stored.
      if (head === 'created_at') return typed(keyword('e.inserted_at'), 'datetime', false);
      if (head === '$session_id' || head === '$window_id') return this.jsonPath(keyword('e.properties'), [head], false);
      // The person the event was stored with, whatever its distinct id maps to today.
      if (head === 'event_person_id') return typed(keyword('e.person_id'), 'uuid', true);
      if (head === 'elements_chain_href') return typed(sql`coalesce(substring(e.elements_chain from ${param(ELEMENTS_CHAIN_HREF, 'text')}), '')`, 'string', false);
      const pattern = typeof head === 'string' && Object.hasOwn(ELEMENTS_CHAIN_LISTS, head) ? ELEMENTS_CHAIN_LISTS[head] : undefined;
      if (pattern) return arrayOf(distinctMatches(pattern), 'string', false);
      const reason = typeof head === 'string' && Object.hasOwn(UNAVAILABLE_EVENT_FIELDS, head) ? UNAVAILABLE_EVENT_FIELDS[head] : undefined;
      if (reason) throw new HogQLError(`The field "${head}" of events is not available: ${reason}.`);
    }
    if (head === 'session' && rest.length === 0) throw new HogQLError('The field "session" is a table: name one of its fields, such as session.id or session.$session_duration.');
    if (typeof head === 'string' && /^goe_[0-4]$/.test(head)) throw new HogQLError(`The field "${head}" of events is not available: ${GROUPS_ON_EVENTS}.`);
    if (head === 'person' && rest.length === 1) {
      const column = typeof rest[0] === 'string' && Object.hasOwn(PERSON_COLUMNS, rest[0]) ? PERSON_COLUMNS[rest[0]] : undefined;
      if (column) {
        this.usesPerson = true;
        return typed(keyword(column[0]), column[1], true);
      }
    }
    return super.field(chain);
  }

  private personOnEvent(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    if (head === 'properties') return this.jsonPath(keyword('e.person_properties'), rest, true);
    if (rest.length === 0 && head === 'id') return typed(keyword('e.person_id'), 'uuid', true);
    // Not stored on the event: the person's creation time, which only a merge moves (earlier).
    if (rest.length === 0 && head === 'created_at') {
      this.usesPerson = true;
      return typed(keyword('case when e.person_id is not null then p.created_at end'), 'datetime', true);
    }
    throw new HogQLError(`Unknown field "poe.${chain.map(String).join('.')}": poe has id, created_at, properties.`);
  }
}

/**
 * PostHog's columns materialised from elements_chain, computed when read, with the regular expressions of its
 * events table: the first link, and the distinct texts, ids and tag names (of a few tags) in the order they come.
 * Its `(.*?)"` is written `([^"]*)"`, the same match: PostgreSQL makes a whole expression greedy once it holds an
 * alternation, where RE2 keeps `*?` lazy.
 */
const ELEMENTS_CHAIN_HREF = '(?::|")href="([^"]*)"';
const ELEMENTS_CHAIN_LISTS: Readonly<Record<string, string>> = {
  elements_chain_texts: '(?::|")text="([^"]*)"',
  elements_chain_ids: '(?::|")attr_id="([^"]*)"',
  elements_chain_elements: '(?:^|;)(a|button|form|input|select|textarea|label)(?:\\.|$|:)',
};

/** ClickHouse's arrayDistinct(extractAll(elements_chain, pattern)): each match's group, once, in order. */
function distinctMatches(pattern: string): Fragment {
  return sql`coalesce((select jsonb_agg(v.value order by v.at) from (select m.groups[1] as value, min(m.at) as at
      from regexp_matches(e.elements_chain, ${param(pattern, 'text')}, 'g') with ordinality as m(groups, at) group by 1) v), '[]'::jsonb)`;
}

/** Fields of PostHog's events table that are not here, with the reason the 400 gives. */
const UNAVAILABLE_EVENT_FIELDS: Readonly<Record<string, string>> = {
  person_mode: 'the person mode an event was processed with is not stored',
  $session_id_uuid: 'session ids are kept as the text of $session_id, not as a UUID; use $session_id',
};

const GROUPS_ON_EVENTS = "groups' properties are not stored on events; group_0 … group_4 read them as they are now";

/** A person's columns, read from the persons row `p` (the person of a distinct id). */
const PERSON_COLUMNS: Readonly<Record<string, [string, HogQLType]>> = {
  id: ['p.uuid', 'uuid'],
  created_at: ['p.created_at', 'datetime'],
  is_identified: ['p.is_identified', 'boolean'],
};

/**
 * A field of a distinct id's mapping (`distinct_id`, `person_id`, `person.…`), over `pdi` and its person `p`:
 * the person_distinct_ids table's fields and events' `pdi.…`. `prefix` is how the query reaches them.
 */
function distinctIdField(c: Compiler, chain: readonly (string | number)[], prefix: string): Typed {
  const [head, ...rest] = chain;
  const name = prefix + chain.map(String).join('.');
  if (head === 'person' && rest.length > 0) {
    const [second, ...more] = rest;
    if (second === 'properties') return c.jsonPath(keyword('p.properties'), more, true);
    const column = typeof second === 'string' && Object.hasOwn(PERSON_COLUMNS, second) ? PERSON_COLUMNS[second] : undefined;
    if (column && more.length === 0) return typed(keyword(column[0]), column[1], true);
    throw new HogQLError(`Unknown field "${name}": a person has id, created_at, is_identified, properties.`);
  }
  if (rest.length === 0 && head === 'distinct_id') return typed(keyword('pdi.distinct_id'), 'string', true);
  if (rest.length === 0 && head === 'person_id') return typed(keyword('p.uuid'), 'uuid', true);
  throw new HogQLError(`Unknown field "${name}": ${prefix === '' ? 'person_distinct_ids has' : 'pdi has'} distinct_id, person_id, person.`);
}

/** The person_distinct_ids table, as PostHog's: one row per distinct id of the environment, with its person. */
class DistinctIdsCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    const field = distinctIdField(this, chain, '');
    // Every distinct id has a person (the foreign key): only its properties can be null.
    return chain[0] === 'person' && chain[1] === 'properties' ? field : { ...field, nullable: false };
  }
}

/** The persons table: a person's uuid is its `id`, as in PostHog. */
class PersonsCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    if (head === 'properties') return this.jsonPath(keyword('p.properties'), rest, false);
    const column = typeof head === 'string' && Object.hasOwn(PERSON_COLUMNS, head) ? PERSON_COLUMNS[head] : undefined;
    const name = chain.map(String).join('.');
    if (head === 'pdi') throw new HogQLError('The field "pdi" of persons is not available: a person has several distinct ids; read them from person_distinct_ids.');
    if (!column) throw new HogQLError(`Unknown field "${name}" of the table persons.`);
    if (rest.length > 0) throw new HogQLError(`The field "${String(head)}" has no field "${rest.map(String).join('.')}".`);
    return typed(keyword(column[0]), column[1], false);
  }
}

/**
 * A session's aggregates over its events (one column each, by name), as PostHog's raw sessions compute them: the
 * first (entry) or last (end) event's value by timestamp: for URLs the first or last event that has one (argMin
 * of a Nullable skips nulls), for attribution the first event's, whether or not it has one (argMin of a String,
 * where a missing property is '', which PostHog reads as null); counts of events by name.
 * PostgreSQL drops the columns a query does not read from the aggregate (unused outputs of a subquery in FROM),
 * so a query pays only for the fields it reads.
 */
const stringProperty = (key: string) => `case when jsonb_typeof(e.properties -> '${key}') = 'string' then nullif(e.properties ->> '${key}', '') end`;
const first = (value: string) => `(array_agg(${value} order by e.timestamp, e.uuid))[1]`;
const last = (value: string) => `(array_agg(${value} order by e.timestamp desc, e.uuid desc))[1]`;
const firstPresent = (value: string) => `(array_agg(${value} order by e.timestamp, e.uuid) filter (where ${value} is not null))[1]`;
const lastPresent = (value: string) => `(array_agg(${value} order by e.timestamp desc, e.uuid desc) filter (where ${value} is not null))[1]`;
const eventCount = (event: string) => `count(*) filter (where e.event = '${event}')`;

/** PostHog's entry attribution parameters: `$entry_<name>` is the first event's `<name>` property. */
const ENTRY_PARAMETERS = [
  'utm_source', 'utm_campaign', 'utm_medium', 'utm_term', 'utm_content', 'gclid', 'gad_source', 'gclsrc', 'dclid', 'gbraid',
  'wbraid', 'fbclid', 'msclkid', 'twclid', 'li_fat_id', 'mc_cid', 'igshid', 'ttclid', '_kx', 'irclid',
];

const SESSION_AGGREGATES: ReadonlyArray<[column: string, aggregate: string]> = [
  ['distinct_id', last('e.distinct_id')],
  ['start_timestamp', 'min(e.timestamp)'],
  ['end_timestamp', 'max(e.timestamp)'],
  ['max_inserted_at', 'max(e.inserted_at)'],
  // The distinct URLs in the order they were first visited (ClickHouse's groupUniqArray has no order).
  ['urls', `coalesce((select jsonb_agg(u.url order by u.at) from (select url, min(n) as at from unnest(array_agg(${stringProperty('$current_url')} order by e.timestamp, e.uuid)) with ordinality as v(url, n) where url is not null group by url) u), '[]'::jsonb)`],
  ['entry_current_url', firstPresent(stringProperty('$current_url'))],
  ['end_current_url', lastPresent(stringProperty('$current_url'))],
  ['last_external_click_url', lastPresent(stringProperty('$external_click_url'))],
  ['entry_referring_domain', first(stringProperty('$referring_domain'))],
  ['entry_referrer', first(stringProperty('$referrer'))],
  ...ENTRY_PARAMETERS.map((name): [string, string] => [`entry_${name}`, first(stringProperty(name))]),
  ['pageview_count', eventCount('$pageview')],
  ['autocapture_count', eventCount('$autocapture')],
  ['screen_count', eventCount('$screen')],
  ['vitals_lcp', firstPresent("hogql_to_number(e.properties -> '$web_vitals_LCP_value')")],
];

/** ClickHouse's path(): the URL without scheme, host, query and fragment. (No "?" in static SQL: \x3f.) */
const urlPath = (url: string) => `regexp_replace(regexp_replace(${url}, '^([a-zA-Z][a-zA-Z0-9+.-]*:){0,1}//[^/\\x3f#]*', ''), '[\\x3f#].*$', '')`;
/** ClickHouse's domain(): the host, without user, port and path. */
const urlDomain = (url: string) => `regexp_replace(${url}, '^([a-zA-Z][a-zA-Z0-9+.-]*://){0,1}([^/\\x3f#@]*@){0,1}([^/\\x3f#:]*).*$', '\\3')`;
/** dateDiff('second', start, end): the second boundaries crossed, as ClickHouse counts them. */
const DURATION = (a: string) => `(floor(extract(epoch from ${a}.end_timestamp)) - floor(extract(epoch from ${a}.start_timestamp)))::bigint`;
/** PostHog's default bounce-rate threshold: a session this long or longer is not a bounce. */
const BOUNCE_SECONDS = 10;

/** A field of a session: its SQL over the aggregate row `a`, its type, whether it can be null. */
type SessionField = [(a: string) => string, HogQLType, boolean];
const column = (name: string, type: HogQLType, nullable: boolean): SessionField => [(a) => `${a}.${name}`, type, nullable];

/** The sessions table's fields, as PostHog's sessions table (v2) names and computes them. */
export const SESSION_FIELDS: Readonly<Record<string, SessionField>> = {
  session_id: column('session_id', 'string', false),
  id: column('session_id', 'string', false),
  distinct_id: column('distinct_id', 'string', false),
  $start_timestamp: column('start_timestamp', 'datetime', false),
  $end_timestamp: column('end_timestamp', 'datetime', false),
  max_inserted_at: column('max_inserted_at', 'datetime', false),
  $session_duration: [DURATION, 'int', false],
  duration: [DURATION, 'int', false],
  $urls: column('urls', 'array', false),
  $num_uniq_urls: [(a) => `jsonb_array_length(${a}.urls)::bigint`, 'int', false],
  $entry_current_url: column('entry_current_url', 'string', true),
  $entry_pathname: [(a) => urlPath(`${a}.entry_current_url`), 'string', true],
  $entry_hostname: [(a) => urlDomain(`${a}.entry_current_url`), 'string', true],
  $end_current_url: column('end_current_url', 'string', true),
  $end_pathname: [(a) => urlPath(`${a}.end_current_url`), 'string', true],
  $end_hostname: [(a) => urlDomain(`${a}.end_current_url`), 'string', true],
  $exit_current_url: column('end_current_url', 'string', true),
  $exit_pathname: [(a) => urlPath(`${a}.end_current_url`), 'string', true],
  $last_external_click_url: column('last_external_click_url', 'string', true),
  $entry_referring_domain: column('entry_referring_domain', 'string', true),
  $entry_referrer: column('entry_referrer', 'string', true),
  ...Object.fromEntries(ENTRY_PARAMETERS.map((name) => [`$entry_${name}`, column(`entry_${name}`, 'string', true)])),
  $pageview_count: column('pageview_count', 'int', false),
  $autocapture_count: column('autocapture_count', 'int', false),
  $screen_count: column('screen_count', 'int', false),
  $page_screen_autocapture_count_up_to: [(a) => `least(${a}.pageview_count + ${a}.autocapture_count + ${a}.screen_count, 2)`, 'int', false],
  // PostHog's bounce (pageview mode): no pageview says nothing (null); one pageview, no autocapture and less
  // than BOUNCE_SECONDS is a bounce.
  $is_bounce: [
    (a) => `case when ${a}.pageview_count = 0 then null else not (${a}.pageview_count > 1 or ${a}.autocapture_count > 0 or ${DURATION(a)} >= ${BOUNCE_SECONDS}) end`,
    'boolean',
    true,
  ],
  $vitals_lcp: column('vitals_lcp', 'float', true),
};

/** Fields of PostHog's sessions table that are not computed here, with the reason the 400 gives. */
const UNAVAILABLE_SESSION_FIELDS: Readonly<Record<string, string>> = {
  $channel_type:
    "PostHog's channel type follows its own table of rules (referring domains, UTM values, ad ids, custom rules per project) that Hedgerow does not hold; group by $entry_utm_source, $entry_utm_medium or $entry_referring_domain instead",
  session_id_v7: 'session ids are the text of $session_id here, not a 128-bit number',
  team_id: 'every table is already the environment of the query',
};

/** A field of a session read from the aggregate row `alias`; `prefix` is how the query reaches it (`session.`). */
function sessionField(alias: string, chain: readonly (string | number)[], prefix: string): Typed {
  const [head, ...rest] = chain;
  const name = prefix + chain.map(String).join('.');
  const reason = typeof head === 'string' && Object.hasOwn(UNAVAILABLE_SESSION_FIELDS, head) ? UNAVAILABLE_SESSION_FIELDS[head] : undefined;
  if (reason) throw new HogQLError(`The field "${String(head)}" of sessions is not available: ${reason}.`);
  const field = typeof head === 'string' && Object.hasOwn(SESSION_FIELDS, head) ? SESSION_FIELDS[head] : undefined;
  if (!field) throw new HogQLError(`Unknown field "${name}": sessions have ${Object.keys(SESSION_FIELDS).join(', ')}.`);
  const [expression, type, nullable] = field;
  const fragment = keyword(expression(alias));
  // `$urls[1]`: an element, counted from 1 (negative from the end); out of range, '' as ClickHouse answers for
  // an Array(String).
  if (type === 'array' && rest.length === 1 && typeof rest[0] === 'number') return typed(sql`coalesce(${fragment} ->> ${jsonKey(rest[0])}, '')`, 'string', false);
  if (rest.length > 0) throw new HogQLError(`The field "${String(head)}" has no field "${rest.map(String).join('.')}".`);
  return type === 'array' ? arrayOf(fragment, 'string', nullable) : typed(fragment, type, nullable);
}

/** The groups table, as PostHog's: one row per (index, key) of the environment's groups. */
class GroupsCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    return groupField(this, 'g', chain, false, 'the table groups');
  }
}

/** Sessions, as PostHog's sessions table: one row per `$session_id` of the environment's events. */
class SessionsCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    return sessionField('sess', chain, '');
  }
}

export interface Table {
  /** The fields `*` stands for. */
  star: readonly string[];
  /** The fields a JOIN reads of it. */
  joinFields: readonly string[];
  compiler(options: CompileOptions, context: Context): Compiler;
  /**
   * FROM with the environment filter (in it, or beside it); `uses` adds the events' persons, groups and sessions
   * an expression reads, each filtered the same.
   */
  from(teamId: Fragment, uses: { person: boolean; implicitJoins: ReadonlySet<ImplicitJoin> }): { from: Fragment; filter: Fragment | null };
}

/**
 * The sessions of an environment's events, one row per `$session_id`, as `alias`. Grouped by the environment too,
 * so that the events' join can equate it, as every join of tenant tables here does: besides the environment
 * filter on each table, what lets a distributed PostgreSQL (Citus) run the join on the environment's node.
 */
function sessionsOf(teamId: Fragment, alias: string): Fragment {
  const aggregates = SESSION_AGGREGATES.map(([name, aggregate]) => `${aggregate} as ${name}`).join(',\n          ');
  return sql`(select e.team_id, e.properties ->> '$session_id' as session_id,
          ${keyword(aggregates)}
        from events e where e.team_id = ${teamId} and coalesce(e.properties ->> '$session_id', '') <> ''
        group by 1, 2) ${keyword(alias)}`;
}

export const TABLES: Readonly<Record<string, Table>> = {
  events: {
    star: ['uuid', 'event', 'properties', 'timestamp', 'distinct_id', 'elements_chain', 'created_at'],
    joinFields: [
      'uuid', 'event', 'properties', 'timestamp', 'distinct_id', 'elements_chain', 'created_at', 'person_id', '$session_id', '$window_id',
      '$group_0', '$group_1', '$group_2', '$group_3', '$group_4',
    ],
    compiler: (options, context) => new EventsCompiler(options, context),
    from: (teamId, uses) => {
      const joins: Fragment[] = [keyword('events e')];
      if (uses.person) {
        joins.push(sql`left join person_distinct_ids pdi on pdi.team_id = e.team_id and pdi.team_id = ${teamId} and pdi.distinct_id = e.distinct_id
            left join persons p on p.team_id = pdi.team_id and p.team_id = ${teamId} and p.id = pdi.person_id`);
      }
      GROUP_JOINS.forEach((name, index) => {
        if (!uses.implicitJoins.has(name)) return;
        const alias = `g${index}`;
        joins.push(
          sql`left join groups ${keyword(alias)} on ${keyword(`${alias}.team_id = e.team_id`)} and ${keyword(alias)}.team_id = ${teamId} and ${keyword(`${alias}.group_type_index = ${index}`)} and ${keyword(`${alias}.group_key = e.group_${index}`)}`,
        );
      });
      if (uses.implicitJoins.has('session')) {
        joins.push(sql`left join ${sessionsOf(teamId, 'es')} on es.team_id = e.team_id and es.session_id = e.properties ->> '$session_id'`);
      }
      return { from: join(joins, ' '), filter: sql`e.team_id = ${teamId}` };
    },
  },
  persons: {
    star: ['id', 'created_at', 'properties', 'is_identified'],
    joinFields: ['id', 'created_at', 'properties', 'is_identified'],
    compiler: (options, context) => new PersonsCompiler(options, context),
    from: (teamId) => ({ from: keyword('persons p'), filter: sql`p.team_id = ${teamId}` }),
  },
  person_distinct_ids: {
    star: ['distinct_id', 'person_id'],
    joinFields: ['distinct_id', 'person_id'],
    compiler: (options, context) => new DistinctIdsCompiler(options, context),
    // Both rows filtered by the environment: a distinct id's person is always its own environment's.
    from: (teamId) => ({
      from: sql`person_distinct_ids pdi join persons p on p.team_id = pdi.team_id and p.team_id = ${teamId} and p.id = pdi.person_id`,
      filter: sql`pdi.team_id = ${teamId}`,
    }),
  },
  sessions: {
    // As PostHog's `*`: without the id and the aliases of other fields.
    star: Object.keys(SESSION_FIELDS).filter((name) => !['id', 'duration', '$exit_current_url', '$exit_pathname', 'max_inserted_at'].includes(name)),
    joinFields: Object.keys(SESSION_FIELDS),
    compiler: (options, context) => new SessionsCompiler(options, context),
    from: (teamId) => ({ from: sessionsOf(teamId, 'sess'), filter: null }),
  },
  groups: {
    star: ['index', 'key', 'created_at', 'properties'],
    joinFields: ['index', 'key', 'created_at', 'properties'],
    compiler: (options, context) => new GroupsCompiler(options, context),
    from: (teamId) => ({ from: keyword('groups g'), filter: sql`g.team_id = ${teamId}` }),
  },
};

export const TABLE_NAMES = Object.keys(TABLES);
