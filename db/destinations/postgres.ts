/**
 * The SQL of the Postgres batch export destination, against the user's database: connecting as PostHog does,
 * the tables PostHog creates, and one run's load in a single transaction of that database.
 *
 * Exactly once: the whole run is one destination transaction, which also records the run in a bookkeeping table
 * of the destination schema (`hedgerow_batch_export_runs`, keyed by export and interval end, holding the run's
 * generation). An attempt that dies midway never commits, so its rows are never seen. A marker of the same
 * generation means an earlier attempt of this very run loaded it: skipped. A marker of another generation means
 * the interval is deliberately run again (a backfill over it, or a retry of the run): its rows replace what the
 * interval delivered before. (PostHog appends with COPY and may duplicate rows on a retry.)
 *
 * Privileges: no more than PostHog's. On an existing table the role needs USAGE on the schema and SELECT, INSERT
 * and UPDATE on the table (and TEMPORARY on the database, which PostgreSQL grants everyone, for the stage); the
 * catalog is looked up first and only what is missing is created. The marker table is used when it is there
 * (its owner may make it and grant those three privileges on it) or when the role may create it (CREATE on the
 * schema, which creating the table needs anyway). Otherwise the run keeps no marker and every load merges by key
 * instead, which leaves each row once as well: events by uuid, persons and sessions by their primary key. What
 * is lost is only the skip: a retry writes the rows again in place, a late row of the interval included.
 *
 * Replacing: events have no key in PostHog's table, so the rows go first to a temporary stage table; the
 * target's rows with a uuid of the stage are updated to it and the others inserted (no DELETE, which PostHog
 * never asks for). Rows the re-run no longer selects (an event excluded by a changed filter, or deleted at the
 * source) stay: like PostHog, an export never deletes what it delivered, it only writes again what it exports
 * now. Persons and sessions are upserts already; a re-run also overwrites a row of the same version, so that
 * what is exported again wins unless the table holds newer.
 *
 * Creating: PostgreSQL's CREATE TABLE IF NOT EXISTS is not safe when two sessions create one table at once (the
 * loser fails on a duplicate row type), so creators of one table take turns under an advisory lock.
 *
 * The rows never pass through this process as values: `COPY (records SELECT) TO STDOUT` on Hedgerow's database
 * is piped into `COPY … FROM STDIN` on the destination, in PostgreSQL's text format, so memory stays bounded
 * whatever the window holds. COPY takes no parameters, so the records query's bindings are written into its text
 * as quoted literals (every binding there has an explicit cast).
 */
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { isIP } from 'node:net';
import { createHash } from 'node:crypto';
import { connectionStringOf, type Db } from '../pg/client.js';
import { checkPostgresHostSpelling, type AddressPolicy } from './address-policy.js';
import { EXPORT_READER_NAME, inlineRecordsQuery } from '../queries/batch-exports/records.js';
import type { RecordsQuery } from '../queries/batch-exports/records-query.js';
import type { BatchExportModel } from '../queries/batch-exports/rows.js';

export interface PostgresDestinationConfig {
  user: string;
  password: string;
  host: string;
  port: number;
  database: string;
  schema: string;
  tableName: string;
  hasSelfSignedCert: boolean;
}

/** A setting or table shape that retrying cannot mend: the run fails at once with this message. */
export class PostgresDestinationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PostgresDestinationError';
  }
}

/** Reads the export's destination_config, with PostHog's defaults. */
export function postgresConfigOf(config: Record<string, unknown>): PostgresDestinationConfig {
  const text = (key: string, fallback?: string): string => {
    const value = config[key] ?? fallback;
    if (typeof value !== 'string' || value === '') throw new PostgresDestinationError(`The Postgres destination needs "${key}".`);
    return value;
  };
  const portValue = config.port ?? 5432;
  const port = typeof portValue === 'string' ? Number(portValue) : portValue;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new PostgresDestinationError('The Postgres destination\'s "port" must be an integer from 1 to 65535.');
  }
  const password = config.password;
  if (typeof password !== 'string') throw new PostgresDestinationError('The Postgres destination needs "password".');
  return {
    user: text('user'),
    password,
    host: text('host'),
    port,
    database: text('database'),
    schema: text('schema', 'public'),
    tableName: text('table_name', 'events'),
    hasSelfSignedCert: config.has_self_signed_cert === true || config.has_self_signed_cert === 'true',
  };
}

/**
 * SQLSTATE classes and codes that retrying cannot mend (PostHog's list of non-retryable errors): bad credentials,
 * an unknown database or schema, missing privileges, rows the table refuses, unsupported features, limits.
 */
const PERMANENT_SQLSTATES = new Set([
  '28000', // invalid_authorization_specification
  '28P01', // invalid_password
  '3D000', // invalid_catalog_name (no such database)
  '3F000', // invalid_schema_name
  '42501', // insufficient_privilege
  '42P01', // undefined_table
  '23502', // not_null_violation
  '23505', // unique_violation
  '23514', // check_violation
  '23503', // foreign_key_violation
  '42703', // undefined_column
  '22001', // string_data_right_truncation
  '53100', // disk_full
  '0A000', // feature_not_supported
  '22P05', // untranslatable_character
  '22P02', // invalid_text_representation
  '42804', // datatype_mismatch
  '54000', // program_limit_exceeded
]);

/** The SQLSTATE of an error of the destination database, when it is one retrying cannot mend. */
export function permanentSqlState(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && PERMANENT_SQLSTATES.has(code) ? code : null;
}

/**
 * Connects as PostgreSQL's sslmode=prefer does: TLS when the server offers it (its certificate checked unless the
 * export says it is self-signed), in the clear when the server has no TLS.
 *
 * The host is resolved through the address policy and the connection made to an address it checked (never to
 * the name, which could resolve again elsewhere), trying each in turn; TLS still verifies the certificate
 * against the host name. A socket path or a list of hosts is refused before anything.
 */
export async function connectDestination(config: PostgresDestinationConfig, addresses: AddressPolicy, connectTimeoutMs = 30_000): Promise<pg.Client> {
  checkPostgresHostSpelling(config.host);
  const targets = await addresses.resolve(config.host);
  let failure: unknown = new Error(`${config.host} resolved to no address`);
  for (const target of targets) {
    try {
      return await connectTo(config, target.address, connectTimeoutMs);
    } catch (error) {
      // A PostgreSQL that answered (a bad password, no such database) is the answer; the next address is not asked.
      if (isServerAnswer(error)) throw error;
      failure = error;
    }
  }
  throw failure;
}

/** Whether the error is what a PostgreSQL server answered (it has a SQLSTATE), not a failure to reach one. */
export function isServerAnswer(error: unknown): boolean {
  return error instanceof pg.DatabaseError;
}

async function connectTo(config: PostgresDestinationConfig, address: string, connectTimeoutMs: number): Promise<pg.Client> {
  const bare = config.host.startsWith('[') && config.host.endsWith(']') ? config.host.slice(1, -1) : config.host;
  const settings = {
    user: config.user,
    password: config.password,
    host: address,
    port: config.port,
    database: config.database,
    connectionTimeoutMillis: connectTimeoutMs,
    keepAlive: true,
  };
  const servername = isIP(bare) === 0 ? { servername: bare } : {};
  const secure = new pg.Client({ ...settings, ssl: { rejectUnauthorized: !config.hasSelfSignedCert, ...servername } });
  try {
    await secure.connect();
    return secure;
  } catch (error) {
    await secure.end().catch(() => undefined);
    if (!(error instanceof Error) || !/does not support SSL/i.test(error.message)) throw error;
  }
  const plain = new pg.Client(settings);
  try {
    await plain.connect();
  } catch (error) {
    await plain.end().catch(() => undefined);
    throw error;
  }
  return plain;
}

/** What tells one database apart from every other: its cluster, and the database inside it. */
export interface DatabaseIdentity {
  /** pg_control_system()'s, where the role may read it (every role may, unless an administrator revoked it). */
  systemIdentifier: string | null;
  /** When the cluster's postmaster started, to the microsecond: a cluster's mark when the identifier is hidden. */
  startedAt: string;
  databaseOid: string;
  databaseName: string;
}

const IDENTITY_SQL = `select pg_catalog.pg_postmaster_start_time()::text as started_at,
                             pg_catalog.current_database()::text as database_name,
                             (select d.oid::text from pg_catalog.pg_database d where d.datname = pg_catalog.current_database()) as database_oid,
                             pg_catalog.has_function_privilege('pg_catalog.pg_control_system()', 'execute') as can_read_identifier`;

/** The identity of the database a session is connected to; every function is schema-qualified. */
async function identityOf(query: (sql: string) => Promise<Array<Record<string, unknown>>>): Promise<DatabaseIdentity> {
  const [row] = await query(IDENTITY_SQL);
  let systemIdentifier: string | null = null;
  if (row!.can_read_identifier === true) {
    const [control] = await query('select system_identifier::text as system_identifier from pg_catalog.pg_control_system()');
    systemIdentifier = (control?.system_identifier as string | undefined) ?? null;
  }
  return {
    systemIdentifier,
    startedAt: String(row!.started_at),
    databaseOid: String(row!.database_oid),
    databaseName: String(row!.database_name),
  };
}

const ownIdentities = new WeakMap<Db, Promise<DatabaseIdentity>>();

/** Hedgerow's own database's identity, read once per pool. */
export function ownDatabaseIdentity(db: Db): Promise<DatabaseIdentity> {
  let identity = ownIdentities.get(db);
  if (!identity) {
    identity = identityOf(async (sql) => (await db.raw(sql)).rows as Array<Record<string, unknown>>);
    identity.catch(() => ownIdentities.delete(db));
    ownIdentities.set(db, identity);
  }
  return identity;
}

/** Whether two identities are of one cluster: by identifier when both show it, else by when it started. */
export function sameCluster(one: DatabaseIdentity, other: DatabaseIdentity): boolean {
  if (one.systemIdentifier !== null && other.systemIdentifier !== null) return one.systemIdentifier === other.systemIdentifier;
  return one.startedAt === other.startedAt;
}

/** Whether two identities are one database: the same cluster and database. */
export function sameDatabase(one: DatabaseIdentity, other: DatabaseIdentity): boolean {
  if (one.databaseOid !== other.databaseOid || one.databaseName !== other.databaseName) return false;
  return sameCluster(one, other);
}

/**
 * Refuses a destination that is Hedgerow's own database, by whatever address or name it was reached: an export
 * writing there could write into any environment's tables. Runs on the connected session before anything is
 * created or written; the allowlist does not change it.
 */
export async function refuseOwnDatabase(db: Db, destination: pg.Client): Promise<void> {
  const [own, theirs] = await Promise.all([
    ownDatabaseIdentity(db),
    identityOf(async (sql) => (await destination.query(sql)).rows as Array<Record<string, unknown>>),
  ]);
  if (sameDatabase(own, theirs)) {
    throw new PostgresDestinationError("The destination is this server's own database, which a batch export may never write to.");
  }
  // Another database of the server's own cluster is allowed (an operator allowed its address), but not as a
  // superuser: that role could reach the server's database from there (dblink, COPY PROGRAM, ALTER ROLE ...).
  if (sameCluster(own, theirs)) {
    const { rows } = await destination.query<{ superuser: boolean }>("select pg_catalog.current_setting('is_superuser') = 'on' as superuser");
    if (rows[0]?.superuser) {
      throw new PostgresDestinationError(
        "The destination signs in as a superuser of the cluster that holds this server's own database, which a batch export may never do: use a role of its own.",
      );
    }
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** PostHog's events table: no primary key, append only. */
const EVENTS_TABLE_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['uuid', 'varchar(200)'],
  ['event', 'varchar(200)'],
  ['properties', 'jsonb'],
  ['elements', 'jsonb'],
  ['set', 'jsonb'],
  ['set_once', 'jsonb'],
  ['distinct_id', 'varchar(200)'],
  ['team_id', 'integer'],
  ['ip', 'varchar(200)'],
  ['site_url', 'varchar(200)'],
  ['timestamp', 'timestamp with time zone'],
];

/** The events table's columns that the default events record does not hold as they are, from the record `r`. */
const DERIVED_EVENT_COLUMNS: Readonly<Record<string, string>> = {
  elements: 'to_jsonb(r.elements_chain)',
  ip: "nullif(r.properties ->> '$ip', '')",
  site_url: 'null::text',
};

const PERSONS_TABLE_COLUMNS: ReadonlyArray<readonly [string, string]> = [
  ['team_id', 'bigint'],
  ['distinct_id', 'text'],
  ['person_id', 'text'],
  ['properties', 'jsonb'],
  ['person_distinct_id_version', 'bigint'],
  ['person_version', 'bigint'],
  ['created_at', 'timestamp with time zone'],
  ['is_deleted', 'boolean'],
];

const SESSIONS_TEXT_COLUMNS = [
  'distinct_id',
  'entry_current_url',
  'entry_pathname',
  'entry_hostname',
  'end_current_url',
  'end_pathname',
  'end_hostname',
  'entry_utm_source',
  'entry_utm_campaign',
  'entry_utm_medium',
  'entry_utm_term',
  'entry_utm_content',
  'entry_referring_domain',
  'entry_gclid',
  'entry_fbclid',
  'entry_gad_source',
  'last_external_click_url',
  'exit_current_url',
  'exit_pathname',
  'entry_gclsrc',
  'entry_dclid',
  'entry_gbraid',
  'entry_wbraid',
  'entry_msclkid',
  'entry_twclid',
  'entry_li_fat_id',
  'entry_mc_cid',
  'entry_igshid',
  'entry_ttclid',
  'entry__kx',
  'entry_irclid',
];

const SESSIONS_TYPES: Readonly<Record<string, string>> = {
  session_id: 'text',
  team_id: 'bigint',
  start_timestamp: 'timestamp with time zone',
  end_timestamp: 'timestamp with time zone',
  urls: 'text[]',
  num_uniq_urls: 'bigint',
  pageview_count: 'bigint',
  autocapture_count: 'bigint',
  screen_count: 'bigint',
  session_duration: 'bigint',
  duration: 'bigint',
  page_screen_autocapture_count_up_to: 'bigint',
  is_bounce: 'boolean',
  ...Object.fromEntries(SESSIONS_TEXT_COLUMNS.map((column) => [column, 'text'])),
};

interface UpsertShape {
  key: readonly string[];
  /** Which of two rows of the same key is newer: EXCLUDED (the incoming row) against final. */
  newer: string;
  /** The two rows are of the same version: a re-run overwrites such a row, a first delivery leaves it. */
  same: string;
}

const UPSERTS: Readonly<Record<'persons' | 'sessions', UpsertShape>> = {
  persons: {
    key: ['team_id', 'distinct_id'],
    newer: 'EXCLUDED.person_version > final.person_version OR EXCLUDED.person_distinct_id_version > final.person_distinct_id_version',
    same:
      'EXCLUDED.person_version IS NOT DISTINCT FROM final.person_version AND EXCLUDED.person_distinct_id_version IS NOT DISTINCT FROM final.person_distinct_id_version',
  },
  sessions: {
    key: ['team_id', 'session_id'],
    newer: 'EXCLUDED.end_timestamp > final.end_timestamp',
    same: 'EXCLUDED.end_timestamp IS NOT DISTINCT FROM final.end_timestamp',
  },
};

/** The destination table's columns for a model's records (the records' columns, `_inserted_at` left out). */
function tableColumns(model: BatchExportModel, recordColumns: readonly string[]): ReadonlyArray<readonly [string, string]> {
  if (model === 'events') return EVENTS_TABLE_COLUMNS;
  if (model === 'persons') return PERSONS_TABLE_COLUMNS;
  return recordColumns.filter((column) => column !== '_inserted_at').map((column) => [column, SESSIONS_TYPES[column] ?? 'text'] as const);
}

export interface LoadRequest {
  batchExportId: string;
  dataIntervalEnd: Date;
  /**
   * Which run of the interval this is: the same across retries of one run, another when the interval is run again
   * on purpose. The marker holds the generation that last loaded the interval.
   */
  generation: string;
  model: BatchExportModel;
  /** Whether the records are the events model's default columns (no hogql_query). */
  defaultEventColumns: boolean;
  /** The records SELECT over Hedgerow's database, unordered. */
  records: RecordsQuery;
  signal: AbortSignal;
}

export interface LoadOutcome {
  recordsCompleted: number;
  bytesExported: number;
  /** An earlier attempt loaded this run already; nothing was written now. */
  alreadyLoaded: boolean;
  /** The interval was loaded before by another generation, whose rows this load replaced. */
  replaced: boolean;
}

const RUNS_TABLE = 'hedgerow_batch_export_runs';

/** Counts the bytes that pass. */
class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    callback(null, chunk);
  }
}

/**
 * Loads one run into the destination, in one transaction of `destination`: creates the table if it is missing,
 * then either claims the run's marker (or finds it: the same generation skips, another replaces) and streams the
 * records in, or, where the role may keep no markers, merges the records by their key. Throws
 * PostgresDestinationError for a table that cannot take them; the destination's own errors as they are.
 */
export async function loadRun(db: Db, destination: pg.Client, config: PostgresDestinationConfig, request: LoadRequest): Promise<LoadOutcome> {
  const schema = quoteIdentifier(config.schema);
  const table = `${schema}.${quoteIdentifier(config.tableName)}`;
  const runs = `${schema}.${quoteIdentifier(RUNS_TABLE)}`;
  const upsert = request.model === 'events' ? null : UPSERTS[request.model];
  const wanted = tableColumns(request.model, request.records.columns);
  const tableName = `${config.schema}.${config.tableName}`;

  // Only what is missing is created, each in a transaction of its own before the run's: an existing table needs
  // no privilege on its schema beyond USAGE.
  const keyDefinition = upsert ? `, primary key (${upsert.key.map(quoteIdentifier).join(', ')})` : '';
  await createIfMissing(
    destination,
    config.schema,
    config.tableName,
    `create table ${table} (${wanted.map(([name, type]) => `${quoteIdentifier(name)} ${type}`).join(', ')}${keyDefinition})`,
  );
  const keepsMarkers = await markerTableAvailable(destination, config.schema, runs);
  await destination.query('begin read write');
  try {
    let replacing = false;
    if (keepsMarkers) {
      // Claimed first: a second attempt running at the same time waits here for this one's outcome.
      const claimed = await destination.query(
        `insert into ${runs} (batch_export_id, data_interval_end, table_name, generation) values ($1, $2, $3, $4)
         on conflict (batch_export_id, data_interval_end) do nothing returning 1`,
        [request.batchExportId, request.dataIntervalEnd, tableName, request.generation],
      );
      if (claimed.rowCount === 0) {
        // Locked, so that two re-runs of the interval load one after the other.
        const { rows } = await destination.query<{ records_completed: string | null; bytes_exported: string | null; generation: string | null }>(
          `select records_completed::text, bytes_exported::text, generation from ${runs}
            where batch_export_id = $1 and data_interval_end = $2 for update`,
          [request.batchExportId, request.dataIntervalEnd],
        );
        if (rows[0]?.generation === request.generation) {
          await destination.query('rollback');
          return {
            recordsCompleted: Number(rows[0].records_completed ?? 0),
            bytesExported: Number(rows[0].bytes_exported ?? 0),
            alreadyLoaded: true,
            replaced: false,
          };
        }
        replacing = true;
      }
    }

    const existing = new Set((await destination.query(`select * from ${table} where false`)).fields.map((field) => field.name));
    if (upsert) await checkPrimaryKey(destination, config, upsert.key);
    const columns = outputColumns(request, existing);
    if (columns.length === 0) {
      throw new PostgresDestinationError(`The table ${tableName} has none of the columns this export writes.`);
    }
    const names = columns.map(([name]) => quoteIdentifier(name));
    const hasUuid = columns.some(([name]) => name === 'uuid');
    if (replacing && !upsert && !hasUuid) {
      throw new PostgresDestinationError(
        `This interval was exported to ${tableName} before, and replacing its rows needs their uuid, which this export does not write.`,
      );
    }
    if (!keepsMarkers && !upsert && !hasUuid) {
      throw new PostgresDestinationError(
        `The role may neither create nor use ${config.schema}.${RUNS_TABLE}, where runs are recorded, so loading each row once needs the rows' uuid, which this export does not write: grant the role CREATE on schema ${config.schema} (it makes that table once), or add a uuid column to ${tableName}.`,
      );
    }
    // Without markers every load merges by key, as a re-run does: whether rows were delivered before is unknown.
    const merging = replacing || !keepsMarkers;
    // A first delivery of events is COPied straight into the table; anything else goes through a stage.
    const staged = upsert !== null || merging;
    const target = staged ? quoteIdentifier(`hedgerow_stage_${request.batchExportId.replaceAll('-', '')}`) : table;
    if (staged) {
      await destination.query(`create temporary table ${target} on commit drop as select ${names.join(', ')} from ${table} where false`);
    }
    const { rows, bytes } = await copyRecords(db, destination, request, target, columns);
    if (upsert) {
      const updates = columns.filter(([name]) => !upsert.key.includes(name)).map(([name]) => `${quoteIdentifier(name)} = EXCLUDED.${quoteIdentifier(name)}`);
      const wins = merging ? `(${upsert.newer}) OR (${upsert.same})` : upsert.newer;
      await destination.query(
        `insert into ${table} as final (${names.join(', ')}) select ${names.join(', ')} from ${target}
         on conflict (${upsert.key.map(quoteIdentifier).join(', ')}) do update set ${updates.join(', ')} where ${wins}`,
      );
    } else if (merging) {
      await mergeEventsByUuid(destination, config, table, target, names);
    }
    if (keepsMarkers) {
      await destination.query(
        `update ${runs} set records_completed = $3, bytes_exported = $4, generation = $5, table_name = $6, loaded_at = now()
          where batch_export_id = $1 and data_interval_end = $2`,
        [request.batchExportId, request.dataIntervalEnd, rows, bytes, request.generation, tableName],
      );
    }
    await destination.query('commit');
    return { recordsCompleted: rows, bytesExported: bytes, alreadyLoaded: false, replaced: replacing };
  } catch (error) {
    await destination.query('rollback').catch(() => undefined);
    throw error;
  }
}

/**
 * Writes the staged events into the table by uuid: a row already there is updated to what is exported now, the
 * others are inserted. Only SELECT, INSERT and UPDATE on the table (PostHog's privileges), no DELETE. Loads into
 * one table take their turn here, so that two of them never both insert a uuid neither saw.
 */
async function mergeEventsByUuid(destination: pg.Client, config: PostgresDestinationConfig, table: string, stage: string, names: readonly string[]): Promise<void> {
  await destination.query('select pg_catalog.pg_advisory_xact_lock($1, $2)', lockKeyOf('merge', config.schema, config.tableName));
  // The stage's statistics let the planner pick a hash join against the target (which has no index to use).
  await destination.query(`analyze ${stage}`);
  const updates = names.filter((name) => name !== '"uuid"').map((name) => `${name} = staged.${name}`);
  if (updates.length > 0) {
    await destination.query(`update ${table} as final set ${updates.join(', ')} from ${stage} as staged where final."uuid" = staged."uuid"`);
  }
  await destination.query(
    `insert into ${table} (${names.join(', ')}) select ${names.map((name) => `staged.${name}`).join(', ')} from ${stage} as staged
      where not exists (select from ${table} as final where final."uuid" = staged."uuid")`,
  );
}

/**
 * Whether the run can keep its marker in the schema: the marker table is there (made by an earlier run, or by
 * its owner for a role that may not create it) and the role may read, insert and update it, or the role may
 * create it, which is done now. A marker table the role may not use is left alone: the run merges by key then.
 */
async function markerTableAvailable(destination: pg.Client, schema: string, runs: string): Promise<boolean> {
  if (await relationExists(destination, schema, RUNS_TABLE)) {
    const { rows } = await destination.query<{ usable: boolean }>(
      `select pg_catalog.has_table_privilege($1, 'SELECT') and pg_catalog.has_table_privilege($1, 'INSERT')
              and pg_catalog.has_table_privilege($1, 'UPDATE') as usable`,
      [runs],
    );
    if (!rows[0]?.usable) return false;
  } else {
    const { rows } = await destination.query<{ may_create: boolean }>("select pg_catalog.has_schema_privilege($1, 'CREATE') as may_create", [schema]);
    if (!rows[0]?.may_create) return false;
    await createIfMissing(
      destination,
      schema,
      RUNS_TABLE,
      `create table ${runs} (
         batch_export_id uuid not null, data_interval_end timestamptz not null, table_name text not null,
         records_completed bigint, bytes_exported bigint, loaded_at timestamptz not null default now(), generation text,
         primary key (batch_export_id, data_interval_end))`,
    );
  }
  return addGenerationColumn(destination, runs);
}

/**
 * A marker table made before markers had a generation gets the column; its old markers (null) match no run, so
 * running such an interval again replaces its rows, which is right for a re-run and harmless for a retry.
 * Looked up first: ALTER TABLE would take a lock that waits for every run loading at the moment. A role that
 * does not own such a table cannot add the column, and the table is not used.
 */
async function addGenerationColumn(destination: pg.Client, runs: string): Promise<boolean> {
  const { fields } = await destination.query(`select * from ${runs} where false`);
  if (fields.some((field) => field.name === 'generation')) return true;
  try {
    await destination.query(`alter table ${runs} add column if not exists generation text`);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === '42501') return false;
    throw error;
  }
}

/** Whether the schema holds a table (or view) of that exact name, looked up in the catalog. */
async function relationExists(destination: pg.Client, schema: string, name: string): Promise<boolean> {
  const { rows } = await destination.query(
    `select from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = $1 and c.relname = $2`,
    [schema, name],
  );
  return rows.length > 0;
}

/**
 * Creates a table unless the catalog has it. PostgreSQL's CREATE TABLE IF NOT EXISTS fails when another session
 * creates the same table at that moment (a duplicate row type), so creators of one name take turns under an
 * advisory lock, each looking again once it holds it. Nothing is created, and no privilege on the schema needed,
 * when the table is there.
 */
async function createIfMissing(destination: pg.Client, schema: string, name: string, statement: string): Promise<void> {
  if (await relationExists(destination, schema, name)) return;
  await destination.query('begin');
  try {
    await destination.query('select pg_catalog.pg_advisory_xact_lock($1, $2)', lockKeyOf('create', schema, name));
    if (!(await relationExists(destination, schema, name))) await destination.query(statement);
    await destination.query('commit');
  } catch (error) {
    await destination.query('rollback').catch(() => undefined);
    // A creator that took no lock (another tool, an older Hedgerow) got there first: the table is there.
    const code = (error as { code?: unknown }).code;
    if ((code === '42P07' || code === '42710' || code === '23505') && (await relationExists(destination, schema, name))) return;
    throw error;
  }
}

/** The two keys of an advisory lock on a purpose and a table of the destination, the same in every process. */
function lockKeyOf(purpose: 'create' | 'merge', schema: string, name: string): [number, number] {
  const digest = createHash('sha256').update(`hedgerow ${purpose}\0${schema}\0${name}`).digest();
  return [digest.readInt32BE(0), digest.readInt32BE(4)];
}

/** The upsert's key must be the table's primary key (or a unique constraint) for ON CONFLICT to find rows. */
async function checkPrimaryKey(destination: pg.Client, config: PostgresDestinationConfig, key: readonly string[]): Promise<void> {
  const { rows } = await destination.query<{ columns: string[] }>(
    `select array_agg(a.attname::text order by a.attname) as columns
       from pg_index i
       join pg_class c on c.oid = i.indrelid
       join pg_namespace n on n.oid = c.relnamespace
       join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
      where n.nspname = $1 and c.relname = $2 and i.indisunique and i.indpred is null
      group by i.indexrelid`,
    [config.schema, config.tableName],
  );
  const wanted = [...key].sort().join(',');
  if (!rows.some((row) => [...row.columns].sort().join(',') === wanted)) {
    throw new PostgresDestinationError(
      `The table ${config.schema}.${config.tableName} has no primary key on (${key.join(', ')}), which merging the rows needs.`,
    );
  }
}

/** The destination columns written, each with its expression over the record `r`: only those the table has. */
function outputColumns(request: LoadRequest, existing: ReadonlySet<string>): Array<readonly [string, string]> {
  const recordColumns = new Set(request.records.columns);
  const candidates =
    request.model === 'events' && request.defaultEventColumns
      ? EVENTS_TABLE_COLUMNS.map(([name]) => name)
      : request.records.columns.filter((column) => column !== '_inserted_at' || request.model === 'events');
  const columns: Array<readonly [string, string]> = [];
  for (const name of candidates) {
    if (!existing.has(name)) continue;
    const derived = request.model === 'events' && request.defaultEventColumns ? DERIVED_EVENT_COLUMNS[name] : undefined;
    if (derived) columns.push([name, derived]);
    else if (recordColumns.has(name)) columns.push([name, `r.${quoteIdentifier(name)}`]);
  }
  return columns;
}

/** Streams the records from Hedgerow's database into `target` with COPY on both ends. */
async function copyRecords(
  db: Db,
  destination: pg.Client,
  request: LoadRequest,
  target: string,
  columns: ReadonlyArray<readonly [string, string]>,
): Promise<{ rows: number; bytes: number }> {
  // A session of its own, without the API's statement deadlines: a run's COPY may take long.
  const source = new pg.Client({ connectionString: connectionStringOf(db), application_name: EXPORT_READER_NAME });
  await source.connect();
  try {
    const select = `select ${columns.map(([name, expression]) => `${expression} as ${quoteIdentifier(name)}`).join(', ')}
      from (${inlineRecordsQuery(db, request.records, source)}) r`;
    const reading = source.query(copyTo(`copy (${select}) to stdout`));
    const counter = new ByteCounter();
    const writing = destination.query(copyFrom(`copy ${target} (${columns.map(([name]) => quoteIdentifier(name)).join(', ')}) from stdin`));
    await pipeline(reading, counter, writing, { signal: request.signal });
    return { rows: writing.rowCount ?? 0, bytes: counter.bytes };
  } finally {
    await source.end().catch(() => undefined);
  }
}
