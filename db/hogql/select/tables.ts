/**
 * The tables a SELECT may read, each with its fields' compiler and its FROM: the environment filter is written
 * here, from the caller's environment, on every table a statement reads (the events, and the persons, distinct
 * ids, groups and sessions joined to them), so that no expression can reach another environment's rows.
 */
import type { Compiler, CompileOptions } from '../compiler.js';
import { HogQLError } from '../errors.js';
import { join, keyword, sql, type Fragment } from '../sql.js';
import { typed, type HogQLType, type Typed } from '../types.js';
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
      const [name, ...more] = rest;
      const column = typeof name === 'string' && Object.hasOwn(SESSION_FIELDS, name) ? SESSION_FIELDS[name] : undefined;
      if (!column) throw new HogQLError(`Unknown field "${chain.map(String).join('.')}": sessions have ${Object.keys(SESSION_FIELDS).join(', ')}.`);
      if (more.length > 0) throw new HogQLError(`The field "${String(name)}" has no field "${more.map(String).join('.')}".`);
      this.implicitJoins.add('session');
      return typed(keyword(column[0].replace(/^sess\./, 'es.')), column[1], true);
    }
    // `pdi.distinct_id`, `pdi.person_id`: the distinct id's current mapping to a person.
    if (head === 'pdi' && rest.length === 1 && (rest[0] === 'distinct_id' || rest[0] === 'person_id')) {
      this.usesPerson = true;
      return rest[0] === 'distinct_id' ? typed(keyword('pdi.distinct_id'), 'string', true) : typed(keyword('p.uuid'), 'uuid', true);
    }
    if (rest.length === 0) {
      // PostHog's created_at is when the event was stored.
      if (head === 'created_at') return typed(keyword('e.inserted_at'), 'datetime', false);
      if (head === '$session_id' || head === '$window_id') return this.jsonPath(keyword('e.properties'), [head], false);
    }
    if (head === 'person' && rest.length === 1) {
      const columns: Record<string, [string, HogQLType]> = { created_at: ['p.created_at', 'datetime'], is_identified: ['p.is_identified', 'boolean'] };
      const column = typeof rest[0] === 'string' && Object.hasOwn(columns, rest[0]) ? columns[rest[0]] : undefined;
      if (column) {
        this.usesPerson = true;
        return typed(keyword(column[0]), column[1], true);
      }
    }
    return super.field(chain);
  }
}

/** The persons table: a person's uuid is its `id`, as in PostHog. */
class PersonsCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    if (head === 'properties') return this.jsonPath(keyword('p.properties'), rest, false);
    const columns: Record<string, [string, HogQLType]> = {
      id: ['p.uuid', 'uuid'],
      created_at: ['p.created_at', 'datetime'],
      is_identified: ['p.is_identified', 'boolean'],
    };
    const column = typeof head === 'string' && Object.hasOwn(columns, head) ? columns[head] : undefined;
    const name = chain.map(String).join('.');
    if (!column) throw new HogQLError(`Unknown field "${name}" of the table persons.`);
    if (rest.length > 0) throw new HogQLError(`The field "${String(head)}" has no field "${rest.map(String).join('.')}".`);
    return typed(keyword(column[0]), column[1], false);
  }
}

/** The sessions table's fields: each one an aggregate of a session's events, computed in `sessions_of`. */
export const SESSION_FIELDS: Readonly<Record<string, [string, HogQLType, boolean]>> = {
  session_id: ['sess.session_id', 'string', false],
  distinct_id: ['sess.distinct_id', 'string', false],
  $start_timestamp: ['sess.start_timestamp', 'datetime', false],
  $end_timestamp: ['sess.end_timestamp', 'datetime', false],
  $session_duration: ['sess.session_duration', 'int', false],
  $entry_current_url: ['sess.entry_current_url', 'string', true],
  $end_current_url: ['sess.end_current_url', 'string', true],
  $pageview_count: ['sess.pageview_count', 'int', false],
};

/** The groups table, as PostHog's: one row per (index, key) of the environment's groups. */
class GroupsCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    return groupField(this, 'g', chain, false, 'the table groups');
  }
}

/** Sessions, as PostHog's sessions table: one row per `$session_id` of the environment's events. */
class SessionsCompiler extends StatementCompiler {
  override field(chain: readonly (string | number)[]): Typed {
    const [head, ...rest] = chain;
    const column = typeof head === 'string' && Object.hasOwn(SESSION_FIELDS, head) ? SESSION_FIELDS[head] : undefined;
    if (!column) throw new HogQLError(`Unknown field "${chain.map(String).join('.')}" of the table sessions.`);
    if (rest.length > 0) throw new HogQLError(`The field "${String(head)}" has no field "${rest.map(String).join('.')}".`);
    return typed(keyword(column[0]), column[1], column[2]);
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

/** The sessions of an environment's events, one row per `$session_id`, as `alias`. */
function sessionsOf(teamId: Fragment, alias: string): Fragment {
  return sql`(select e.properties ->> '$session_id' as session_id,
          (array_agg(e.distinct_id order by e.timestamp))[1] as distinct_id,
          min(e.timestamp) as start_timestamp, max(e.timestamp) as end_timestamp,
          floor(extract(epoch from max(e.timestamp) - min(e.timestamp)))::bigint as session_duration,
          (array_agg(e.properties ->> '$current_url' order by e.timestamp) filter (where e.properties ->> '$current_url' is not null))[1] as entry_current_url,
          (array_agg(e.properties ->> '$current_url' order by e.timestamp desc) filter (where e.properties ->> '$current_url' is not null))[1] as end_current_url,
          count(*) filter (where e.event = '$pageview') as pageview_count
        from events e where e.team_id = ${teamId} and coalesce(e.properties ->> '$session_id', '') <> ''
        group by 1) ${keyword(alias)}`;
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
        joins.push(sql`left join person_distinct_ids pdi on pdi.team_id = ${teamId} and pdi.distinct_id = e.distinct_id
            left join persons p on p.id = pdi.person_id and p.team_id = ${teamId}`);
      }
      GROUP_JOINS.forEach((name, index) => {
        if (!uses.implicitJoins.has(name)) return;
        const alias = `g${index}`;
        joins.push(
          sql`left join groups ${keyword(alias)} on ${keyword(alias)}.team_id = ${teamId} and ${keyword(`${alias}.group_type_index = ${index}`)} and ${keyword(`${alias}.group_key = e.group_${index}`)}`,
        );
      });
      if (uses.implicitJoins.has('session')) {
        joins.push(sql`left join ${sessionsOf(teamId, 'es')} on es.session_id = e.properties ->> '$session_id'`);
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
  sessions: {
    star: Object.keys(SESSION_FIELDS),
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
