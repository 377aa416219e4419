/**
 * `npm run bench -- exports [--events 1000000] [--rounds 1] [--workers N] [--keep] [--database <name>]`
 *
 * Batch exports of one day of `--events` generated events (scripts/generate-events.ts, all in the UTC day before
 * END, so that one backfill window of a daily export covers them), measured side by side in one run against
 * floors that do the same work by hand in this process:
 *   Postgres floor: `COPY (the columns of PostHog's Postgres events table) TO STDOUT` on Hedgerow's database
 *     piped into `COPY … FROM STDIN` on a destination database, through `pg` and pg-copy-streams;
 *   S3 floor: the same rows as PostHog's S3 files hold them, read as JSON text with one COPY, gzip'd and put to
 *     the same S3 server (s3rver, in this process) as one object;
 *   Hedgerow: the server built and started as `npm start` does, asked through its HTTP API to create a daily
 *     export (Postgres to the same destination database; S3Compatible, gzip'd JSONLines, to the same s3rver) and
 *     to backfill that day; timed from the backfill request to the run's `finished_at`, while the resident memory
 *     of the server's processes (the supervisor, its workers and the job engine's process) is sampled every 100 ms.
 * Rounds interleave floor and Hedgerow (a new export and a new S3 prefix each round, the destination tables
 * emptied), so that the machine's drift affects both alike. Every round checks what landed: the run's
 * records_completed, the destination's row count, the object's line count.
 *
 * Targets: each destination at least 0.50× its floor's rows/s; the server's resident memory under 250 MB while
 * exporting.
 */
import { readdir, readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { bootstrap } from '../../db/queries/bootstrap.js';
import { createPersonalApiKey } from '../../db/queries/personal-api-keys.js';
import type { EnvironmentRow } from '../../db/rows.js';
import { destinationRoleUrl, handToDestinationRole } from '../../test/helpers/destination-role.js';
import { startTestS3, S3RVER_CREDENTIALS, type TestS3 } from '../../test/helpers/s3.js';
import { privateBuild } from '../build.js';
import { generateEvents } from '../generate-events.js';
import { postgres, startHedgerow, stop, type Child } from './capture.js';

/** The end of the exported day: a fixed past UTC midnight, so that a kept database is exported the same way. */
const END = new Date('2026-11-01T00:00:00Z');
const START = new Date(END.getTime() - 86_400_000);
const RATIO_TARGET = 0.5;
const RSS_TARGET_MB = 250;
const SAMPLE_MS = 100;
const POLL_MS = 200;
/** A run that has not finished by then is reported as stuck rather than waited on for ever. */
const RUN_TIMEOUT_MS = 60 * 60_000;
const BUCKET = 'exports';

interface Options {
  events: number;
  rounds: number;
  /** HEDGEROW_WORKERS; 0: unset, as `npm start` runs by default. */
  workers: number;
  keep: boolean;
  database: string | null;
}

function parseOptions(args: string[]): Options {
  const options: Options = { events: 1_000_000, rounds: 1, workers: 0, keep: false, database: null };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--keep') options.keep = true;
    else if (arg === '--database') options.database = args[++index] ?? null;
    else if (['--events', '--rounds', '--workers'].includes(arg)) {
      const value = Number(args[++index]);
      if (!Number.isSafeInteger(value) || value < (arg === '--workers' ? 0 : 1)) throw new Error(`bad value for ${arg}`);
      options[arg.slice(2) as 'events' | 'rounds' | 'workers'] = value;
    } else throw new Error(`unknown option ${arg}`);
  }
  if (options.database !== null && !/^[a-z0-9_]+$/.test(options.database)) throw new Error('--database must be a plain name');
  return options;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

const seconds = (ms: number) => ms / 1000;

// ---------------------------------------------------------------------------------------------------------
// Resident memory of the server's process tree

/** The process and every descendant, found through each thread's children (/proc/<pid>/task/<tid>/children). */
async function processTree(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const children = new Set<number>();
  for (const task of tasks) {
    const text = await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '');
    for (const child of text.split(' ').filter(Boolean)) children.add(Number(child));
  }
  const below = await Promise.all([...children].map((child) => processTree(child)));
  return [pid, ...below.flat()];
}

async function residentMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

interface MemoryPeaks {
  /** The largest sum over the tree at one sample. */
  total: number;
  /** The largest single process at any sample. */
  largest: number;
  /** The job engine's process (jobs-process.js) at its largest. */
  engine: number;
}

/** Samples the tree under `pid` every SAMPLE_MS until stopped; answers the peaks seen. */
function sampleMemory(pid: number): { stop(): Promise<MemoryPeaks> } {
  const peaks: MemoryPeaks = { total: 0, largest: 0, engine: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      const pids = await processTree(pid);
      const sizes = await Promise.all(pids.map(residentMb));
      peaks.total = Math.max(peaks.total, sizes.reduce((sum, size) => sum + size, 0));
      peaks.largest = Math.max(peaks.largest, ...sizes);
      const commands = await Promise.all(pids.map((one) => readFile(`/proc/${one}/cmdline`, 'utf8').catch(() => '')));
      const engineIndex = commands.findIndex((command) => command.includes('jobs-process.js'));
      if (engineIndex >= 0) peaks.engine = Math.max(peaks.engine, sizes[engineIndex] ?? 0);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peaks;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Floors

/** PostHog's Postgres events table (no primary key), as the Postgres destination creates it. */
const POSTGRES_TABLE_DDL = `(uuid varchar(200), event varchar(200), properties jsonb, elements jsonb, "set" jsonb,
  set_once jsonb, distinct_id varchar(200), team_id integer, ip varchar(200), site_url varchar(200),
  "timestamp" timestamp with time zone)`;
const POSTGRES_TABLE_COLUMNS = 'uuid, event, properties, elements, "set", set_once, distinct_id, team_id, ip, site_url, "timestamp"';

function windowCondition(teamId: number): string {
  return `e.team_id = ${teamId} and e."timestamp" >= '${START.toISOString()}' and e."timestamp" < '${END.toISOString()}'`;
}

/** What the Postgres destination writes for each event of the window, in the table's column order. */
function postgresFloorSelect(teamId: number): string {
  return `select e.uuid::text, e.event, e.properties, to_jsonb(e.elements_chain), e.properties -> '$set',
      e.properties -> '$set_once', e.distinct_id, e.team_id, nullif(e.properties ->> '$ip', ''), null::text, e."timestamp"
    from events e where ${windowCondition(teamId)}`;
}

/**
 * One JSON object per event with the columns of PostHog's S3 files (those of S3_EVENT_COLUMNS in
 * handlers/jobs/destinations/s3.ts), the person's properties as stored on each event at capture, as the records
 * source reads them.
 */
function s3FloorSelect(teamId: number): string {
  return `select json_build_object('uuid', e.uuid::text, 'timestamp', e."timestamp", '_inserted_at', e.inserted_at,
      'created_at', e.inserted_at, 'event', e.event, 'properties', e.properties, 'distinct_id', e.distinct_id,
      'elements_chain', e.elements_chain, 'person_properties', e.person_properties, 'person_id', e.person_id::text)::text
    from events e
    where ${windowCondition(teamId)}`;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function countRows(url: string, table: string): Promise<number> {
  return withClient(url, async (client) => Number((await client.query<{ count: string }>(`select count(*) from ${table}`)).rows[0]!.count));
}

/** COPY TO STDOUT on the source piped into COPY FROM STDIN on the destination; answers the milliseconds. */
async function postgresFloor(sourceUrl: string, destinationUrl: string, teamId: number): Promise<number> {
  const source = new pg.Client({ connectionString: sourceUrl });
  const destination = new pg.Client({ connectionString: destinationUrl });
  await Promise.all([source.connect(), destination.connect()]);
  try {
    const started = performance.now();
    await pipeline(
      source.query(copyTo(`copy (${postgresFloorSelect(teamId)}) to stdout`)),
      destination.query(copyFrom(`copy floor_events (${POSTGRES_TABLE_COLUMNS}) from stdin`)),
    );
    return performance.now() - started;
  } finally {
    await Promise.all([source.end(), destination.end()]);
  }
}

/**
 * The JSON lines read with one COPY (CSV with a quote and a delimiter that JSON text never holds raw, so that
 * each line comes out as PostgreSQL wrote it), gzip'd into memory and put as one object; answers the
 * milliseconds.
 */
async function s3Floor(sourceUrl: string, s3: TestS3, key: string, teamId: number): Promise<number> {
  const source = new pg.Client({ connectionString: sourceUrl });
  await source.connect();
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_CREDENTIALS.aws_access_key_id, secretAccessKey: S3RVER_CREDENTIALS.aws_secret_access_key },
  });
  try {
    const started = performance.now();
    const chunks: Buffer[] = [];
    await pipeline(
      source.query(copyTo(`copy (${s3FloorSelect(teamId)}) to stdout with (format csv, quote e'\\x01', delimiter e'\\x02')`)),
      createGzip(),
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
      }),
    );
    const body = Buffer.concat(chunks);
    await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ContentLength: body.length }));
    return performance.now() - started;
  } finally {
    client.destroy();
    await source.end();
  }
}

/** Lines of every gzip'd JSONLines object under `prefix`. */
async function objectLines(s3: TestS3, prefix: string): Promise<number> {
  let lines = 0;
  for (const key of await s3.keys(prefix)) {
    if (!key.endsWith('.jsonl.gz')) continue;
    const text = gunzipSync(await s3.object(key));
    for (let at = text.indexOf(10); at !== -1; at = text.indexOf(10, at + 1)) lines += 1;
  }
  return lines;
}

// ---------------------------------------------------------------------------------------------------------
// Hedgerow, through its HTTP API

interface Api {
  base: string;
  teamId: number;
  key: string;
}

async function call<T>(api: Api, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${api.base}/api/environments/${api.teamId}/batch_exports/${path}`, {
    method,
    headers: { authorization: `Bearer ${api.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

interface RunBody {
  status: string;
  records_completed: number | null;
  latest_error: string | null;
  finished_at: string | null;
}

interface HedgerowRound {
  ms: number;
  recordsCompleted: number;
  memory: MemoryPeaks;
}

/**
 * Creates a daily export to `destination`, backfills the day and waits for its run; the time is from the backfill
 * request to the run's finished_at (the server's clock, the same machine's).
 */
async function hedgerowExport(api: Api, serverPid: number, name: string, destination: { type: string; config: Record<string, unknown> }): Promise<HedgerowRound> {
  const created = await call<{ id: string }>(api, 'POST', '', { name, model: 'events', interval: 'day', destination });
  const memory = sampleMemory(serverPid);
  let finished: { ms: number; recordsCompleted: number };
  let peaks: MemoryPeaks;
  try {
    const requested = Date.now();
    await call(api, 'POST', `${created.id}/backfills/`, { start_at: START.toISOString(), end_at: END.toISOString() });
    for (;;) {
      const page = await call<{ results: RunBody[] }>(api, 'GET', `${created.id}/runs/`);
      const run = page.results[0];
      if (run?.status === 'Completed') {
        finished = { ms: Date.parse(run.finished_at!) - requested, recordsCompleted: run.records_completed ?? 0 };
        break;
      }
      // FailedRetryable is not final: the engine runs the interval again.
      if (run && ['Failed', 'Cancelled', 'TimedOut', 'Terminated'].includes(run.status)) {
        throw new Error(`the ${destination.type} run ended ${run.status}: ${run.latest_error}`);
      }
      if (Date.now() - requested > RUN_TIMEOUT_MS) throw new Error(`the ${destination.type} run did not finish: ${JSON.stringify(run)}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    peaks = await memory.stop();
  }
  return { ...finished, memory: peaks };
}

// ---------------------------------------------------------------------------------------------------------

interface Round {
  postgresFloor: number;
  postgresHedgerow: HedgerowRound | null;
  s3Floor: number;
  s3Hedgerow: HedgerowRound | null;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const format = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a';

function expectCount(what: string, actual: number, expected: number): void {
  if (actual !== expected) throw new Error(`${what}: ${actual}, expected ${expected}`);
}

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const name = options.database ?? (await postgres.createDatabase('hedgerow_bench_exports'));
  const url = postgres.databaseUrl(name);
  const destinationName = await postgres.createDatabase('hedgerow_bench_destination');
  // Hedgerow refuses a superuser of its own cluster as a destination: the benchmark's signs in as an ordinary role.
  await handToDestinationRole(postgres.databaseUrl('postgres'), destinationName);
  const destinationUrl = destinationRoleUrl(postgres.databaseUrl(destinationName));
  const db: Db = createDb(url, { poolMax: 2 });
  let s3: TestS3 | null = null;
  let server: Child | null = null;
  let removeBuild = (): void => undefined;
  try {
    await migrateLatest(db);
    let environment = (await db('environments').orderBy('id').first()) as EnvironmentRow | undefined;
    let key: string;
    if (!environment) {
      const first = await bootstrap(db, { email: 'bench@hedgerow.local', organizationName: 'Bench', projectName: 'Bench' });
      key = first.personal_api_key;
      environment = (await db('environments').where({ id: first.project_id }).first()) as EnvironmentRow;
    } else {
      const user = (await db('users').orderBy('id').first()) as { id: number };
      key = (await createPersonalApiKey(db, { userId: user.id, label: 'bench', scopes: ['*'] })).key;
    }
    const teamId = environment.id;
    const inWindow = async () =>
      Number(
        ((await db('events').where({ team_id: teamId }).andWhere('timestamp', '>=', START).andWhere('timestamp', '<', END).count('* as count')) as [{ count: string }])[0].count,
      );
    if ((await inWindow()) === 0) {
      log(`generating ${options.events} events of ${START.toISOString()}…${END.toISOString()} into ${name}…`);
      await generateEvents({ databaseUrl: url, teamId, events: options.events, persons: 100_000, days: 1, end: END, seed: 1, log });
    } else log(`reusing ${name}`);
    const events = await inWindow();
    // Untimed: bring the window's rows into memory, so that the first measurement does not pay for a cold cache.
    await db.raw(`select count(*) from events e where ${windowCondition(teamId)} and e.properties is not null`);

    await withClient(destinationUrl, (client) => client.query(`create table floor_events ${POSTGRES_TABLE_DDL}`));
    s3 = await startTestS3(BUCKET);
    const build = await privateBuild('bench');
    removeBuild = build.remove;
    server = await startHedgerow(build, url, options.workers > 0 ? { HEDGEROW_WORKERS: String(options.workers) } : {});
    const serverPid = server.process.pid!;
    const api: Api = { base: `http://127.0.0.1:${server.port}`, teamId, key };
    const idle = sampleMemory(serverPid);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleMemory = await idle.stop();

    const destination = new URL(destinationUrl);
    const postgresDestination = (round: number) => ({
      type: 'Postgres',
      config: {
        host: destination.hostname,
        port: Number(destination.port || 5432),
        user: decodeURIComponent(destination.username),
        // The local server trusts its connections; the API wants a password all the same.
        password: decodeURIComponent(destination.password) || 'unused',
        database: destinationName,
        schema: 'public',
        table_name: `hedgerow_events_${round}`,
      },
    });
    const s3Destination = (round: number) => ({
      type: 'S3Compatible',
      config: s3!.config({ prefix: `hedgerow/${round}/`, compression: 'gzip', file_format: 'JSONLines' }),
    });

    const rounds: Round[] = [];
    for (let round = 1; round <= options.rounds; round += 1) {
      log(`round ${round}: Postgres floor…`);
      await withClient(destinationUrl, (client) => client.query('truncate floor_events'));
      const postgresFloorMs = await postgresFloor(url, destinationUrl, teamId);
      expectCount('rows the Postgres floor wrote', await countRows(destinationUrl, 'floor_events'), events);

      log(`round ${round}: Hedgerow to Postgres…`);
      const postgresHedgerow = await hedgerowExport(api, serverPid, `bench postgres ${round}`, postgresDestination(round));
      expectCount('the Postgres run’s records_completed', postgresHedgerow.recordsCompleted, events);
      expectCount('rows the Postgres run wrote', await countRows(destinationUrl, `hedgerow_events_${round}`), events);
      await withClient(destinationUrl, (client) => client.query(`drop table hedgerow_events_${round}`));

      log(`round ${round}: S3 floor…`);
      const s3FloorMs = await s3Floor(url, s3, `floor/${round}/events.jsonl.gz`, teamId);
      expectCount('lines of the S3 floor’s object', await objectLines(s3, `floor/${round}/`), events);

      log(`round ${round}: Hedgerow to S3…`);
      const s3Hedgerow = await hedgerowExport(api, serverPid, `bench s3 ${round}`, s3Destination(round));
      expectCount('the S3 run’s records_completed', s3Hedgerow.recordsCompleted, events);
      expectCount('lines of the S3 run’s objects', await objectLines(s3, `hedgerow/${round}/`), events);

      rounds.push({ postgresFloor: postgresFloorMs, postgresHedgerow, s3Floor: s3FloorMs, s3Hedgerow });
    }
    printTable(options, events, idleMemory, rounds);
  } finally {
    if (server) await stop(server);
    removeBuild();
    await s3?.close();
    await db.destroy();
    await postgres.dropDatabase(destinationName);
    if (options.keep || options.database) log(`kept database ${name} (reuse with --database ${name}; drop it when done)`);
    else await postgres.dropDatabase(name);
  }
}

function printTable(options: Options, events: number, idle: MemoryPeaks, rounds: Round[]): void {
  const perSecond = (ms: number) => events / seconds(ms);
  const header = ['destination', 'floor rows/s', 'Hedgerow rows/s', 'Hedgerow ÷ floor', 'rounds', `target ≥ ${RATIO_TARGET.toFixed(2)}`];
  const rows: string[][] = [];
  for (const [label, floorOf, hedgerowOf] of [
    ['Postgres', (round: Round) => round.postgresFloor, (round: Round) => round.postgresHedgerow!] as const,
    ['S3, gzip JSONLines', (round: Round) => round.s3Floor, (round: Round) => round.s3Hedgerow!] as const,
  ]) {
    const ratios = rounds.map((round) => perSecond(hedgerowOf(round).ms) / perSecond(floorOf(round)));
    const ratio = median(ratios);
    rows.push([
      label,
      format(median(rounds.map((round) => perSecond(floorOf(round))))),
      format(median(rounds.map((round) => perSecond(hedgerowOf(round).ms)))),
      format(ratio, 2),
      ratios.map((value) => format(value, 2)).join(', '),
      ratio >= RATIO_TARGET ? 'met' : 'MISSED',
    ]);
  }
  const peakTotal = Math.max(...rounds.flatMap((round) => [round.postgresHedgerow!.memory.total, round.s3Hedgerow!.memory.total]));
  const peakLargest = Math.max(...rounds.flatMap((round) => [round.postgresHedgerow!.memory.largest, round.s3Hedgerow!.memory.largest]));
  rows.push(['server RSS, all processes, MB', `idle ${format(idle.total)}`, `peak ${format(peakTotal)}`, '', '', `< ${RSS_TARGET_MB}: ${peakTotal < RSS_TARGET_MB ? 'met' : 'MISSED'}`]);
  rows.push(['server RSS, largest process, MB', `idle ${format(idle.largest)}`, `peak ${format(peakLargest)}`, '', '', '']);
  for (const [label, of] of [
    ['Postgres', (round: Round) => round.postgresHedgerow!.memory] as const,
    ['S3', (round: Round) => round.s3Hedgerow!.memory] as const,
  ]) {
    const total = Math.max(...rounds.map((round) => of(round).total));
    const engine = Math.max(...rounds.map((round) => of(round).engine));
    rows.push([`… during the ${label} runs: all / job engine process, MB`, `idle ${format(idle.total)} / ${format(idle.engine)}`, `peak ${format(total)} / ${format(engine)}`, '', '', '']);
  }
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
  process.stdout.write(
    [
      `Batch exports of ${format(events)} events (one day, one backfill window), ${rounds.length} interleaved round(s), ` +
        `workers: ${options.workers > 0 ? options.workers : 'default'}; Hedgerow timed from the backfill request to the run's finished_at.`,
      line(header),
      line(widths.map((width) => '-'.repeat(width))),
      ...rows.map(line),
      '',
    ].join('\n'),
  );
}
