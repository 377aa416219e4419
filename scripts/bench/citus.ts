/**
 * `npm run bench -- citus [--events 1000000] [--rounds 3] [--duration 8] [--warmup 2] [--batch-connections 8]
 *  [--workers N] [--keep] [--databases <cluster database>,<single database>]`
 *
 * Hedgerow on a Citus cluster beside Hedgerow on one PostgreSQL node, the same data on each. The cluster is a
 * local coordinator and two workers (scripts/citus.ts `up`) in `.hedgerow-citus-bench/`, stopped at the end
 * unless `--keep`; the single node is the local PostgreSQL (`HEDGEROW_BENCH_ADMIN_URL`). Each side gets a fresh
 * database, migrated (which shards the tenant tables on the cluster), and the same generated events
 * (scripts/generate-events.ts, COPY): half of `--events` in the measured environment, the rest spread over as
 * many other environments as it takes for every shard of `events` to hold one. Measured side by side, in
 * interleaved rounds (the side that goes first alternates):
 *   1. capture's `POST /batch/` (100 events a request, `--batch-connections` connections, as the capture
 *      benchmark loads it) on a Hedgerow server process per side, built and started as `npm start` does;
 *   2. the query benchmark's three HogQL queries through runHogQLQuery() in this process, on the measured
 *      environment (the same rows on both sides, checked before timing);
 *   3. an operator's aggregate over every environment, by hand through `pg`:
 *      `select team_id, count(*) from events group by team_id`.
 * Prints medians per side and the ratio cluster ÷ single node (of times; capture's as time per event), against
 * the target of at most 1.5 for capture and the queries; the operator's aggregate has none.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb, createReadDb, type Db, type ReadDb } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { createProject } from '../../db/queries/projects.js';
import { runHogQLQuery } from '../../db/queries/query/hogql-query.js';
import type { EnvironmentRow } from '../../db/rows.js';
import { postgresServer, type PostgresServer } from '../../test/helpers/postgres.js';
import { privateBuild } from '../build.js';
import { down, up } from '../citus.js';
import { generateEnvironments, type GeneratedEnvironment } from '../generate-events.js';
import { benchEnvironment } from './_environment.js';
import { timed } from './_processes.js';
import {
  BATCH_EVENTS,
  batchJson,
  batchScript,
  format,
  hasWrk,
  load,
  median,
  postgres as singleNode,
  startHedgerow,
  stop,
  type Child,
  type Target,
} from './capture.js';
import { BASE_CASES, BOUNDS, DAYS, PERSONS, TIMEOUT_MS, WINDOW_DAYS, type Case } from './query.js';

const CLUSTER_DIR = fileURLToPath(new URL('../../.hedgerow-citus-bench/', import.meta.url));
/**
 * The newest generated event's time: before the capture benchmark's events (2026-11-21), so that what capture
 * adds during the rounds falls outside the queries' window and every round queries the same rows.
 */
const END = new Date('2026-11-01T00:00:00.000Z');
/** At most this many environments are made while looking for one on every shard. */
const MAX_ENVIRONMENTS = 64;
const OPERATOR_AGGREGATE = 'select team_id, count(*) as events from events group by team_id order by team_id';

interface Options {
  events: number;
  rounds: number;
  duration: number;
  warmup: number;
  batchConnections: number;
  /** HEDGEROW_WORKERS; 0: unset (one per CPU). */
  workers: number;
  keep: boolean;
  databases: [string, string] | null;
}

function parseOptions(args: string[]): Options {
  const options: Options = { events: 1_000_000, rounds: 3, duration: 8, warmup: 2, batchConnections: 8, workers: 0, keep: false, databases: null };
  const numbers = ['events', 'rounds', 'duration', 'warmup', 'batchConnections', 'workers'] as const;
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    const key = arg.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    if (arg === '--keep') options.keep = true;
    else if (arg === '--databases') {
      const names = (args[++index] ?? '').split(',');
      if (names.length !== 2 || !names.every((name) => /^[a-z0-9_]+$/.test(name))) throw new Error('--databases takes two plain names: cluster,single');
      options.databases = [names[0]!, names[1]!];
    } else if ((numbers as readonly string[]).includes(key)) {
      const value = Number(args[++index]);
      if (!Number.isSafeInteger(value) || value < 0) throw new Error(`bad value for ${arg}`);
      options[key as (typeof numbers)[number]] = value;
    } else throw new Error(`unknown option ${arg}`);
  }
  if (options.rounds < 1 || options.duration < 1 || options.events < 2) throw new Error('--rounds, --duration and --events must be positive');
  return options;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** One side of the comparison: its database, its sessions, its server and the measured environment. */
interface Side {
  name: 'cluster' | 'single node';
  server: PostgresServer;
  database: string;
  db: Db;
  reader: ReadDb;
  hand: pg.Client;
  environment: EnvironmentRow;
  environments: number;
  hedgerow: Child | null;
  batch: Target | null;
}

/** Makes (or reuses) the side's database, migrated, with its measured environment; `opened` gets it before any step can fail. */
async function openSide(opened: Side[], name: Side['name'], server: PostgresServer, existing: string | null): Promise<Side> {
  const database = existing ?? (await server.createDatabase('hedgerow_bench_citus'));
  const url = server.databaseUrl(database);
  const db = createDb(url, { poolMax: 2 });
  const hand = new pg.Client({ connectionString: url });
  // A connection PostgreSQL drops fails the query in flight; without a listener the client's error event would
  // end this process before the servers and the cluster it started are stopped.
  hand.on('error', (error) => log(`${name}: the hand-written connection failed: ${error.message}`));
  const side: Side = {
    name,
    server,
    database,
    db,
    reader: createReadDb(db, TIMEOUT_MS, { poolMax: 1 }),
    hand,
    environment: null as unknown as EnvironmentRow,
    environments: 0,
    hedgerow: null,
    batch: null,
  };
  opened.push(side);
  await migrateLatest(db);
  await hand.connect();
  side.environment = (await benchEnvironment(db)).environment;
  return side;
}

async function closeSide(side: Side, keep: boolean): Promise<void> {
  if (side.hedgerow) await stop(side.hedgerow).catch(() => undefined);
  await side.hand.end().catch(() => undefined);
  await side.reader.destroy();
  await side.db.destroy();
  if (keep) log(`kept ${side.name} database ${side.database}`);
  else await side.server.dropDatabase(side.database);
}

/** Environment ids of the database, oldest first (the measured one is the first). */
async function environmentIds(side: Side): Promise<number[]> {
  const { rows } = await side.hand.query<{ id: number }>('select id from environments order by id');
  return rows.map((row) => row.id);
}

/**
 * Makes environments on the cluster until every shard of `events` has one, then as many on the single node,
 * so that both hold the same environments (their ids come from the same sequence on fresh databases).
 */
async function makeEnvironments(cluster: Side, single: Side): Promise<void> {
  const { rows } = await cluster.hand.query<{ shards: string }>(`select count(*) as shards from pg_dist_shard where logicalrelid = 'events'::regclass`);
  const shards = Number(rows[0]!.shards);
  const covered = new Set<string>();
  for (let count = 1; ; count += 1) {
    const ids = await environmentIds(cluster);
    for (const id of ids) {
      const { rows: shard } = await cluster.hand.query<{ id: string }>(`select get_shard_id_for_distribution_column('events', $1::int) as id`, [id]);
      covered.add(shard[0]!.id);
    }
    // Two at least: the measured environment and another, so that the operator's aggregate spans environments.
    if ((covered.size === shards && ids.length >= 2) || ids.length >= MAX_ENVIRONMENTS) break;
    await createProject(cluster.db, cluster.environment.organization_id, `bench ${count}`);
  }
  const wanted = (await environmentIds(cluster)).length;
  while ((await environmentIds(single)).length < wanted) {
    await createProject(single.db, single.environment.organization_id, `bench ${(await environmentIds(single)).length}`);
  }
  const [clusterIds, singleIds] = [await environmentIds(cluster), await environmentIds(single)];
  if (JSON.stringify(clusterIds) !== JSON.stringify(singleIds)) {
    throw new Error(`the two sides' environments differ: ${clusterIds.join(',')} and ${singleIds.join(',')}`);
  }
  log(`${wanted} environments, ${covered.size} of the cluster's ${shards} shards of events holding one`);
}

/** Half the events for the measured environment; the rest spread evenly over the others. */
function generatedEnvironments(ids: number[], events: number): GeneratedEnvironment[] {
  const measured = Math.ceil(events / 2);
  const others = ids.length - 1;
  return ids.map((teamId, index) => {
    const count = index === 0 ? measured : Math.floor((events - measured) / others) + (index <= (events - measured) % others ? 1 : 0);
    return { teamId, events: count, persons: index === 0 ? PERSONS : Math.max(1_000, Math.round(count / 10)), seed: index + 1 };
  });
}

async function loadEvents(side: Side, total: number): Promise<void> {
  const { rows } = await side.hand.query<{ count: string }>('select count(*) from events');
  if (Number(rows[0]!.count) > 0) {
    log(`${side.name}: reusing ${side.database}, ${Number(rows[0]!.count).toLocaleString('en')} events`);
    return;
  }
  const ids = await environmentIds(side);
  const started = Date.now();
  log(`${side.name}: generating ${total.toLocaleString('en')} events over ${ids.length} environments into ${side.database}…`);
  await generateEnvironments({
    databaseUrl: side.server.databaseUrl(side.database),
    environments: generatedEnvironments(ids, total),
    days: DAYS,
    end: END,
    log: (line) => log(`${side.name}: ${line}`),
  });
  log(`${side.name}: loaded in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

interface Measurement {
  name: string;
  /** One figure per round and side: milliseconds (capture: microseconds per event). */
  cluster: number[];
  single: number[];
  unit: 'ms' | 'µs/event';
  target: number | null;
}

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const sides: Side[] = [];
  let build: Awaited<ReturnType<typeof privateBuild>> | null = null;
  const scratch = await mkdtemp(join(tmpdir(), 'hedgerow-bench-citus-'));
  log(`citus benchmark: starting the cluster in ${path.relative(process.cwd(), CLUSTER_DIR) || CLUSTER_DIR}…`);
  const cluster = await up(CLUSTER_DIR);
  try {
    const onCluster = await openSide(sides, 'cluster', postgresServer(cluster.adminUrl), options.databases?.[0] ?? null);
    const onSingle = await openSide(sides, 'single node', singleNode, options.databases?.[1] ?? null);
    await makeEnvironments(onCluster, onSingle);
    for (const side of sides) {
      await loadEvents(side, options.events);
      side.environments = (await environmentIds(side)).length;
    }

    // The window: the 30 whole UTC days before the newest generated event's day, the same on both sides.
    const { rows: bounds } = await onSingle.hand.query<{ start: Date; end: Date; total: string }>(
      `select date_trunc('day', max(timestamp), 'UTC') - interval '${WINDOW_DAYS} days' as start,
          date_trunc('day', max(timestamp), 'UTC') as end, count(*) as total
        from events where team_id = $1 and timestamp <= $2`,
      [onSingle.environment.id, END],
    );
    const window = { start: bounds[0]!.start.toISOString(), end: bounds[0]!.end.toISOString() };
    const query = (side: Side, item: Case) => runHogQLQuery(side.reader, side.environment, { query: item.hogql, values: window }, BOUNDS);
    const aggregate = (side: Side) => side.hand.query(OPERATOR_AGGREGATE);

    // Both sides must answer alike before anything is timed (which also warms their caches).
    for (const item of BASE_CASES) {
      const [a, b] = await Promise.all(sides.map(async (side) => JSON.stringify((await query(side, item)).results)));
      if (a !== b) throw new Error(`${item.name}: the cluster and the single node disagree:\n${a}\n${b}`);
      if (a === '[]') throw new Error(`${item.name}: no rows`);
    }
    // Over the generated events only: a kept database also holds what capture stored in earlier runs.
    const generated = (side: Side) => side.hand.query(`select team_id, count(*) as events from events where timestamp <= $1 group by team_id order by team_id`, [END]);
    const [clusterCounts, singleCounts] = await Promise.all(sides.map(async (side) => JSON.stringify((await generated(side)).rows)));
    const generatedEvents = (JSON.parse(singleCounts!) as { events: string }[]).reduce((sum, row) => sum + Number(row.events), 0);
    for (const side of sides) await aggregate(side);
    if (clusterCounts !== singleCounts) throw new Error(`the operator's aggregate differs:\n${clusterCounts}\n${singleCounts}`);

    build = await privateBuild('bench');
    for (const side of sides) {
      const env = { HEDGEROW_QUERY_TIMEOUT_MS: String(TIMEOUT_MS), ...(options.workers > 0 ? { HEDGEROW_WORKERS: String(options.workers) } : {}) };
      side.hedgerow = await startHedgerow(build, side.server.databaseUrl(side.database), env);
      const bodies = Array.from({ length: 20 }, (_, b) => batchJson(side.environment.api_token, b * BATCH_EVENTS));
      const script = join(scratch, `batch-${side.environment.api_token}.lua`);
      await writeFile(script, batchScript(bodies));
      side.batch = { url: `http://127.0.0.1:${side.hedgerow.port}/batch/`, script, bodies };
    }
    // Captures the benchmark's distinct ids once, so that every round measures the steady state of known users.
    for (const side of sides) await load(side.batch!, 2, 2, 0);

    const batch: Measurement = { name: `capture \`POST /batch/\` (${BATCH_EVENTS} events, c=${options.batchConnections})`, cluster: [], single: [], unit: 'µs/event', target: 1.5 };
    const queries: Measurement[] = BASE_CASES.map((item) => ({ name: `HogQL: ${item.name}`, cluster: [], single: [], unit: 'ms', target: 1.5 }));
    const operator: Measurement = { name: `operator: events per environment (${onSingle.environments} environments)`, cluster: [], single: [], unit: 'ms', target: null };
    const perSecond = { cluster: [] as number[], single: [] as number[] };
    const failed = { cluster: 0, single: 0 };
    const key = (side: Side) => (side === onCluster ? 'cluster' : 'single');

    log(`measuring: ${options.rounds} rounds; capture ${options.warmup} s warm-up + ${options.duration} s a side, then ${BASE_CASES.length} queries and the aggregate…`);
    for (let round = 0; round < options.rounds; round += 1) {
      const started = Date.now();
      const order = round % 2 === 0 ? [onCluster, onSingle] : [onSingle, onCluster];
      for (const side of order) {
        const result = await load(side.batch!, options.batchConnections, options.duration, options.warmup);
        // Only the acknowledged batches count: a refused one (a 500) is answered fast and stores nothing.
        const events = result.requests > 0 ? result.perSecond * BATCH_EVENTS * (1 - result.errors / result.requests) : 0;
        perSecond[key(side)].push(events);
        batch[key(side)].push(events > 0 ? 1e6 / events : Number.POSITIVE_INFINITY);
        failed[key(side)] += result.errors;
      }
      for (const [index, item] of BASE_CASES.entries()) {
        for (const side of order) queries[index]![key(side)].push(await timed(() => query(side, item)));
      }
      for (const side of order) operator[key(side)].push(await timed(() => aggregate(side)));
      log(
        `round ${round + 1} in ${((Date.now() - started) / 1000).toFixed(1)} s: /batch/ ${format(perSecond.cluster.at(-1)!)} vs ${format(perSecond.single.at(-1)!)} events/s; ` +
          [...queries, operator].map((m) => `${format(m.cluster.at(-1)!)} vs ${format(m.single.at(-1)!)} ms`).join(', '),
      );
    }
    printTable(options, [batch, ...queries, operator], { perSecond, failed }, { generated: generatedEvents, measured: Number(bounds[0]!.total) }, window);
  } finally {
    for (const side of sides) await closeSide(side, options.keep).catch((error: Error) => log(`closing ${side.name}: ${error.message}`));
    build?.remove();
    await rm(scratch, { recursive: true, force: true });
    if (options.keep) log(`kept the cluster running in ${CLUSTER_DIR} (reuse with --databases ${sides.map((side) => side.database).join(',')})`);
    else log(`stopped the cluster: ${down(CLUSTER_DIR).join(', ')}`);
  }
}

function printTable(
  options: Options,
  measurements: Measurement[],
  capture: { perSecond: { cluster: number[]; single: number[] }; failed: { cluster: number; single: number } },
  events: { generated: number; measured: number },
  window: { start: string; end: string },
): void {
  const figure = (value: number, unit: Measurement['unit']) => (unit === 'ms' ? `${format(value, value >= 100 ? 0 : 1)} ms` : `${format(value, 1)} µs/event`);
  const rows = measurements.map((m) => {
    const [cluster, single] = [median(m.cluster), median(m.single)];
    const rounds = m.cluster.map((value, index) => value / m.single[index]!);
    const ratio = cluster / single;
    // A side that refused requests measured something else than capture: no verdict can stand on it.
    const refused = m.unit === 'µs/event' && capture.failed.cluster + capture.failed.single > 0;
    const verdict = m.target === null ? 'no target' : `≤ ${m.target} — ${ratio <= m.target && !refused ? 'met' : refused ? 'NOT met (non-2xx answers)' : 'NOT met'}`;
    const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : 'n/a');
    return [m.name, figure(cluster, m.unit), figure(single, m.unit), `${fixed(ratio)}× (${fixed(Math.min(...rounds))}–${fixed(Math.max(...rounds))})`, verdict];
  });
  rows.splice(1, 0, [
    '  (the same as acknowledged events/s; non-2xx answers)',
    `${format(median(capture.perSecond.cluster))}/s; ${capture.failed.cluster}`,
    `${format(median(capture.perSecond.single))}/s; ${capture.failed.single}`,
    '',
    '',
  ]);
  const header = ['measurement (medians of the rounds)', 'cluster', 'single node', 'cluster ÷ single (rounds)', 'target'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => `| ${cells.map((cell, column) => (column === 0 || column === 4 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(' | ')} |`;
  process.stdout.write(
    [
      `Citus (coordinator + 2 workers) ÷ one PostgreSQL node, ${events.generated.toLocaleString('en')} generated events on each, ` +
        `${events.measured.toLocaleString('en')} in the measured environment (window ${window.start} – ${window.end}); ` +
        `${options.rounds} interleaved rounds, /batch/ ${options.warmup} s warm-up + ${options.duration} s a side (${hasWrk ? 'wrk' : 'autocannon'}), workers ${options.workers || 'default'}.`,
      line(header),
      `|${widths.map((width, column) => (column === 0 || column === 4 ? ':' : '') + '-'.repeat(width + 1) + (column === 0 || column === 4 ? '' : ':')).join('|')}|`,
      ...rows.map(line),
      '',
    ].join('\n'),
  );
}
