/**
 * `npm run bench -- query [--events 10000000] [--rounds 3] [--warmup 0] [--keep] [--database <name>]`
 *
 * The query endpoint's HogQLQuery on one environment of `--events` generated events (scripts/generate-events.ts:
 * about 100,000 distinct ids of 85,000 persons over 35 days, loaded with COPY into a fresh database of the local
 * PostgreSQL, analysed, dropped at the end unless `--keep`; `--database` reuses a kept one). Three queries over
 * the 30 whole UTC days before the newest event's day: daily active persons, events by browser, and a two-step
 * funnel ($pageview, then a later purchase) joining two grouped subqueries; the last two again as PostHog's
 * insights write them, operators as functions (`and(equals(…), greaterOrEquals(timestamp, …))`), which must
 * compile to the same SQL as the operator form (checked before timing). Each is measured four ways,
 * interleaved round by round (the way that goes first rotates) so that the machine's drift affects them alike:
 *   hand:  the same query written by hand in SQL, through one `pg` connection;
 *   db:    runHogQLQuery() in this process (parsing, compiling, a read-only session, output values);
 *   floor: the same runHogQLQuery() behind a bare node:http server process (scripts/bench/_query-floor-server.ts:
 *          no framework, no key, no validation), asked as the http way is: what HTTP itself costs here;
 *   http:  `POST …/query/` on a Hedgerow server process as `npm start` runs it with one worker, through node:http
 *          on one kept-alive connection, the body read whole.
 * Before timing, the four ways must return the same rows (which also warms the caches, so there is no warm-up
 * round by default: a round at 10 M events is long, and a second pass over warm caches would add nothing).
 * Prints medians per way and the targets' ratios: runHogQLQuery() at most 1.3× the hand-written SQL, the server
 * at most 1.2× the floor.
 */
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb, createReadDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { compileSelect, parseSelect } from '../../db/hogql/select/index.js';
import { DEFAULT_RETURNED_ROWS, MAX_SELECT_RETURNED_ROWS, runHogQLQuery, type HogQLQueryInput } from '../../db/queries/query/hogql-query.js';
import { DEFAULT_RESULT_MAX_BYTES } from '../../db/queries/query/execute.js';
import { privateBuild } from '../build.js';
import { generateEvents } from '../generate-events.js';
import { DEFAULT_ADMIN_URL, postgresServer } from '../../test/helpers/postgres.js';
import { benchEnvironment } from './_environment.js';
import { percentile, startProcess, stopProcess, timed, type Started } from './_processes.js';

/** The PostgreSQL server the benchmark database is made on (the tests' harness, test/helpers/postgres.ts). */
const postgres = postgresServer(process.env.HEDGEROW_BENCH_ADMIN_URL || DEFAULT_ADMIN_URL);
/**
 * The query timeout of every way: the benchmark's whole-table aggregates over millions of rows on a shared machine
 * can run past the server's default timeout, and a query cut short would measure nothing.
 */
export const TIMEOUT_MS = 300_000;
export const BOUNDS = { timeoutMs: TIMEOUT_MS, maxResultBytes: DEFAULT_RESULT_MAX_BYTES };
export const PERSONS = 85_000;
export const DAYS = 35;
export const WINDOW_DAYS = 30;

interface Options {
  events: number;
  rounds: number;
  warmup: number;
  keep: boolean;
  database: string | null;
}

function parseOptions(args: string[]): Options {
  const options: Options = { events: 10_000_000, rounds: 3, warmup: 0, keep: false, database: null };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--keep') options.keep = true;
    else if (arg === '--database') options.database = args[++index] ?? null;
    else if (['--events', '--rounds', '--warmup'].includes(arg)) {
      const value = Number(args[++index]);
      if (!Number.isSafeInteger(value) || value < 0) throw new Error(`bad value for ${arg}`);
      options[arg.slice(2) as 'events' | 'rounds' | 'warmup'] = value;
    } else throw new Error(`unknown option ${arg}`);
  }
  if (options.rounds < 1) throw new Error('--rounds must be at least 1');
  if (options.database !== null && !/^[a-z0-9_]+$/.test(options.database)) throw new Error('--database must be a plain name');
  return options;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// The queries: HogQL, and the same by hand. Both take the window as values ({start}, {end}; $2, $3).

export interface Case {
  name: string;
  hogql: string;
  /** The case this one writes again in PostHog's function form; both must compile to the same SQL. */
  functionFormOf?: string;
  hand: string;
  /** A hand-written row as runHogQLQuery() shows it (datetimes as ISO text, counts as numbers). */
  shown: (row: Record<string, unknown>) => unknown[];
}

const day = (value: unknown) => (value as Date).toISOString();

export const BASE_CASES: Case[] = [
  {
    name: 'daily active persons',
    hogql: `SELECT toStartOfDay(timestamp) AS day, uniq(person_id) AS persons FROM events
      WHERE event = '$pageview' AND timestamp >= {start} AND timestamp < {end}
      GROUP BY day ORDER BY day`,
    // A person is the one the distinct id belongs to now, or else the one the event was stored with.
    hand: `select date_trunc('day', e.timestamp, 'UTC') as day, count(distinct coalesce(p.uuid, e.person_id)) as persons
      from events e
      left join person_distinct_ids pdi on pdi.team_id = e.team_id and pdi.distinct_id = e.distinct_id
      left join persons p on p.id = pdi.person_id
      where e.team_id = $1 and e.event = '$pageview' and e.timestamp >= $2 and e.timestamp < $3
      group by 1 order by 1 limit 101`,
    shown: (row) => [day(row.day), Number(row.persons)],
  },
  {
    name: 'events by browser',
    hogql: `SELECT properties.$browser AS browser, count() AS events FROM events
      WHERE timestamp >= {start} AND timestamp < {end}
      GROUP BY browser ORDER BY events DESC, browser LIMIT 100`,
    hand: `select e.properties ->> '$browser' as browser, count(*) as events
      from events e
      where e.team_id = $1 and e.timestamp >= $2 and e.timestamp < $3
      group by 1 order by 2 desc, 1 limit 100`,
    shown: (row) => [row.browser, Number(row.events)],
  },
  {
    name: 'funnel: $pageview → purchase',
    hogql: `SELECT toStartOfDay(viewed.first_view) AS day, count() AS viewers, countIf(bought.last_purchase > viewed.first_view) AS buyers
      FROM (SELECT distinct_id, min(timestamp) AS first_view FROM events
              WHERE event = '$pageview' AND timestamp >= {start} AND timestamp < {end} GROUP BY distinct_id) viewed
      LEFT JOIN (SELECT distinct_id, max(timestamp) AS last_purchase FROM events
              WHERE event = 'purchase' AND timestamp >= {start} AND timestamp < {end} GROUP BY distinct_id) bought
        ON viewed.distinct_id = bought.distinct_id
      GROUP BY day ORDER BY day`,
    hand: `select date_trunc('day', viewed.first_view, 'UTC') as day, count(*) as viewers,
        count(*) filter (where bought.last_purchase > viewed.first_view) as buyers
      from (select distinct_id, min(timestamp) as first_view from events
              where team_id = $1 and event = '$pageview' and timestamp >= $2 and timestamp < $3 group by distinct_id) viewed
      left join (select distinct_id, max(timestamp) as last_purchase from events
              where team_id = $1 and event = 'purchase' and timestamp >= $2 and timestamp < $3 group by distinct_id) bought
        on bought.distinct_id = viewed.distinct_id
      group by 1 order by 1 limit 101`,
    shown: (row) => [day(row.day), Number(row.viewers), Number(row.buyers)],
  },
];

/**
 * The events-by-browser and funnel queries as PostHog's insight code writes them, operators as functions
 * (`and(equals(event, '$pageview'), greaterOrEquals(timestamp, …))`): they must compile to the SQL of the operator
 * form, and so run as fast, which the table shows side by side.
 */
const FUNCTION_FORMS: Case[] = [
  {
    ...BASE_CASES[1]!,
    name: 'events by browser, function form',
    functionFormOf: BASE_CASES[1]!.name,
    hogql: `SELECT properties.$browser AS browser, count() AS events FROM events
      WHERE and(greaterOrEquals(timestamp, {start}), less(timestamp, {end}))
      GROUP BY browser ORDER BY events DESC, browser LIMIT 100`,
  },
  {
    ...BASE_CASES[2]!,
    name: 'funnel, function form',
    functionFormOf: BASE_CASES[2]!.name,
    hogql: `SELECT toStartOfDay(viewed.first_view) AS day, count() AS viewers, countIf(greater(bought.last_purchase, viewed.first_view)) AS buyers
      FROM (SELECT distinct_id, min(timestamp) AS first_view FROM events
              WHERE and(equals(event, '$pageview'), greaterOrEquals(timestamp, {start}), less(timestamp, {end})) GROUP BY distinct_id) viewed
      LEFT JOIN (SELECT distinct_id, max(timestamp) AS last_purchase FROM events
              WHERE and(equals(event, 'purchase'), greaterOrEquals(timestamp, {start}), less(timestamp, {end})) GROUP BY distinct_id) bought
        ON equals(viewed.distinct_id, bought.distinct_id)
      GROUP BY day ORDER BY day`,
  },
];

const CASES: Case[] = [...BASE_CASES, ...FUNCTION_FORMS];

/** Each function form compiles to exactly the SQL of its operator form (so to the same plan and index use). */
function checkFunctionForms(teamId: number, timezone: string, values: Record<string, string>): void {
  const options = { teamId, timezone, defaultLimit: DEFAULT_RETURNED_ROWS, maxLimit: MAX_SELECT_RETURNED_ROWS };
  const compiled = (hogql: string) => compileSelect(parseSelect(hogql, values), options);
  for (const item of FUNCTION_FORMS) {
    const operatorForm = BASE_CASES.find((base) => base.name === item.functionFormOf)!;
    const [fromFunctions, fromOperators] = [compiled(item.hogql), compiled(operatorForm.hogql)];
    if (fromFunctions.text !== fromOperators.text || JSON.stringify(fromFunctions.params) !== JSON.stringify(fromOperators.params)) {
      throw new Error(`${item.name}: the function form compiles to other SQL than the operator form:\n${fromFunctions.text}\n${fromOperators.text}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Servers and clients

/** Hedgerow, built and started as `npm start` does it, with one worker and the benchmark's query timeout. */
function startServer(url: string, build: { command: string; args: string[] }): Promise<Started> {
  return startProcess('server', build.command, build.args, {
    DATABASE_URL: url,
    PORT: '0',
    HOST: '127.0.0.1',
    HEDGEROW_WORKERS: '1',
    HEDGEROW_RATE_LIMIT_PER_MINUTE: '0',
    HEDGEROW_QUERY_TIMEOUT_MS: String(TIMEOUT_MS),
  });
}

/** The floor of the HTTP way (scripts/bench/_query-floor-server.ts), with the server's young generation. */
function startFloor(url: string): Promise<Started> {
  const script = fileURLToPath(new URL('./_query-floor-server.ts', import.meta.url));
  return startProcess('floor', process.execPath, ['--max-semi-space-size=8', '--import', 'tsx', script], {
    DATABASE_URL: url,
    HEDGEROW_QUERY_TIMEOUT_MS: String(TIMEOUT_MS),
  });
}

/** A client of one server on one kept-alive connection: `POST path` with a JSON body → the body, when it is a 200. */
function poster(base: string, headers: Record<string, string>, agents: http.Agent[]) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  agents.push(agent);
  return (path: string, payload: unknown) =>
    new Promise<string>((resolve, reject) => {
      const body = Buffer.from(JSON.stringify(payload));
      const request = http.request(
        `${base}${path}`,
        { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            if (response.statusCode !== 200) reject(new Error(`${path} answered ${response.statusCode}: ${text}`));
            else resolve(text);
          });
        },
      );
      request.on('error', reject);
      request.end(body);
    });
}

// ---------------------------------------------------------------------------------------------------------

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const name = options.database ?? (await postgres.createDatabase('hedgerow_bench_query'));
  const url = postgres.databaseUrl(name);
  const db: Db = createDb(url, { poolMax: 2 });
  const reader = createReadDb(db, TIMEOUT_MS, { poolMax: 1 });
  const hand = new pg.Client({ connectionString: url });
  let server: Started | null = null;
  let floor: Started | null = null;
  let build: Awaited<ReturnType<typeof privateBuild>> | null = null;
  const agents: http.Agent[] = [];
  try {
    await migrateLatest(db);
    const { environment, key } = await benchEnvironment(db);
    const teamId = environment.id;
    const [{ count }] = (await db('events').where({ team_id: teamId }).count('* as count')) as [{ count: string }];
    if (Number(count) === 0) {
      log(`generating ${options.events.toLocaleString('en')} events into ${name} (COPY, then indexes and ANALYZE)…`);
      const loading = Date.now();
      await generateEvents({ databaseUrl: url, teamId, events: options.events, persons: PERSONS, days: DAYS, seed: 1, log });
      log(`loaded in ${((Date.now() - loading) / 1000).toFixed(1)} s`);
    } else {
      log(`reusing ${name}: ${Number(count).toLocaleString('en')} events`);
    }

    // A connection PostgreSQL drops (a restart of its backends) fails the query in flight; without a listener
    // the client's error event would end this process before the servers it started are stopped.
    hand.on('error', (error) => log(`the hand-written way's connection failed: ${error.message}`));
    await hand.connect();
    // The window: the 30 whole UTC days before the newest event's day.
    const { rows: bounds } = await hand.query<{ start: Date; end: Date; total: string; distinct_ids: string }>(
      `select date_trunc('day', max(timestamp), 'UTC') - interval '${WINDOW_DAYS} days' as start,
          date_trunc('day', max(timestamp), 'UTC') as end, count(*) as total,
          (select count(*) from person_distinct_ids where team_id = $1) as distinct_ids
        from events where team_id = $1`,
      [teamId],
    );
    const window = { start: bounds[0]!.start.toISOString(), end: bounds[0]!.end.toISOString() };
    const total = Number(bounds[0]!.total);

    build = await privateBuild('bench');
    server = await startServer(url, build);
    floor = await startFloor(url);
    const headers = { authorization: `Bearer ${key}` };
    const post = poster(server.base, headers, agents);
    const postFloor = poster(floor.base, {}, agents);
    const path = `/api/environments/${teamId}/query/`;
    const input = (item: Case): HogQLQueryInput => ({ query: item.hogql, values: window });
    const payload = (item: Case) => ({ query: { kind: 'HogQLQuery', ...input(item) } });
    const handValues = [teamId, window.start, window.end];

    checkFunctionForms(teamId, environment.timezone, window);
    // The four ways must return the same rows, and some of them.
    for (const item of CASES) {
      const viaDb = JSON.stringify((await runHogQLQuery(reader, environment, input(item), BOUNDS)).results);
      const viaHand = JSON.stringify((await hand.query<Record<string, unknown>>(item.hand, handValues)).rows.map(item.shown));
      const viaHttp = JSON.stringify((JSON.parse(await post(path, payload(item))) as { results: unknown }).results);
      const viaFloor = JSON.stringify((JSON.parse(await postFloor(path, payload(item))) as { results: unknown }).results);
      if (viaDb !== viaHand || viaHttp !== viaHand || viaFloor !== viaHand) {
        throw new Error(`${item.name}: the four ways disagree:\nhand ${viaHand}\ndb ${viaDb}\nhttp ${viaHttp}\nfloor ${viaFloor}`);
      }
      if (viaHand === '[]') throw new Error(`${item.name}: no rows`);
    }

    const ways = {
      hand: (item: Case) => hand.query(item.hand, handValues),
      db: (item: Case) => runHogQLQuery(reader, environment!, input(item), BOUNDS),
      floor: (item: Case) => postFloor(path, payload(item)),
      http: (item: Case) => post(path, payload(item)),
    };
    type Way = keyof typeof ways;
    const order: Way[] = ['hand', 'db', 'floor', 'http'];
    const samples = new Map<Case, Record<Way, number[]>>(CASES.map((item) => [item, { hand: [], db: [], floor: [], http: [] }]));
    log(`measuring: ${options.warmup} warm-up and ${options.rounds} measured rounds of ${CASES.length} queries × ${order.length} ways…`);
    for (let round = 0; round < options.warmup + options.rounds; round += 1) {
      const started = Date.now();
      for (const item of CASES) {
        for (let offset = 0; offset < order.length; offset += 1) {
          const way = order[(round + offset) % order.length]!;
          const ms = await timed(() => ways[way](item));
          if (round >= options.warmup) samples.get(item)![way].push(ms);
        }
      }
      log(`round ${round + 1}${round < options.warmup ? ' (warm-up)' : ''} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }

    const ms = (value: number) => `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ms`;
    const header = ['query', 'hand', 'db', 'floor', 'http', 'db ÷ hand', 'http ÷ floor', 'http ÷ hand', 'targets'];
    const rows = CASES.map((item) => {
      const s = samples.get(item)!;
      const p50 = { hand: percentile(s.hand, 50), db: percentile(s.db, 50), floor: percentile(s.floor, 50), http: percentile(s.http, 50) };
      // The ratio of the medians, and the lowest and highest of the rounds' own ratios.
      const ratio = (a: Way, b: Way) => {
        const rounds = s[a].map((value, index) => value / s[b][index]!);
        return `${(p50[a] / p50[b]).toFixed(2)}× (${Math.min(...rounds).toFixed(2)}–${Math.max(...rounds).toFixed(2)})`;
      };
      const verdicts = [`db ≤1.3× hand ${p50.db <= 1.3 * p50.hand ? 'ok' : 'MISSED'}`, `http ≤1.2× floor ${p50.http <= 1.2 * p50.floor ? 'ok' : 'MISSED'}`];
      return [item.name, ms(p50.hand), ms(p50.db), ms(p50.floor), ms(p50.http), ratio('db', 'hand'), ratio('http', 'floor'), `${(p50.http / p50.hand).toFixed(2)}×`, verdicts.join(', ')];
    });
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
    const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
    process.stdout.write(
      [
        `HogQL queries, ${total.toLocaleString('en')} events of ${Number(bounds[0]!.distinct_ids).toLocaleString('en')} distinct ids in one environment, ` +
          `window ${window.start} – ${window.end}; medians of ${options.rounds} interleaved rounds (after ${options.warmup} warm-up), ` +
          'ratios: of the medians (the rounds\' own ratios, lowest–highest).',
        line(header),
        line(widths.map((width) => '-'.repeat(width))),
        ...rows.map(line),
        '',
      ].join('\n'),
    );
  } finally {
    for (const agent of agents) agent.destroy();
    if (server) await stopProcess(server.child);
    if (floor) await stopProcess(floor.child);
    build?.remove();
    await hand.end().catch(() => undefined);
    await reader.destroy();
    await db.destroy();
    if (options.keep) log(`kept database ${name} (reuse with --database ${name}; drop it when done)`);
    else await postgres.dropDatabase(name);
  }
}
