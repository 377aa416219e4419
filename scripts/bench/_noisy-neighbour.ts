/**
 * The hostile benchmark's noisy-neighbour round (`npm run bench -- hostile --round noisy`).
 *
 * Two organizations on one server, each with its own environment and personal API key. Environment B runs a
 * steady trivial load: `SELECT count() FROM events` over its few events, synchronously one at a time, and the
 * same query asynchronously (submitted, then polled until complete), one at a time. It runs first alone, then
 * while environment A saturates its query shares: `--a-sync` concurrent synchronous queries that each run for
 * seconds (A's events joined with themselves), every one sent again as soon as it is answered, and `--a-async`
 * asynchronous ones of the same kind, each submitted again once complete, so that the queue stays full. A 429
 * is A's share being enforced: A waits its `Retry-After` and asks again, so that it saturates whatever share it
 * has. Measured in the same run: B's p50 and p99 alone and beside A, and the peak resident memory of every
 * process of the server (the process started and its descendants, found through /proc). Targets: B's p99 at
 * most twice B's p99 alone; every process under 512 MB.
 */
import { setMaxListeners } from 'node:events';
import http from 'node:http';
import { readdir, readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createDb } from '../../db/pg/client.js';
import { bootstrap } from '../../db/queries/bootstrap.js';
import { postgres, startHedgerow, stop, type Child } from './capture.js';
import { percentile } from './_processes.js';

export interface NoisyOptions {
  /** Seconds B is measured alone, and again beside A. */
  noisyDuration: number;
  /** Seconds A runs before B is measured beside it, so that A's queries fill the server first. */
  noisyWarmup: number;
  /** A's concurrent synchronous queries. */
  aSync: number;
  /** A's asynchronous queries kept submitted. */
  aAsync: number;
  /** A's events: its long query counts them joined with themselves five times. */
  aEvents: number;
  /** B's events. */
  bEvents: number;
}

export const NOISY_DEFAULTS: NoisyOptions = { noisyDuration: 20, noisyWarmup: 3, aSync: 16, aAsync: 10, aEvents: 35, bEvents: 100 };

/** B's query: trivial over a small environment. */
const TRIVIAL_QUERY = 'SELECT count() FROM events';
/** A's query: 35 events joined five times over are about 50 million rows to count, seconds of one CPU. */
const LONG_QUERY = `SELECT count() FROM events a ${'bcde'
  .split('')
  .map((alias) => `JOIN events ${alias} ON 1 = 1`)
  .join(' ')}`;

/** Bounds of every loop, whatever the durations: requests per loop, and a whole request's wait. */
const MAX_REQUESTS_PER_LOOP = 20_000;
const REQUEST_TIMEOUT_MS = 60_000;
/** Longest B waits for one asynchronous query before it is counted as not answered. */
const ASYNC_DEADLINE_MS = 120_000;
const B_PAUSE_MS = 50;
const B_POLL_MS = 50;
const A_POLL_MS = 1000;
/** Longest A honours a Retry-After: the round is short, and A must keep asking to saturate. */
const MAX_RETRY_AFTER_MS = 10_000;

interface Answer {
  status: number;
  body: string;
  retryAfterMs: number | null;
  ms: number;
}

interface Tenant {
  environmentId: number;
  projectToken: string;
  key: string;
}

function ask(port: number, agent: http.Agent, method: string, path: string, key: string, body?: unknown, signal?: AbortSignal): Promise<Answer> {
  const started = performance.now();
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve) => {
    const answer = (status: number, text = '', retryAfter: string | undefined = undefined) => {
      const seconds = retryAfter === undefined ? Number.NaN : Number(retryAfter);
      resolve({ status, body: text, retryAfterMs: Number.isFinite(seconds) ? seconds * 1000 : null, ms: performance.now() - started });
    };
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent,
        signal,
        headers: {
          authorization: `Bearer ${key}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => answer(response.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), response.headers['retry-after'] as string | undefined));
        response.on('error', () => answer(0));
      },
    );
    request.setTimeout(REQUEST_TIMEOUT_MS, () => request.destroy());
    request.on('error', () => answer(0));
    request.end(payload);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class Tally {
  readonly counts = new Map<string, number>();
  add(what: string | number): void {
    this.counts.set(String(what), (this.counts.get(String(what)) ?? 0) + 1);
  }
  toString(): string {
    return [...this.counts].sort(([a], [b]) => a.localeCompare(b)).map(([what, count]) => `${what} × ${count}`).join(', ') || 'none';
  }
}

// ---------------------------------------------------------------------------------------------------------
// The server's processes

interface ProcessSeen {
  pid: number;
  role: string;
  /** The highest resident memory sampled in each phase, MB. */
  peaks: Map<string, number>;
  /** The kernel's high-water mark (VmHWM) last read, MB: the process's peak over its life. */
  highWater: number;
  gone: boolean;
}

async function statusOf(pid: number): Promise<{ rss: number; highWater: number } | null> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  if (text === null) return null;
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, highWater: kb('VmHWM') / 1024 };
}

async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const lists = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')));
  return lists.flatMap((list) => list.split(' ').filter(Boolean).map(Number));
}

async function commandOf(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').filter(Boolean);
}

/**
 * Samples the resident memory of the server's process tree: the process started is the supervisor; a
 * descendant started with the same command line is a worker (node:cluster forks the primary's script), any
 * other is named by its script (a jobs process, say).
 */
class TreeSampler {
  readonly seen = new Map<number, ProcessSeen>();
  phase = 'idle';
  private timer: NodeJS.Timeout | null = null;
  private rootCommand: string[] = [];

  constructor(private readonly root: number) {}

  async start(): Promise<void> {
    this.rootCommand = await commandOf(this.root);
    await this.sample();
    this.timer = setInterval(() => void this.sample().catch(() => undefined), 200);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sample();
  }

  private async roleOf(pid: number, depth: number): Promise<string> {
    if (depth === 0) return 'supervisor';
    const command = await commandOf(pid);
    if (command.join(' ') === this.rootCommand.join(' ')) return 'worker';
    const script = command.slice(1).find((arg) => /\.(js|ts|mjs)$/.test(arg));
    return script ? basename(script) : basename(command[0] ?? 'process');
  }

  async sample(): Promise<void> {
    const alive = new Set<number>();
    const visit = async (pid: number, depth: number): Promise<void> => {
      const status = await statusOf(pid);
      if (!status) return;
      alive.add(pid);
      let seen = this.seen.get(pid);
      if (!seen) {
        seen = { pid, role: await this.roleOf(pid, depth), peaks: new Map(), highWater: 0, gone: false };
        this.seen.set(pid, seen);
      }
      seen.peaks.set(this.phase, Math.max(seen.peaks.get(this.phase) ?? 0, status.rss));
      seen.highWater = Math.max(seen.highWater, status.highWater);
      await Promise.all((await childrenOf(pid)).map((child) => visit(child, depth + 1)));
    };
    await visit(this.root, 0);
    for (const seen of this.seen.values()) seen.gone = !alive.has(seen.pid);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The load

interface Samples {
  sync: number[];
  syncStatuses: Tally;
  async: number[];
  asyncOutcomes: Tally;
}

/** B's steady load until `until()` is false: both loops one request at a time. */
async function steadyTrivialLoad(port: number, tenant: Tenant, until: () => boolean): Promise<Samples> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const path = `/api/environments/${tenant.environmentId}/query/`;
  const samples: Samples = { sync: [], syncStatuses: new Tally(), async: [], asyncOutcomes: new Tally() };
  const syncLoop = async () => {
    for (let n = 0; n < MAX_REQUESTS_PER_LOOP && until(); n += 1) {
      const answer = await ask(port, agent, 'POST', path, tenant.key, { query: { kind: 'HogQLQuery', query: TRIVIAL_QUERY } });
      samples.sync.push(answer.ms);
      samples.syncStatuses.add(answer.status);
      await sleep(B_PAUSE_MS);
    }
  };
  const asyncLoop = async () => {
    for (let n = 0; n < MAX_REQUESTS_PER_LOOP && until(); n += 1) {
      const started = performance.now();
      const submitted = await ask(port, agent, 'POST', path, tenant.key, { query: { kind: 'HogQLQuery', query: TRIVIAL_QUERY }, refresh: 'async' });
      let outcome = `submit ${submitted.status}`;
      if (submitted.status === 202 || submitted.status === 200) {
        const id = (JSON.parse(submitted.body) as { query_status: { id: string } }).query_status.id;
        let status = submitted.status;
        // Polled to the end even when the phase ends meanwhile: its time is part of the phase.
        for (let polls = 0; status === 202 && performance.now() - started < ASYNC_DEADLINE_MS && polls < MAX_REQUESTS_PER_LOOP; polls += 1) {
          await sleep(B_POLL_MS);
          status = (await ask(port, agent, 'GET', `${path}${id}/`, tenant.key)).status;
        }
        outcome = status === 202 ? 'not complete in time' : `complete ${status}`;
      }
      samples.async.push(performance.now() - started);
      samples.asyncOutcomes.add(outcome);
      await sleep(B_PAUSE_MS);
    }
  };
  await Promise.all([syncLoop(), asyncLoop()]);
  agent.destroy();
  return samples;
}

interface Saturation {
  syncStatuses: Tally;
  asyncSubmits: Tally;
  asyncOutcomes: Tally;
  /** Stops A: aborts its requests in flight and cancels its queued queries. */
  stop(): Promise<void>;
}

/** A saturates its shares until stopped. */
function saturate(port: number, tenant: Tenant, options: NoisyOptions): Saturation {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.aSync + options.aAsync + 2 });
  const path = `/api/environments/${tenant.environmentId}/query/`;
  const abort = new AbortController();
  // Every request of A listens to the one signal that stops them all.
  setMaxListeners(0, abort.signal);
  const stopped = () => abort.signal.aborted;
  const syncStatuses = new Tally();
  const asyncSubmits = new Tally();
  const asyncOutcomes = new Tally();
  const pending = new Set<string>();
  const long = { kind: 'HogQLQuery', query: LONG_QUERY };
  const backOff = (answer: Answer) =>
    answer.status === 429 ? sleep(Math.min(answer.retryAfterMs ?? 1000, MAX_RETRY_AFTER_MS)) : answer.status >= 500 || answer.status === 0 ? sleep(250) : null;

  const syncLoop = async () => {
    for (let n = 0; n < MAX_REQUESTS_PER_LOOP && !stopped(); n += 1) {
      const answer = await ask(port, agent, 'POST', path, tenant.key, { query: long }, abort.signal);
      if (stopped()) return;
      syncStatuses.add(answer.status);
      await backOff(answer);
    }
  };
  const asyncLoop = async () => {
    for (let n = 0; n < MAX_REQUESTS_PER_LOOP && !stopped(); n += 1) {
      const submitted = await ask(port, agent, 'POST', path, tenant.key, { query: long, refresh: 'async' }, abort.signal);
      if (stopped()) return;
      asyncSubmits.add(submitted.status);
      if (submitted.status !== 202) {
        await backOff(submitted);
        continue;
      }
      const id = (JSON.parse(submitted.body) as { query_status: { id: string } }).query_status.id;
      pending.add(id);
      let status = 202;
      for (let polls = 0; status === 202 && !stopped() && polls < MAX_REQUESTS_PER_LOOP; polls += 1) {
        await sleep(A_POLL_MS);
        if (!stopped()) status = (await ask(port, agent, 'GET', `${path}${id}/`, tenant.key, undefined, abort.signal)).status;
      }
      if (stopped()) return;
      pending.delete(id);
      asyncOutcomes.add(status);
    }
  };
  const loops = [...Array.from({ length: options.aSync }, syncLoop), ...Array.from({ length: options.aAsync }, asyncLoop)];
  return {
    syncStatuses,
    asyncSubmits,
    asyncOutcomes,
    async stop() {
      abort.abort();
      await Promise.all(loops);
      agent.destroy();
      const cancels = new http.Agent({ keepAlive: true, maxSockets: 4 });
      await Promise.all([...pending].map((id) => ask(port, cancels, 'DELETE', `${path}${id}/`, tenant.key)));
      cancels.destroy();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------

async function captureEvents(port: number, tenant: Tenant, count: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: false });
  const batch = Array.from({ length: count }, (_, n) => ({
    event: n % 2 ? '$pageview' : 'signed up',
    distinct_id: `user-${n % 10}`,
    properties: { n },
    timestamp: '2026-11-21T10:00:00.000Z',
  }));
  const answer = await ask(port, agent, 'POST', '/batch/', '', { api_key: tenant.projectToken, batch });
  agent.destroy();
  if (answer.status !== 200) throw new Error(`capture answered ${answer.status}: ${answer.body}`);
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

export async function noisyNeighbourRound(build: { command: string; args: string[] }, options: NoisyOptions, log: (line: string) => void): Promise<string[]> {
  const name = await postgres.createDatabase('hedgerow_bench_noisy');
  const databaseUrl = postgres.databaseUrl(name);
  let server: Child | null = null;
  let saturation: Saturation | null = null;
  let sampler: TreeSampler | null = null;
  const db = createDb(databaseUrl, { poolMax: 1 });
  try {
    server = await startHedgerow(build, databaseUrl);
    const { port } = server;
    sampler = new TreeSampler(server.process.pid!);
    await sampler.start();

    const tenant = async (label: string): Promise<Tenant> => {
      const made = await bootstrap(db, { email: `${label}@hedgerow.local`, organizationName: label, projectName: label });
      return { environmentId: made.project_id, projectToken: made.project_api_key, key: made.personal_api_key };
    };
    const a = await tenant('noisy-a');
    const b = await tenant('noisy-b');
    await captureEvents(port, a, options.aEvents);
    await captureEvents(port, b, options.bEvents);
    const stored = async (team: Tenant) =>
      Number(((await db('events').where({ team_id: team.environmentId }).count('* as n')) as [{ n: string }])[0].n);
    if ((await stored(a)) !== options.aEvents || (await stored(b)) !== options.bEvents) throw new Error('the events were not all stored');

    // One of A's queries alone, so that the table says how long A's queries are when they are not crowded.
    const probeAgent = new http.Agent({ keepAlive: false });
    const aAlone = await ask(port, probeAgent, 'POST', `/api/environments/${a.environmentId}/query/`, a.key, { query: { kind: 'HogQLQuery', query: LONG_QUERY } });
    probeAgent.destroy();
    log(`noisy: one of A's queries alone answered ${aAlone.status} in ${fixed(aAlone.ms / 1000, 1)} s`);

    log(`noisy: B alone for ${options.noisyDuration} s`);
    sampler.phase = 'B alone';
    const aloneUntil = performance.now() + options.noisyDuration * 1000;
    const alone = await steadyTrivialLoad(port, b, () => performance.now() < aloneUntil);

    log(`noisy: A saturating (${options.aSync} synchronous, ${options.aAsync} asynchronous), B measured after ${options.noisyWarmup} s for ${options.noisyDuration} s`);
    sampler.phase = 'A saturating';
    const aLoad = saturate(port, a, options);
    saturation = aLoad;
    await sleep(options.noisyWarmup * 1000);
    const besideUntil = performance.now() + options.noisyDuration * 1000;
    const beside = await steadyTrivialLoad(port, b, () => performance.now() < besideUntil);
    saturation = null;
    await aLoad.stop();
    await sampler.stop();

    const p = (values: number[], q: number) => (values.length ? percentile(values, q) : Number.NaN);
    const ratio = (values: number[], base: number[], q: number) => p(values, q) / p(base, q);
    const syncRatio = ratio(beside.sync, alone.sync, 99);
    const asyncRatio = ratio(beside.async, alone.async, 99);
    const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
    const processes = [...sampler.seen.values()];
    const peakOf = (seen: ProcessSeen) => Math.max(seen.highWater, ...seen.peaks.values());
    const lines = [
      `Noisy neighbour: B (\`${TRIVIAL_QUERY}\` over ${options.bEvents} events) alone, then beside A (${options.aSync} synchronous and ${options.aAsync} asynchronous queries at once, each ${options.aEvents} events joined five times over; one alone: ${aAlone.status} in ${fixed(aAlone.ms / 1000, 1)} s); ${options.noisyDuration} s each.`,
      '',
      '| B\'s query | alone: answers; p50 / p99, ms | beside A: answers; p50 / p99, ms | p99 beside ÷ alone | target | verdict |',
      '| :-- | --: | --: | --: | --: | :-- |',
      `| synchronous | ${alone.sync.length}; ${fixed(p(alone.sync, 50))} / ${fixed(p(alone.sync, 99))} | ${beside.sync.length}; ${fixed(p(beside.sync, 50))} / ${fixed(p(beside.sync, 99))} | ${fixed(syncRatio, 1)}× | ≤ 2× | ${verdict(syncRatio <= 2)} |`,
      `| asynchronous, submit to complete | ${alone.async.length}; ${fixed(p(alone.async, 50))} / ${fixed(p(alone.async, 99))} | ${beside.async.length}; ${fixed(p(beside.async, 50))} / ${fixed(p(beside.async, 99))} | ${fixed(asyncRatio, 1)}× | ≤ 2× | ${verdict(asyncRatio <= 2)} |`,
      '',
      '| answers | alone | beside A |',
      '| :-- | :-- | :-- |',
      `| B synchronous (status × count) | ${alone.syncStatuses} | ${beside.syncStatuses} |`,
      `| B asynchronous (outcome × count) | ${alone.asyncOutcomes} | ${beside.asyncOutcomes} |`,
      `| B max, synchronous / asynchronous, ms | ${fixed(Math.max(...alone.sync))} / ${fixed(Math.max(...alone.async))} | ${fixed(Math.max(...beside.sync))} / ${fixed(Math.max(...beside.async))} |`,
      `| A synchronous (status × count) | | ${aLoad.syncStatuses} |`,
      `| A asynchronous submits (status × count) | | ${aLoad.asyncSubmits} |`,
      `| A asynchronous, status when complete (status × count; 0: the read failed) | | ${aLoad.asyncOutcomes} |`,
      '',
      '| process | pid | RSS idle, MB | peak B alone, MB | peak A saturating, MB | VmHWM, MB | target | verdict |',
      '| :-- | --: | --: | --: | --: | --: | --: | :-- |',
      ...processes.map(
        (seen) =>
          `| ${seen.role}${seen.gone ? ' (exited)' : ''} | ${seen.pid} | ${fixed(seen.peaks.get('idle') ?? Number.NaN)} | ${fixed(seen.peaks.get('B alone') ?? Number.NaN)} | ${fixed(seen.peaks.get('A saturating') ?? Number.NaN)} | ${fixed(seen.highWater)} | < 512 | ${verdict(peakOf(seen) < 512)} |`,
      ),
      '',
      'Status 0: no answer (connection failed or 60 s passed). A 429 is a share enforced: A waited its Retry-After and asked again.',
    ];
    return lines;
  } finally {
    if (saturation) await saturation.stop().catch(() => undefined);
    if (sampler) await sampler.stop().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    if (server) await stop(server).catch(() => undefined);
    await postgres.dropDatabase(name);
  }
}
