/**
 * `npm run bench -- capture [--rounds 3] [--duration 10] [--warmup 3] [--connections 50] [--batch-connections 8]
 *  [--workers N]`
 *
 * Side by side on this machine, in interleaved rounds (each round runs every measurement once, back to back,
 * so that the machine's drift affects them alike):
 *   1. a bare node:http server answering 200 (the ceiling of any HTTP server here);
 *   2. Hedgerow `POST /i/v0/e/`, one event per request, `--connections` concurrent connections;
 *   3. Hedgerow `POST /batch/`, 100 events per request;
 *   4. a raw binary COPY of the same rows through `pg`, 1,000 rows per transaction, one connection.
 * Hedgerow runs as its own processes, built and started as `npm start` does it, with the default configuration
 * (`--workers` sets HEDGEROW_WORKERS; its memory is that of the supervisor, its workers and the job engine's
 * process together), on a fresh database of the local PostgreSQL, dropped at the end. Load comes from wrk (Debian
 * package `wrk`), or from autocannon when wrk is not installed. Prints two tables: figures per round, medians,
 * ratios and targets; then the peak resident memory of each process against its target.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import pgCopyStreams from 'pg-copy-streams';
import { BinaryCopyWriter } from '../../db/pg/copy-binary.js';
import { privateBuild } from '../build.js';
import { uuidv7 } from '../../db/core/uuid.js';
import { DEFAULT_ADMIN_URL, postgresServer } from '../../test/helpers/postgres.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The PostgreSQL server the benchmark databases are made on (the tests' harness, test/helpers/postgres.ts). */
export const postgres = postgresServer(process.env.HEDGEROW_BENCH_ADMIN_URL || DEFAULT_ADMIN_URL);
const USERS = 1000;
export const BATCH_EVENTS = 100;
const COPY_ROWS_PER_TRANSACTION = 1000;

interface Options {
  rounds: number;
  duration: number;
  warmup: number;
  connections: number;
  batchConnections: number;
  /** HEDGEROW_WORKERS; 0: unset (one per CPU). */
  workers: number;
}

function parseOptions(args: string[]): Options {
  const options: Options = { rounds: 3, duration: 10, warmup: 3, connections: 50, batchConnections: 8, workers: 0 };
  for (let index = 0; index < args.length; index += 2) {
    const key = args[index]!.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof Options;
    const value = Number(args[index + 1]);
    if (!(key in options) || !Number.isFinite(value) || value <= 0) throw new Error(`bad option ${args[index]} ${args[index + 1]}`);
    options[key] = value;
  }
  return options;
}

/** The properties every benchmark event carries (about 200 bytes of JSON, like a small web event). */
function propertiesOf(n: number): string {
  return `{"$current_url":"https://example.com/pricing","$browser":"Chrome","$os":"Mac OS X","$lib":"web","plan":"free","n":${n}}`;
}

function eventJson(n: number, withKey: string | null): string {
  const key = withKey ? `"api_key":"${withKey}",` : '';
  return `{${key}"event":"$pageview","distinct_id":"user-${n % USERS}","properties":${propertiesOf(n)},"timestamp":"2026-11-21T10:00:00.000Z"}`;
}

export function batchJson(token: string, first: number): string {
  const events = Array.from({ length: BATCH_EVENTS }, (_, i) => eventJson(first + i, null));
  return `{"api_key":"${token}","batch":[${events.join(',')}]}`;
}

// ---------------------------------------------------------------------------------------------------------
// Processes

export interface Child {
  process: ChildProcess;
  port: number;
  output: string[];
}

export async function start(command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Child> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${output.join('')}`)), 60_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      if (output.length < 200) output.push(text);
      const match = ready.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}:\n${output.join('')}`)));
  });
  return { process: child, port, output };
}

/**
 * Starts a Hedgerow build over `databaseUrl` on a free loopback port, its rate limit off and its log quiet, and
 * waits until it listens; `env` adds to or overrides that.
 */
export function startHedgerow(build: { command: string; args: string[] }, databaseUrl: string, env: NodeJS.ProcessEnv = {}): Promise<Child> {
  return start(
    build.command,
    build.args,
    { DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', HEDGEROW_RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'warn', ...env },
    /listening on http:\/\/127\.0\.0\.1:(\d+)/,
  );
}

export async function stop(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return;
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGTERM');
  await exited;
}

/**
 * Resident memory of a process and of its children (the supervisor's workers), from /proc (Linux): current and
 * peak, in MB. The peak adds each process's own peak, which need not have been reached at the same moment.
 */
export async function memoryOf(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).split(' ').filter(Boolean).map(Number);
  const theirs = await Promise.all(children.map((child) => memoryOf(child).catch(() => ({ rss: 0, peak: 0 }))));
  return theirs.reduce((sum, one) => ({ rss: sum.rss + one.rss, peak: sum.peak + one.peak }), { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 });
}

/** One process of a Hedgerow server: its role (from its command line), pid and peak resident memory (VmHWM), MB. */
export interface ProcessPeak {
  role: string;
  pid: number;
  peak: number;
}

/**
 * The peak resident memory of the supervisor `pid` and of each of its children now alive: the HTTP workers
 * (forked from main.js) and the job engine's process (jobs-process.js).
 */
export async function processPeaks(pid: number): Promise<ProcessPeak[]> {
  const peakOf = async (one: number) => {
    const status = await readFile(`/proc/${one}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  };
  const roleOf = async (one: number) => {
    const command = (await readFile(`/proc/${one}/cmdline`, 'utf8')).split('\0').join(' ');
    if (command.includes('jobs-process.js')) return 'job engine process';
    if (command.includes('main.js')) return 'HTTP worker';
    return 'other';
  };
  const children = (await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '')).split(' ').filter(Boolean).map(Number);
  const peaks: ProcessPeak[] = [{ role: 'supervisor', pid, peak: await peakOf(pid) }];
  for (const child of children) {
    const [role, peak] = await Promise.all([roleOf(child), peakOf(child)]).catch(() => ['gone', 0] as const);
    if (role !== 'gone') peaks.push({ role, pid: child, peak });
  }
  return peaks;
}

/** Each process's peak beside its target: the supervisor under 64 MB, every other process under 200 MB. */
function processTable(peaks: ProcessPeak[]): string[] {
  const rows = peaks.map(({ role, pid, peak }) => {
    const target = role === 'supervisor' ? 64 : 200;
    return [role, String(pid), format(peak), `< ${target}`, peak < target ? 'met' : 'NOT met'];
  });
  const header = ['process', 'pid', 'peak RSS (VmHWM), MB', 'target, MB', 'verdict'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const render = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  return [render(header), `|${widths.map((w, i) => (i === 0 ? ':' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|')}|`, ...rows.map(render)];
}

// ---------------------------------------------------------------------------------------------------------
// Load

export interface Load {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export const hasWrk = spawnSync('wrk', ['--version']).error === undefined;

function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

async function wrk(url: string, script: string, connections: number, seconds: number): Promise<Load> {
  const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '-s', script, url]);
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  await new Promise((resolve) => child.once('exit', resolve));
  const find = (pattern: RegExp) => pattern.exec(text)?.[1];
  const requests = Number(find(/(\d+) requests in/));
  if (!Number.isFinite(requests)) throw new Error(`wrk failed:\n${text}`);
  return {
    requests,
    perSecond: Number(find(/Requests\/sec:\s+([\d.]+)/)),
    p50: milliseconds(find(/\s50%\s+(\S+)/) ?? ''),
    p99: milliseconds(find(/\s99%\s+(\S+)/) ?? ''),
    errors: Number(find(/Non-2xx or 3xx responses: (\d+)/) ?? 0) + Number(find(/Socket errors: .*?(\d+) timeout/) ?? 0),
  };
}

async function autocannon(url: string, bodies: string[], connections: number, seconds: number): Promise<Load> {
  const packageName = 'autocannon'; // untyped package: imported by name so TypeScript does not look for types
  const { default: run } = (await import(packageName)) as {
    default: (options: object) => Promise<{
      requests: { total: number; average: number };
      latency: { p50: number; p99: number };
      non2xx: number;
      errors: number;
    }>;
  };
  let next = 0;
  const result = await run({
    url,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (request: object) => ({ ...request, body: bodies[next++ % bodies.length] }) }],
  });
  return {
    requests: result.requests.total,
    perSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

export interface Target {
  url: string;
  script: string;
  bodies: string[];
}

export async function load(target: Target, connections: number, seconds: number, warmup: number): Promise<Load> {
  const once = (duration: number) =>
    hasWrk ? wrk(target.url, target.script, connections, duration) : autocannon(target.url, target.bodies, connections, duration);
  if (warmup > 0) await once(warmup);
  return once(seconds);
}

function singleEventScript(token: string): string {
  return `
local n = 0
request = function()
  n = n + 1
  local body = string.format('{"api_key":"${token}","event":"$pageview","distinct_id":"user-%d","properties":{"$current_url":"https://example.com/pricing","$browser":"Chrome","$os":"Mac OS X","$lib":"web","plan":"free","n":%d},"timestamp":"2026-11-21T10:00:00.000Z"}', n % ${USERS}, n)
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, body)
end
`;
}

export function batchScript(bodies: string[]): string {
  const literals = bodies.map((body) => `[==[${body}]==]`).join(',\n');
  return `
local bodies = {${literals}}
local k = 0
request = function()
  k = k % #bodies + 1
  return wrk.format("POST", nil, {["Content-Type"] = "application/json"}, bodies[k])
end
`;
}

// ---------------------------------------------------------------------------------------------------------
// Raw COPY

async function rawCopy(databaseUrl: string, teamId: number, seconds: number): Promise<{ rows: number; perSecond: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const personId = uuidv7();
  const columns =
    'team_id, uuid, event, distinct_id, properties, "timestamp", elements_chain, person_id, person_properties, group_0, group_1, group_2, group_3, group_4, historical_migration';
  let rows = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  try {
    while (performance.now() < deadline) {
      const writer = new BinaryCopyWriter();
      const timestamp = new Date('2026-11-21T10:00:00.000Z');
      for (let i = 0; i < COPY_ROWS_PER_TRANSACTION; i += 1) {
        const n = rows + i;
        writer.add([
          { type: 'int4', value: teamId },
          { type: 'uuid', value: uuidv7() },
          { type: 'text', value: '$pageview' },
          { type: 'text', value: `user-${n % USERS}` },
          { type: 'jsonb', value: propertiesOf(n) },
          { type: 'timestamptz', value: timestamp },
          { type: 'text', value: '' },
          { type: 'uuid', value: personId },
          // The person's properties, stored on each event as capture stores them (the benchmark's persons have none).
          { type: 'jsonb', value: '{}' },
          null,
          null,
          null,
          null,
          null,
          { type: 'bool', value: false },
        ]);
      }
      await client.query('begin');
      await new Promise<void>((resolve, reject) => {
        const stream = client.query(pgCopyStreams.from(`copy events (${columns}) from stdin (format binary)`));
        stream.on('error', reject);
        stream.on('finish', () => resolve());
        stream.end(writer.toBuffer());
      });
      await client.query('commit');
      rows += COPY_ROWS_PER_TRANSACTION;
    }
  } finally {
    await client.end();
  }
  return { rows, perSecond: rows / ((performance.now() - started) / 1000) };
}

// ---------------------------------------------------------------------------------------------------------

async function countEvents(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>('select count(*) from events');
    return Number(rows[0]!.count);
  } finally {
    await client.end();
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export function format(value: number, digits = 0): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a';
}

interface Round {
  bare: Load;
  single: Load;
  batch: Load;
  copy: { rows: number; perSecond: number };
  rss: number;
  singleStored: number;
  batchStored: number;
}

export async function run(args: string[]): Promise<void> {
  const options = parseOptions(args);
  const name = await postgres.createDatabase('hedgerow_bench');
  const databaseUrl = postgres.databaseUrl(name);
  const scratch = await mkdtemp(join(tmpdir(), 'hedgerow-bench-'));
  const children: Child[] = [];
  let removeBuild = () => undefined as void;
  const log = (line: string) => process.stderr.write(`${line}\n`);
  try {
    log(
      `capture benchmark: ${options.rounds} rounds of ${options.duration} s (+${options.warmup} s warm-up), load from ${hasWrk ? 'wrk' : 'autocannon'}, ` +
        `${options.workers > 0 ? `HEDGEROW_WORKERS=${options.workers}` : 'default workers'}`,
    );
    const bare = await start(process.execPath, ['--import', 'tsx', 'scripts/bench/_bare-server.ts'], {}, /listening on (\d+)/);
    children.push(bare);
    const server = await privateBuild('bench');
    removeBuild = server.remove;
    const hedgerow = await start(
      server.command,
      server.args,
      {
        DATABASE_URL: databaseUrl,
        PORT: '0',
        HOST: '127.0.0.1',
        HEDGEROW_RATE_LIMIT_PER_MINUTE: '0',
        ...(options.workers > 0 ? { HEDGEROW_WORKERS: String(options.workers) } : {}),
      },
      /listening on http:\/\/127\.0\.0\.1:(\d+)/,
    );
    children.push(hedgerow);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const token = /Project API key:\s+(phc_\w+)/.exec(hedgerow.output.join(''))?.[1];
    if (!token) throw new Error(`no project API key in Hedgerow's first-run output:\n${hedgerow.output.join('')}`);
    const teamId = await (async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query<{ id: number }>('select id from environments where api_token = $1', [token]);
      await client.end();
      return rows[0]!.id;
    })();

    const batchBodies = Array.from({ length: 20 }, (_, b) => batchJson(token, b * BATCH_EVENTS));
    const singleBodies = Array.from({ length: 1000 }, (_, n) => eventJson(n, token));
    const singleScript = join(scratch, 'single.lua');
    const batchScriptFile = join(scratch, 'batch.lua');
    await writeFile(singleScript, singleEventScript(token));
    await writeFile(batchScriptFile, batchScript(batchBodies));
    const bareTarget: Target = { url: `http://127.0.0.1:${bare.port}/i/v0/e/`, script: singleScript, bodies: singleBodies };
    const singleTarget: Target = { url: `http://127.0.0.1:${hedgerow.port}/i/v0/e/`, script: singleScript, bodies: singleBodies };
    const batchTarget: Target = { url: `http://127.0.0.1:${hedgerow.port}/batch/`, script: batchScriptFile, bodies: batchBodies };

    // Creates the benchmark's persons once, so that every round measures the steady state of known users.
    await load(singleTarget, 10, 2, 0);

    let peakRss = 0;
    const sampler = setInterval(() => {
      memoryOf(hedgerow.process.pid!)
        .then(({ rss }) => (peakRss = Math.max(peakRss, rss)))
        .catch(() => undefined);
    }, 250);
    const rounds: Round[] = [];
    try {
      for (let round = 1; round <= options.rounds; round += 1) {
        peakRss = 0;
        const bareLoad = await load(bareTarget, options.connections, options.duration, options.warmup);
        log(`round ${round}: bare ${format(bareLoad.perSecond)} req/s`);
        await load(singleTarget, options.connections, options.warmup, 0);
        let before = await countEvents(databaseUrl);
        const single = await load(singleTarget, options.connections, options.duration, 0);
        const singleStored = (await countEvents(databaseUrl)) - before;
        log(`round ${round}: /i/v0/e/ ${format(single.perSecond)} req/s, p99 ${format(single.p99, 1)} ms`);
        await load(batchTarget, options.batchConnections, options.warmup, 0);
        before = await countEvents(databaseUrl);
        const batch = await load(batchTarget, options.batchConnections, options.duration, 0);
        const batchStored = (await countEvents(databaseUrl)) - before;
        log(`round ${round}: /batch/ ${format(batch.perSecond * BATCH_EVENTS)} events/s`);
        const copy = await rawCopy(databaseUrl, teamId, options.duration);
        log(`round ${round}: raw COPY ${format(copy.perSecond)} rows/s`);
        rounds.push({ bare: bareLoad, single, batch, copy, rss: peakRss, singleStored, batchStored });
      }
    } finally {
      clearInterval(sampler);
    }
    const { peak } = await memoryOf(hedgerow.process.pid!);
    printTable(options, rounds, peak);
    process.stdout.write(`\nPeak resident memory of each Hedgerow process over the whole run:\n\n${processTable(await processPeaks(hedgerow.process.pid!)).join('\n')}\n`);
  } finally {
    for (const child of children.reverse()) await stop(child).catch(() => undefined);
    removeBuild();
    await rm(scratch, { recursive: true, force: true });
    await postgres.dropDatabase(name);
  }
}

function printTable(options: Options, rounds: Round[], peakMb: number): void {
  const rows: Array<[string, number[], number, string, string]> = [];
  const add = (label: string, values: number[], digits: number, target = '', pass = '') => {
    rows.push([label, values, digits, target, pass]);
  };
  const singleRatio = rounds.map((r) => r.single.perSecond / r.bare.perSecond);
  const batchEvents = rounds.map((r) => r.batch.perSecond * BATCH_EVENTS);
  const batchRatio = rounds.map((r, i) => batchEvents[i]! / r.copy.perSecond);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  add(`bare node:http, req/s (c=${options.connections})`, rounds.map((r) => r.bare.perSecond), 0);
  add('bare node:http, p99 ms', rounds.map((r) => r.bare.p99), 2);
  add(`Hedgerow POST /i/v0/e/, req/s (c=${options.connections})`, rounds.map((r) => r.single.perSecond), 0);
  add('Hedgerow POST /i/v0/e/, p50 ms', rounds.map((r) => r.single.p50), 2);
  add('Hedgerow POST /i/v0/e/, p99 ms', rounds.map((r) => r.single.p99), 2, '< 50', verdict(median(rounds.map((r) => r.single.p99)) < 50));
  add('single events / bare (ratio)', singleRatio, 3, '≥ 0.25', verdict(median(singleRatio) >= 0.25));
  add(`Hedgerow POST /batch/ (${BATCH_EVENTS} events), events/s (c=${options.batchConnections})`, batchEvents, 0);
  add('Hedgerow POST /batch/, p99 ms', rounds.map((r) => r.batch.p99), 2);
  add(`raw binary COPY through pg (${COPY_ROWS_PER_TRANSACTION} rows/tx), events/s`, rounds.map((r) => r.copy.perSecond), 0);
  add('/batch/ / raw COPY (ratio)', batchRatio, 3, '≥ 0.60', verdict(median(batchRatio) >= 0.6));
  // The targets are per process (the table after this one): the supervisor, each worker and the job engine's process.
  add('Hedgerow peak RSS during the round (all its processes), MB', rounds.map((r) => r.rss), 0);
  add('non-2xx answers (single + batch)', rounds.map((r) => r.single.errors + r.batch.errors), 0);
  add(
    'events stored / events acknowledged',
    rounds.map((r) => (r.singleStored + r.batchStored) / (r.single.requests + r.batch.requests * BATCH_EVENTS)),
    3,
    '≥ 1',
  );
  const header = ['measurement', ...rounds.map((_, i) => `round ${i + 1}`), 'median', 'target', 'verdict'];
  const lines = rows.map(([label, values, digits, target, pass]) => [
    label,
    ...values.map((v) => format(v, digits)),
    format(median(values), digits),
    target,
    pass,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i]!.length)));
  const render = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join(' | ')} |`;
  const out = [
    render(header),
    `|${widths.map((w, i) => (i === 0 ? ':' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|')}|`,
    ...lines.map(render),
    '',
    `Peak RSS of the Hedgerow processes over the whole run (sum of their VmHWM): ${format(peakMb)} MB. Workers: ${options.workers || 'default'}. Load generator: ${hasWrk ? 'wrk -t1' : 'autocannon'}.`,
    `Each round: per HTTP measurement ${options.warmup} s of warm-up, then ${options.duration} s measured; all back to back.`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}
