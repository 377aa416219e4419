/**
 * `npm run bench -- events [--events 10000000] [--iterations 40] [--warmup 5] [--keep] [--database <name>]`
 *
 * The deprecated event listing on one project of `--events` generated events (scripts/generate-events.ts, loaded
 * with COPY into a fresh database of the local PostgreSQL, dropped at the end unless `--keep`; `--database`
 * reuses a kept one). Four cases — no filter, `event=purchase`, a person-property filter, a `where` — each on
 * the first page and on a deep page (the middle of the data, reached by following `next`), 100 events a page.
 * Each is measured four ways, interleaved round by round so that the machine's drift affects them alike:
 *   hand:  the same query written by hand, through `pg` (one connection);
 *   db:    Hedgerow's listEvents() in this process (parsing, HogQL compiler, a read-only session with its
 *          statement timeout, row shaping);
 *   floor: the same listEvents() behind a bare node:http server process (scripts/bench/_listing-floor-server.ts:
 *          no framework, no key, no validation), as the http way reaches it: what HTTP itself costs here;
 *   http:  `GET …/events/` on a Hedgerow server process (default configuration, rate limit off), through
 *          node:http on one kept-alive connection, the body read whole.
 * Prints p50/p95 per way, the ratios db/hand, floor/hand, http/hand and http/floor (the share of Hedgerow's
 * framework), and a verdict per target: listEvents() at most 1.5× the hand-written query; over HTTP at most 1.3×
 * the floor; a first page's p50 over HTTP under 50 ms. HTTP is judged against the floor, not against the
 * hand-written query: the floor runs the same code behind a bare server, so http/floor is what Hedgerow's own
 * server adds, while http/hand also counts the HTTP round trip that no server can avoid.
 */
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb, createReadDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { listEvents } from '../../db/queries/events/listing.js';
import { parseEventListRequest, type EventListRequest } from '../../handlers/events/request.js';
import { eventJson } from '../../handlers/events/shape.js';
import { privateBuild } from '../build.js';
import { generateEvents } from '../generate-events.js';
import { benchEnvironment } from './_environment.js';
import { percentile, startProcess, stopProcess, timed, type Started } from './_processes.js';
import { DEFAULT_ADMIN_URL, postgresServer } from '../../test/helpers/postgres.js';

/** The PostgreSQL server the benchmark database is made on (the tests' harness, test/helpers/postgres.ts). */
const postgres = postgresServer(process.env.HEDGEROW_BENCH_ADMIN_URL || DEFAULT_ADMIN_URL);
const PAGE = 100;
const DEEP_STEPS = 5;
const TIMEOUT_MS = 15_000;

interface Medians {
  hand: number;
  db: number;
  floor: number;
  http: number;
}

/** The listing's targets, each printed as a verdict beside the page it judges. */
const TARGETS: { label: string; firstPageOnly?: boolean; met: (p50: Medians) => boolean }[] = [
  { label: 'db ≤1.5× hand', met: (p50) => p50.db <= 1.5 * p50.hand },
  { label: 'http ≤1.3× floor', met: (p50) => p50.http <= 1.3 * p50.floor },
  { label: 'http <50ms', firstPageOnly: true, met: (p50) => p50.http < 50 },
];

interface Options {
  events: number;
  iterations: number;
  warmup: number;
  keep: boolean;
  database: string | null;
}

function parseOptions(args: string[]): Options {
  const options: Options = { events: 10_000_000, iterations: 40, warmup: 5, keep: false, database: null };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--keep') options.keep = true;
    else if (arg === '--database') options.database = args[++index] ?? null;
    else if (['--events', '--iterations', '--warmup'].includes(arg)) {
      const value = Number(args[++index]);
      if (!Number.isSafeInteger(value) || value < 0) throw new Error(`bad value for ${arg}`);
      options[arg.slice(2) as 'events' | 'iterations' | 'warmup'] = value;
    } else throw new Error(`unknown option ${arg}`);
  }
  if (options.database !== null && !/^[a-z0-9_]+$/.test(options.database)) throw new Error('--database must be a plain name');
  return options;
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

// ---------------------------------------------------------------------------------------------------------
// The cases: listing parameters, and the same query by hand.

interface Keyset {
  t: string;
  u: string;
}

interface Case {
  name: string;
  params: Record<string, string>;
  /** The inner query's extra join and condition, as one would write them by hand. */
  join: string;
  condition: string;
}

const CASES: Case[] = [
  { name: 'no filter', params: {}, join: '', condition: '' },
  { name: 'event=purchase', params: { event: 'purchase' }, join: '', condition: "and e.event = 'purchase'" },
  {
    name: 'person property',
    params: { properties: JSON.stringify([{ key: 'plan', value: 'enterprise', type: 'person' }]) },
    join: `join person_distinct_ids f on f.team_id = e.team_id and f.distinct_id = e.distinct_id
      join persons fp on fp.id = f.person_id`,
    condition: "and fp.properties ->> 'plan' = 'enterprise'",
  },
  {
    name: 'person property, one person',
    params: { properties: JSON.stringify([{ key: 'email', value: 'user0@example.com', type: 'person' }]) },
    join: `join person_distinct_ids f on f.team_id = e.team_id and f.distinct_id = e.distinct_id
      join persons fp on fp.id = f.person_id`,
    condition: "and fp.properties ->> 'email' = 'user0@example.com'",
  },
  {
    name: 'where',
    params: { where: JSON.stringify(["properties.$browser = 'Firefox'"]) },
    join: '',
    condition: "and e.properties ->> '$browser' = 'Firefox'",
  },
];

function handQuery(item: Case, teamId: number, before: string | null, keyset: Keyset | null): { text: string; values: unknown[] } {
  const values: unknown[] = [teamId];
  let position = '';
  if (before) {
    values.push(before);
    position += ` and e.timestamp < $${values.length}`;
  }
  if (keyset) {
    values.push(keyset.t, keyset.u);
    position += ` and (e.timestamp, e.uuid) < ($${values.length - 1}, $${values.length})`;
  }
  const text = `select e.uuid::text as id, e.event, e.distinct_id, e.properties, e.elements_chain, e.timestamp,
      p.is_identified, p.properties -> 'email' as person_email, p.properties -> 'name' as person_name,
      p.properties -> 'username' as person_username,
      (select d.distinct_id from person_distinct_ids d where d.person_id = p.id order by d.id limit 1) as person_distinct_id
    from (
      select e.uuid, e.event, e.distinct_id, e.properties, e.elements_chain, e.timestamp
      from events e ${item.join}
      where e.team_id = $1 ${item.condition}${position}
      order by e.timestamp desc, e.uuid desc limit ${PAGE + 1}
    ) e
    left join person_distinct_ids pdi on pdi.team_id = $1 and pdi.distinct_id = e.distinct_id
    left join persons p on p.id = pdi.person_id
    order by e.timestamp desc, e.uuid desc`;
  return { text, values };
}

interface Page {
  case: Case;
  depth: 'first' | 'deep';
  /** Path and query of the page on the server. */
  path: string;
  request: EventListRequest;
  hand: { text: string; values: unknown[] };
}

function decodeCursor(cursor: string): Keyset {
  return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Keyset;
}

/** Hedgerow, built and started as `npm start` does it (`build` is where it was built). */
function startServer(url: string, build: { command: string; args: string[] }): Promise<Started> {
  return startProcess('server', build.command, build.args, {
    DATABASE_URL: url,
    PORT: '0',
    HOST: '127.0.0.1',
    HEDGEROW_RATE_LIMIT_PER_MINUTE: '0',
  });
}

/** The floor of the HTTP way (scripts/bench/_listing-floor-server.ts), with the server's young generation. */
function startFloor(url: string): Promise<Started> {
  const script = fileURLToPath(new URL('./_listing-floor-server.ts', import.meta.url));
  return startProcess('floor', process.execPath, ['--max-semi-space-size=8', '--import', 'tsx', script], { DATABASE_URL: url });
}

// ---------------------------------------------------------------------------------------------------------

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const name = options.database ?? (await postgres.createDatabase('hedgerow_bench_events'));
  const url = postgres.databaseUrl(name);
  const db: Db = createDb(url, { poolMax: 4 });
  const reader = createReadDb(db, TIMEOUT_MS, { poolMax: 4 });
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
      log(`generating ${options.events} events into ${name} (COPY; several minutes)…`);
      await generateEvents({ databaseUrl: url, teamId, events: options.events, persons: 200_000, days: 30, seed: 1, log });
    } else {
      log(`reusing ${name}: ${count} events`);
    }
    const [{ total }] = (await db('events').where({ team_id: teamId }).count('* as total')) as [{ total: string }];

    await hand.connect();
    build = await privateBuild('bench');
    server = await startServer(url, build);
    const headers = { authorization: `Bearer ${key}` };
    // node:http on one kept-alive connection, the HTTP counterpart of the hand-written way's one `pg`
    // connection: fetch (undici) adds about half a millisecond per request of its own here.
    floor = await startFloor(url);
    /** A client of one server on one kept-alive connection: `GET path` → the body, when it is a 200. */
    const client = (base: string) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      return (path: string) =>
        new Promise<string>((resolve, reject) => {
          http
            .get(`${base}${path}`, { agent, headers }, (response) => {
              const chunks: Buffer[] = [];
              response.on('data', (chunk: Buffer) => chunks.push(chunk));
              response.on('error', reject);
              response.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                if (response.statusCode !== 200) reject(new Error(`${path} answered ${response.statusCode}: ${text}`));
                else resolve(text);
              });
            })
            .on('error', reject);
        });
    };
    const get = client(server.base);
    const getFloor = client(floor.base);

    // The middle of the data: deep pages start there (through `before`) and follow `next` a few times.
    const { rows: bounds } = await hand.query<{ middle: string }>(
      `select to_char((min(timestamp) + (max(timestamp) - min(timestamp)) / 2) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as middle
        from events where team_id = $1`,
      [teamId],
    );
    const middle = bounds[0]!.middle;
    const basePath = `/api/projects/${teamId}/events/`;
    const pages: Page[] = [];
    for (const item of CASES) {
      const query = new URLSearchParams({ ...item.params, limit: String(PAGE) });
      const request = { ...item.params, limit: PAGE, offset: 0 } as EventListRequest;
      pages.push({ case: item, depth: 'first', path: `${basePath}?${query}`, request, hand: handQuery(item, teamId, null, null) });
      let path = `${basePath}?${new URLSearchParams({ ...item.params, limit: String(PAGE), before: middle })}`;
      for (let step = 0; step < DEEP_STEPS; step += 1) {
        const next = (JSON.parse(await get(path)) as { next: string | null }).next;
        if (!next) throw new Error(`${item.name}: no next page at step ${step}`);
        const nextUrl = new URL(next);
        path = `${nextUrl.pathname}${nextUrl.search}`;
      }
      const cursor = new URL(path, 'http://x').searchParams.get('cursor')!;
      pages.push({
        case: item,
        depth: 'deep',
        path,
        request: { ...request, before: middle, cursor },
        hand: handQuery(item, teamId, middle, decodeCursor(cursor)),
      });
    }

    // The four ways must return the same events.
    for (const page of pages) {
      const ids = (body: string) => (JSON.parse(body) as { results: { id: string }[] }).results.map((event) => event.id);
      const viaHttp = ids(await get(page.path));
      const viaFloor = ids(await getFloor(page.path));
      const viaDb = await listEvents(reader, environment, parseEventListRequest(page.request, environment.timezone), TIMEOUT_MS);
      const viaHand = (await hand.query<{ id: string }>(page.hand.text, page.hand.values)).rows.slice(0, PAGE).map((row) => row.id);
      const viaDbIds = viaDb.kind === 'events' ? viaDb.rows.map((row) => row.id) : [];
      if ([viaHttp, viaFloor, viaDbIds].some((viaWay) => JSON.stringify(viaWay) !== JSON.stringify(viaHand))) {
        throw new Error(`${page.case.name} (${page.depth}): the four ways disagree`);
      }
      if (viaHand.length !== PAGE) throw new Error(`${page.case.name} (${page.depth}): only ${viaHand.length} events`);
    }

    const ways = {
      hand: (page: Page) => hand.query(page.hand.text, page.hand.values),
      // The listing as the handler runs it: its parameters parsed, its events written as JSON.
      db: (page: Page) =>
        listEvents(reader, environment!, parseEventListRequest(page.request, environment!.timezone), TIMEOUT_MS).then((listed) =>
          listed.kind === 'events' ? listed.rows.map(eventJson) : listed.results,
        ),
      floor: (page: Page) => getFloor(page.path),
      http: (page: Page) => get(page.path),
    };
    type Way = keyof typeof ways;
    const samples = new Map<Page, Record<Way, number[]>>(pages.map((page) => [page, { hand: [], db: [], floor: [], http: [] }]));
    const order: Way[] = ['hand', 'db', 'floor', 'http'];
    log(`measuring: ${options.warmup} warm-up and ${options.iterations} measured rounds of ${pages.length} pages × ${order.length} ways…`);
    for (let round = 0; round < options.warmup + options.iterations; round += 1) {
      for (const page of pages) {
        // Rotate which way goes first, so that none always profits from the others' warm caches.
        for (let offset = 0; offset < order.length; offset += 1) {
          const way = order[(round + offset) % order.length]!;
          const ms = await timed(() => ways[way](page));
          if (round >= options.warmup) samples.get(page)![way].push(ms);
        }
      }
    }

    const header = ['case', 'page', 'hand p50', 'db p50', 'floor p50', 'http p50', 'http p95', 'db/hand', 'floor/hand', 'http/hand', 'http/floor', 'targets'];
    const rows: string[][] = [];
    for (const page of pages) {
      const s = samples.get(page)!;
      const p50: Medians = { hand: percentile(s.hand, 50), db: percentile(s.db, 50), floor: percentile(s.floor, 50), http: percentile(s.http, 50) };
      const verdicts = TARGETS.filter((target) => target.firstPageOnly !== true || page.depth === 'first').map(
        (target) => `${target.label} ${target.met(p50) ? 'ok' : 'MISSED'}`,
      );
      rows.push([
        page.case.name,
        page.depth,
        `${p50.hand.toFixed(2)} ms`,
        `${p50.db.toFixed(2)} ms`,
        `${p50.floor.toFixed(2)} ms`,
        `${p50.http.toFixed(2)} ms`,
        `${percentile(s.http, 95).toFixed(2)} ms`,
        `${(p50.db / p50.hand).toFixed(2)}×`,
        `${(p50.floor / p50.hand).toFixed(2)}×`,
        `${(p50.http / p50.hand).toFixed(2)}×`,
        `${(p50.http / p50.floor).toFixed(2)}×`,
        verdicts.join(', '),
      ]);
    }
    const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
    const line = (cells: string[]) => `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(' | ')} |`;
    process.stdout.write(
      [
        `Event listing, ${Number(total).toLocaleString('en')} events in one project, ${PAGE} events a page, ` +
          `${options.iterations} interleaved rounds (after ${options.warmup} warm-up); deep = ${DEEP_STEPS} pages past ${middle}.`,
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
