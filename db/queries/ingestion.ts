/**
 * The SQL of capture: finding a project by its API key, and the statements of one group-commit transaction
 * (handlers/capture/ingest.ts decides which). They run on the raw `pg` connection the group commit holds
 * (db/pg/group-commit.ts `Transaction`), because the events go in with one binary COPY, which Knex cannot issue,
 * and because several statements share one message wherever they can: under load a round trip to the database
 * costs far more than a small statement.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { jsonbText } from '../core/jsonb-text.js';
import { parseJson } from '../core/exact-json.js';
import { MAX_JSON_DEPTH } from '../core/json-limits.js';
import type { GroupPlan, GroupTypeIndexes, NewEventRow, PersonPlan, StoredDistinctId } from './ingestion-types.js';
import type { Db } from '../pg/client.js';
import { BinaryCopyWriter, binaryArray, type CopyType, type CopyValue } from '../pg/copy-binary.js';
import type { Transaction } from '../pg/group-commit.js';
import type { PreparedStatement } from '../pg/prepared.js';

/**
 * Whether the database is a Citus cluster, where capture_store_events runs on the node of its environment
 * (its migration distributes it so): there the quick path stores a batch of one environment by that call.
 * Asked on the transaction's own connection, before it begins.
 */
export async function storesOnEnvironmentNodes(transaction: Transaction): Promise<boolean> {
  const { rows } = await transaction.beforeBegin<{ citus: boolean }>(
    `select exists (select 1 from pg_extension where extname = 'citus') as citus`,
  );
  return rows[0]!.citus;
}

/** The id of the environment whose project API key this is, or null. */
export async function findEnvironmentIdByApiToken(db: Db, token: string): Promise<number | null> {
  const row = await db('environments').where({ api_token: token }).first<{ id: number } | undefined>('id');
  return row?.id ?? null;
}

/**
 * First key of capture's advisory locks (ASCII "Hedg"); the second is the environment id. Capture's writes
 * are serialised per environment across every Hedgerow process sharing the database.
 */
export const CAPTURE_LOCK_CLASS = 0x48656467;

/** SQLSTATE of `capture_lock_environment` when the environment's persons changed since capture looked. */
export const STALE_PERSONS = 'HX001';

/**
 * SQLSTATE of `capture_require_environment` (called by both paths) when a batch's environment was deleted after
 * capture looked its API key up: events no longer have a foreign key, this check is theirs (see the
 * check_event_environments_per_batch migration).
 */
export const ENVIRONMENT_GONE = 'HX002';

/** A text as an SQL dollar-quoted literal, with a tag that does not occur in it (so nothing needs escaping). */
function dollarQuoted(text: string): string {
  let tag = '$json$';
  for (let n = 0; text.includes(tag); n += 1) tag = `$json${n}$`;
  return `${tag}${text}${tag}`;
}

const int = (value: number) => String(Math.trunc(value));

/** Distinct texts as an SQL array literal of `type` (each element quoted, so any text passes). */
function arrayLiteral(values: readonly string[], type: 'int' | 'text' | 'uuid'): string {
  const elements = [...new Set(values)].map((value) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`);
  return `${dollarQuoted(`{${elements.join(',')}}`)}::${type}[]`;
}

export interface BatchStart {
  /** `team_id:uuid` of the given events that are already stored. */
  stored: Set<string>;
  /** The persons the given distinct ids already have. */
  persons: StoredDistinctId[];
  /** Each environment's person epoch (see the capture_person_epochs migration). */
  epochs: Map<number, number>;
}

/**
 * Opens a batch's transaction in one round trip: locks the environments (checking that they still exist), sets
 * `ingested_event` on those receiving their first events, reads their person epochs, finds which of the given events are already stored, and loads the persons of the given
 * distinct ids.
 */
export async function startBatch(
  transaction: Transaction,
  input: {
    teamIds: readonly number[];
    eventKeys: ReadonlyArray<{ teamId: number; uuid: string }>;
    distinctIds: ReadonlyArray<{ teamId: number; distinctId: string }>;
    newlyIngested: readonly number[];
  },
): Promise<BatchStart> {
  const teams = [...input.teamIds].sort((a, b) => a - b);
  const statements = teams.flatMap((teamId) => [
    // Taken where capture_check_environments takes its shared lock: on the node of the environment's rows.
    `select pg_advisory_xact_lock(${CAPTURE_LOCK_CLASS}, ${int(teamId)})
       from (select count(*) from capture_person_epochs where team_id = ${int(teamId)}) as environment_node`,
    `call capture_require_environment(${int(teamId)})`,
  ]);
  statements.push(...markIngested(input.newlyIngested));
  statements.push(`select team_id, epoch from capture_person_epochs where team_id in (${teams.map(int).join(',')})`);
  const epochIndex = statements.length - 1;
  let storedIndex = -1;
  if (input.eventKeys.length > 0) {
    storedIndex = statements.length;
    // Environments and uuids as two lists rather than a join with a list of pairs: Citus routes the lookup to the
    // environments' nodes, and a row of another of the batch's environments is still a stored event.
    statements.push(
      `select team_id, uuid from events
        where team_id = any(${arrayLiteral(input.eventKeys.map((key) => int(key.teamId)), 'int')})
          and uuid = any(${arrayLiteral(input.eventKeys.map((key) => key.uuid), 'uuid')})`,
    );
  }
  let personsIndex = -1;
  if (input.distinctIds.length > 0) {
    personsIndex = statements.length;
    // As above; rows for a pair that was not asked are left out below.
    statements.push(
      `select d.team_id, d.distinct_id, p.id, p.uuid, p.properties::text as properties_json, p.is_identified,
              extract(epoch from p.created_at) * 1000 as created_ms
         from person_distinct_ids d
         join persons p on p.team_id = d.team_id and p.id = d.person_id
        where d.team_id = any(${arrayLiteral(input.distinctIds.map((key) => int(key.teamId)), 'int')})
          and d.distinct_id = any(${arrayLiteral(input.distinctIds.map((key) => key.distinctId), 'text')})`,
    );
  }
  const results = await transaction.script(statements);

  const epochs = new Map<number, number>(teams.map((teamId) => [teamId, 0]));
  for (const row of results[epochIndex]!.rows as Array<{ team_id: number; epoch: string }>) {
    epochs.set(row.team_id, Number(row.epoch));
  }
  const stored = new Set<string>();
  if (storedIndex !== -1) {
    for (const row of results[storedIndex]!.rows as Array<{ team_id: number; uuid: string }>) {
      stored.add(`${row.team_id}:${row.uuid}`);
    }
  }
  const persons: StoredDistinctId[] = [];
  if (personsIndex !== -1) {
    const rows = results[personsIndex]!.rows as Array<{
      team_id: number;
      distinct_id: string;
      id: string;
      uuid: string;
      properties_json: string;
      is_identified: boolean;
      created_ms: string;
    }>;
    const asked = new Set(input.distinctIds.map((key) => `${key.teamId}:${key.distinctId}`));
    for (const row of rows) {
      if (!asked.has(`${row.team_id}:${row.distinct_id}`)) continue;
      persons.push({
        teamId: row.team_id,
        distinctId: row.distinct_id,
        person: {
          id: row.id,
          uuid: row.uuid,
          // Read as text and parsed here, so that integers beyond 2^53 stay exact when the person is written back.
          properties: parseJson(row.properties_json, MAX_JSON_DEPTH) as Record<string, unknown>,
          isIdentified: row.is_identified,
          createdAt: new Date(Number(row.created_ms)),
        },
      });
    }
  }
  return { stored, persons, epochs };
}

/**
 * Applies one environment's person plan. Returns the environment's new person epoch when the plan merged
 * persons (distinct ids moved), null otherwise.
 */
export async function applyPersonPlan(transaction: Transaction, teamId: number, plan: PersonPlan): Promise<number | null> {
  const idByUuid = new Map<string, string>();
  if (plan.created.length > 0) {
    const { rows } = await transaction.query<{ id: string; uuid: string }>(
      `insert into persons (uuid, team_id, properties, is_identified, created_at)
       select * from unnest($1::uuid[], $2::int[], $3::jsonb[], $4::bool[], $5::timestamptz[])
       returning id, uuid`,
      [
        plan.created.map((p) => p.uuid),
        plan.created.map((p) => p.teamId),
        plan.created.map((p) => jsonbText(p.properties)),
        plan.created.map((p) => p.isIdentified),
        plan.created.map((p) => p.createdAt),
      ],
    );
    for (const row of rows) idByUuid.set(row.uuid, row.id);
  }
  const idOf = async (uuid: string): Promise<string> => {
    const known = idByUuid.get(uuid);
    if (known) return known;
    const { rows } = await transaction.query<{ id: string }>('select id from persons where team_id = $1 and uuid = $2', [teamId, uuid]);
    if (!rows[0]) throw new Error(`person ${uuid} vanished during a merge`);
    idByUuid.set(uuid, rows[0].id);
    return rows[0].id;
  };
  for (const merge of plan.merges) {
    // Every distinct id of the merged person moves, and so do the events stored under them. A move is what batch
    // exports of persons read by updated_at, and version orders two exported rows of one distinct id.
    await transaction.query(
      `with moved as (
         update person_distinct_ids set person_id = $3, version = version + 1, updated_at = now()
          where team_id = $1 and person_id = $2 returning team_id, distinct_id
       )
       update events e set person_id = $4
         from moved where e.team_id = moved.team_id and e.distinct_id = moved.distinct_id and e.team_id = $1`,
      [merge.teamId, merge.sourceId, await idOf(merge.targetUuid), merge.targetUuid],
    );
    await transaction.query('delete from persons where team_id = $1 and id = $2', [merge.teamId, merge.sourceId]);
  }
  if (plan.updated.length > 0) {
    await transaction.query(
      `update persons p set properties = u.properties, is_identified = u.is_identified, version = p.version + 1, updated_at = now()
         from unnest($2::bigint[], $3::jsonb[], $4::bool[]) as u(id, properties, is_identified)
        where p.team_id = $1 and p.id = u.id`,
      [teamId, plan.updated.map((p) => p.id), plan.updated.map((p) => jsonbText(p.properties)), plan.updated.map((p) => p.isIdentified)],
    );
  }
  if (plan.links.length > 0) {
    const personIds: string[] = [];
    for (const link of plan.links) personIds.push(await idOf(link.personUuid));
    await transaction.query(
      `insert into person_distinct_ids (team_id, distinct_id, person_id)
       select * from unnest($1::int[], $2::text[], $3::bigint[])`,
      [plan.links.map((l) => l.teamId), plan.links.map((l) => l.distinctId), personIds],
    );
  }
  if (plan.merges.length === 0) return null;
  const { rows } = await transaction.query<{ epoch: string }>(
    `insert into capture_person_epochs (team_id, epoch) values ($1, 1)
     on conflict (team_id) do update set epoch = capture_person_epochs.epoch + 1
     returning epoch`,
    [teamId],
  );
  return Number(rows[0]!.epoch);
}

export async function loadGroupTypes(transaction: Transaction, teamIds: readonly number[]): Promise<GroupTypeIndexes> {
  const indexes: GroupTypeIndexes = new Map();
  if (teamIds.length === 0) return indexes;
  const { rows } = await transaction.query<{ team_id: number; group_type: string; group_type_index: number }>(
    'select team_id, group_type, group_type_index from group_type_mappings where team_id = any($1::int[])',
    [teamIds],
  );
  for (const row of rows) {
    let types = indexes.get(row.team_id);
    if (!types) indexes.set(row.team_id, (types = new Map()));
    types.set(row.group_type, row.group_type_index);
  }
  return indexes;
}

export async function applyGroupPlan(transaction: Transaction, plan: GroupPlan): Promise<void> {
  if (plan.newTypes.length > 0) {
    await transaction.query(
      `insert into group_type_mappings (team_id, group_type, group_type_index)
       select * from unnest($1::int[], $2::text[], $3::smallint[])`,
      [plan.newTypes.map((t) => t.teamId), plan.newTypes.map((t) => t.type), plan.newTypes.map((t) => t.index)],
    );
  }
  if (plan.upserts.length > 0) {
    await transaction.query(
      `insert into groups (team_id, group_type_index, group_key, group_properties, created_at)
       select * from unnest($1::int[], $2::smallint[], $3::text[], $4::jsonb[], $5::timestamptz[])
       on conflict (team_id, group_type_index, group_key)
       do update set group_properties = groups.group_properties || excluded.group_properties`,
      [
        plan.upserts.map((g) => g.teamId),
        plan.upserts.map((g) => g.index),
        plan.upserts.map((g) => g.key),
        plan.upserts.map((g) => jsonbText(g.properties)),
        plan.upserts.map((g) => g.createdAt),
      ],
    );
  }
}

type ValueOf<T extends CopyType> = Extract<NonNullable<CopyValue>, { type: T }>['value'];

/** A column of `events` that capture writes: its name, its type, and how an event's value for it is read. */
function column<T extends CopyType>(name: string, type: T, pick: (row: NewEventRow) => ValueOf<T> | null) {
  return {
    name,
    type,
    field: (row: NewEventRow): CopyValue => {
      const value = pick(row);
      return value === null ? null : ({ type, value } as CopyValue);
    },
  };
}

/** The columns capture writes, in the order of every statement that writes them (COPY, the arrays, the JSON). */
const EVENT_TABLE = [
  column('team_id', 'int4', (row) => row.teamId),
  column('uuid', 'uuid', (row) => row.uuid),
  column('event', 'text', (row) => row.event),
  column('distinct_id', 'text', (row) => row.distinctId),
  column('properties', 'jsonb', (row) => row.propertiesJson),
  column('"timestamp"', 'timestamptz', (row) => row.timestamp),
  column('elements_chain', 'text', (row) => row.elementsChain),
  column('person_id', 'uuid', (row) => row.personId),
  column('person_properties', 'jsonb', (row) => row.personPropertiesJson),
  ...[0, 1, 2, 3, 4].map((index) => column(`group_${index}`, 'text', (row) => row.groups[index] ?? null)),
  column('historical_migration', 'bool', (row) => row.historicalMigration),
];

const EVENT_COLUMNS = EVENT_TABLE.map((entry) => entry.name).join(', ');

/**
 * The select list of an INSERT of `EVENT_COLUMNS` from rows under `alias` with the same column names, joined
 * with `personsJoin`'s `p`: an event that changed no person (the quick path) comes without its person's
 * properties, which are read here, in the statement that checks the environment's person epoch, so they are
 * the ones the event was captured with.
 */
const insertedColumns = (alias: string, joined: boolean) =>
  EVENT_TABLE.map((entry) =>
    entry.name === 'person_properties' && joined ? `coalesce(${alias}.person_properties, p.properties)` : `${alias}.${entry.name}`,
  ).join(', ');

/**
 * The join of rows under `alias` with their persons' properties, read by environments and uuids (SQL arrays)
 * with one query (a subquery per row is refused by Citus) through a function (see QUICK_INSERT).
 */
const personsJoin = (alias: string, teamIds: string, personIds: string) =>
  `left join capture_person_properties(${teamIds}, ${personIds}) as p on p.team_id = ${alias}.team_id and p.uuid = ${alias}.person_id`;

/** A row whose person's properties the insert reads (which COPY cannot). */
const readsPersonProperties = (row: NewEventRow) => row.personId !== null && row.personPropertiesJson === null;

/** One event's values, in `EVENT_COLUMNS` order, typed for the binary forms. */
const eventFields = (row: NewEventRow): CopyValue[] => EVENT_TABLE.map((entry) => entry.field(row));

/** Rows of a COPY encoded between two turns of the event loop. */
const COPY_PIECE_ROWS = 2000;

/**
 * The rows in COPY's binary format, in pieces of COPY_PIECE_ROWS rows with the event loop let in between: a
 * batch of a hundred thousand events takes a second or more to encode, which would hold every other request.
 */
async function copyData(rows: readonly NewEventRow[]): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  for (let start = 0; start < rows.length; start += COPY_PIECE_ROWS) {
    if (start > 0) await nextTurn();
    const end = Math.min(rows.length, start + COPY_PIECE_ROWS);
    const writer = new BinaryCopyWriter();
    for (let index = start; index < end; index += 1) writer.add(eventFields(rows[index]!));
    pieces.push(writer.toBuffer({ header: start === 0, trailer: end === rows.length }));
  }
  return pieces;
}

/** The rows as one binary array per column, the quick statement's first fifteen parameters. */
function columnArrays(rows: readonly NewEventRow[]): Buffer[] {
  const fields = rows.map(eventFields);
  return EVENT_TABLE.map((entry, index) => binaryArray(entry.type, fields.map((row) => row[index]!)));
}

/**
 * A batch's rows as the JSON array `selectRows` reads (one object per event, short keys), for a batch that is a
 * script of statements (simple query protocol: no parameters, so no binary arrays).
 */
function rowsJson(rows: readonly NewEventRow[]): string {
  const objects = rows.map((row) => {
    const groups = row.groups.map((key, index) => `"g${index}":${key === null ? 'null' : JSON.stringify(key)}`).join(',');
    return (
      `{"t":${int(row.teamId)},"u":"${row.uuid}","e":${JSON.stringify(row.event)},` +
      `"d":${JSON.stringify(row.distinctId)},"p":${row.propertiesJson},"ts":"${row.timestamp.toISOString()}",` +
      `"c":${JSON.stringify(row.elementsChain)},"pi":${row.personId === null ? 'null' : `"${row.personId}"`},` +
      `"pp":${row.personPropertiesJson ?? 'null'},${groups},"h":${row.historicalMigration}}`
    );
  });
  return `[${objects.join(',')}]`;
}

/** The events of `rowsJson`'s array, which `json` (an SQL literal) holds, in `EVENT_COLUMNS` order. */
function selectRows(json: string, rows: readonly NewEventRow[]): string {
  const reading = rows.filter(readsPersonProperties);
  const teamIds = arrayLiteral(reading.map((row) => int(row.teamId)), 'int');
  const personIds = arrayLiteral(reading.map((row) => row.personId!), 'uuid');
  return `select ${insertedColumns('r', reading.length > 0)}
  from (select j.t, j.u, j.e, j.d, j.p, j.ts, j.c, j.pi, j.pp, j.g0, j.g1, j.g2, j.g3, j.g4, j.h
          from jsonb_to_recordset(${json}::jsonb) as j(
            t int, u uuid, e text, d text, p jsonb, ts timestamptz, c text, pi uuid, pp jsonb,
            g0 text, g1 text, g2 text, g3 text, g4 text, h boolean)) as r(${EVENT_COLUMNS})
  ${reading.length > 0 ? personsJoin('r', teamIds, personIds) : ''}`;
}

/**
 * The quick path's usual batch (remembered persons, no warnings, no environment receiving its first events; on
 * Citus, of several environments: STORE_EVENTS takes a batch of one), of any size, as one prepared statement that
 * is a transaction of its own: the environment checks run first, once (an uncorrelated
 * subquery in WHERE is evaluated before any row is read), then the persons' properties are read and the rows
 * inserted, and PostgreSQL commits at the end of the statement. The persons are read through a function
 * (capture_person_properties) so that the statement names no distributed table: Citus would run it, checks
 * and all, on a worker. Compared with the same work as a script of statements (begin, call, insert, commit),
 * the database parses and plans nothing per batch. The rows come as one binary array per column
 * (`columnArrays`): PostgreSQL reads each value with its type's binary receive function, where a JSON document
 * of the whole batch had to be parsed, then each field found in it and parsed again from text (less database CPU
 * per event). The last two parameters are the environments, sorted, and the person
 * epochs capture knew for them. An event already stored (an SDK's retry) is left out by ON CONFLICT rather than
 * failing the batch: Citus reports a duplicate found on a shard without its SQLSTATE, so capture could not tell
 * it from any other failure. It answers the number of events stored, counted from RETURNING, as Citus's own
 * count of an INSERT … SELECT counts the rows left out too.
 */
const QUICK_INSERT: PreparedStatement = (() => {
  const columns = EVENT_TABLE.map((entry, index) => `$${index + 1}::${entry.type}[]`);
  const personIds = columns[EVENT_TABLE.findIndex((entry) => entry.name === 'person_id')]!;
  const environments = `$${columns.length + 1}::int[]`;
  const epochs = `$${columns.length + 2}::bigint[]`;
  return {
    name: 'hedgerow_capture_quick_insert',
    text: `with inserted as (insert into events (${EVENT_COLUMNS}) select ${insertedColumns('u', true)}
      from unnest(${columns.join(', ')}) as u(${EVENT_COLUMNS})
      ${personsJoin('u', environments, personIds)}
      where (select capture_check_environments(${CAPTURE_LOCK_CLASS}, ${environments}, ${epochs}))
      on conflict (team_id, uuid) do nothing
      returning 1)
      select count(*)::int as stored from inserted`,
  };
})();

/**
 * On a Citus cluster, QUICK_INSERT for a batch of one environment (an SDK's) without a uuid twice, as one call
 * of capture_store_events (see its migration), which does the same in one function: the coordinator hands the
 * call to the node of the environment, where the checks, the persons' properties and the insert are all
 * local. It leaves out events already stored, and one that another transaction stores meanwhile fails it with a
 * unique violation, as one in a script does (ingest then takes the full path). Its parameters: the environment,
 * the lock class, the person epoch capture knew, and the column arrays of `columnArrays` but the environment's.
 */
export const STORE_EVENTS: PreparedStatement = (() => {
  const columns = EVENT_TABLE.slice(1).map((entry, index) => `$${index + 4}::${entry.type}[]`);
  return {
    name: 'hedgerow_capture_store_events',
    text: `select capture_store_events($1::int, $2::int, $3::bigint, ${columns.join(', ')}) as stored`,
  };
})();

/** Whether two of the rows have the same uuid (an SDK that sent an event twice in one batch). */
function repeatsUuid(rows: readonly NewEventRow[]): boolean {
  return new Set(rows.map((row) => row.uuid)).size !== rows.length;
}

/**
 * A batch that is a script of statements (the full path, or one with warnings) stores up to this many events
 * with one INSERT … SELECT FROM jsonb_to_recordset in the same message as the rest of its transaction (one round
 * trip), and more with a binary COPY (two round trips, as the database must accept the COPY before it takes the
 * data). Under load a round trip costs more than the INSERT's dearer rows for small batches, while COPY's cheaper
 * rows win for large ones. The quick statement needs neither: its rows are binary and it is one round trip
 * whatever the size, which also beat COPY for `/batch/` requests of 100 events (scripts/bench/README.md).
 */
const INSERT_AT_MOST_ROWS = 64;

/**
 * `ingested_event` set on environments receiving their first events, as the first write of their batch's
 * transaction: Citus refuses to modify a reference table (environments) after a parallel read of a table with a
 * foreign key to it in the same transaction, while a modification that comes first makes the rest of the
 * transaction use one connection per node.
 */
function markIngested(teamIds: readonly number[]): string[] {
  if (teamIds.length === 0) return [];
  // Not announced as an access change (access-changes.ts): no lookup reads the flag from the access cache.
  return [`update environments set ingested_event = true where id in (${teamIds.map(int).join(',')}) and not ingested_event`];
}

/**
 * Ends a batch: its events, its ingestion warnings, `ingested_event` on environments receiving their first
 * events (unless `startBatch` set it), and the commit. The quick path's usual batch is STORE_EVENTS or
 * QUICK_INSERT alone (one round trip); any other is a
 * script of those statements with the events as an INSERT (one round trip) or, above INSERT_AT_MOST_ROWS events,
 * a binary COPY (two).
 *
 * `locks` opens the transaction too, for a batch that relied on remembered persons: each environment is locked
 * and its person epoch checked against the one capture knew (SQLSTATE HX001 when it moved on). Returns the
 * number of events stored.
 */
export async function finishBatch(
  transaction: Transaction,
  input: {
    locks: ReadonlyArray<{ teamId: number; epoch: number }>;
    rows: readonly NewEventRow[];
    warnings: ReadonlyArray<{ teamId: number; type: string; details: Record<string, unknown> }>;
    newlyIngested: readonly number[];
    /** See storesOnEnvironmentNodes. */
    onEnvironmentNodes: boolean;
  },
): Promise<number> {
  const locks = [...input.locks].sort((a, b) => a.teamId - b.teamId);
  const before = locks.map(({ teamId, epoch }) => `call capture_lock_environment(${CAPTURE_LOCK_CLASS}, ${int(teamId)}, ${int(epoch)})`);
  const after: string[] = [];
  if (input.warnings.length > 0) {
    const json = jsonbText(input.warnings.map((w) => ({ t: w.teamId, y: w.type, d: w.details })));
    after.push(
      `insert into ingestion_warnings (team_id, type, details)
       select t, y, d from jsonb_to_recordset(${dollarQuoted(json)}::jsonb) as w(t int, y text, d jsonb)`,
    );
  }
  before.push(...markIngested(input.newlyIngested));
  if (input.rows.length === 0) {
    await transaction.scriptAndCommit([...before, ...after]);
    return 0;
  }
  const [only] = locks;
  const oneEnvironment = input.onEnvironmentNodes && locks.length === 1 && input.rows.every((row) => row.teamId === only!.teamId);
  if (oneEnvironment && before.length === 1 && after.length === 0 && !transaction.begunOnce && !repeatsUuid(input.rows)) {
    const { teamId, epoch } = only!;
    const result = await transaction.alone(STORE_EVENTS, [teamId, CAPTURE_LOCK_CLASS, epoch, ...columnArrays(input.rows).slice(1)]);
    return (result.rows[0] as { stored: number }).stored;
  }
  if (locks.length > 0 && before.length === locks.length && after.length === 0 && !transaction.begunOnce) {
    const result = await transaction.alone(QUICK_INSERT, [
      ...columnArrays(input.rows),
      locks.map((lock) => lock.teamId),
      locks.map((lock) => lock.epoch),
    ]);
    return (result.rows[0] as { stored: number }).stored;
  }
  if (input.rows.length <= INSERT_AT_MOST_ROWS || input.rows.some(readsPersonProperties)) {
    const results = await transaction.scriptAndCommit([
      ...before,
      `insert into events (${EVENT_COLUMNS}) ${selectRows(dollarQuoted(rowsJson(input.rows)), input.rows)}`,
      ...after,
    ]);
    return results[before.length]!.rowCount ?? 0;
  }
  return transaction.copyAndCommit(
    before,
    `copy events (${EVENT_COLUMNS}) from stdin (format binary)`,
    await copyData(input.rows),
    after,
  );
}
