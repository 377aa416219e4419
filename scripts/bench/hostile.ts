/**
 * `npm run bench -- hostile [--round all|flood|noisy] [--duration 20] [--connections 50] [--noisy-duration 20]
 *  [--noisy-warmup 3] [--a-sync 16] [--a-async 10] [--a-events 35] [--b-events 100]`
 *
 * Two rounds, each on a server of its own (`--round` runs one of them):
 *
 * flood: the server under the worst small inputs capture knows of (test/helpers/hostile.ts: gzips of a few tens of
 * kilobytes that inflate to 25 MiB of empty events, with a valid key, a wrong one or none; one 25 MiB event;
 * gzip bombs), sent by `--connections` connections at once for `--duration` seconds, against the same server
 * idle. Measured side by side in one run: `/_health` latency (one probe every 20 ms, as a load balancer's would
 * be, on a connection of its own) and the server's resident memory (sampled every 100 ms, and its peak from
 * /proc). Targets: peak RSS under 512 MB, `/_health` p99 under 100 ms while attacked.
 *
 * noisy: one environment saturating its query shares beside another's steady trivial queries
 * (scripts/bench/_noisy-neighbour.ts). Targets: the other's p99 at most twice its p99 alone, every process
 * under 512 MB.
 */
import http from 'node:http';
import pg from 'pg';
import { privateBuild } from '../build.js';
import {
  emptyArrayFlood,
  emptyEventFlood,
  emptyEventFloodKeyLast,
  gzipBomb,
  hugeEvent,
  type HostilePayload,
} from '../../test/helpers/hostile.js';
import { memoryOf, postgres, startHedgerow, stop, type Child } from './capture.js';
import { NOISY_DEFAULTS, noisyNeighbourRound, type NoisyOptions } from './_noisy-neighbour.js';

const ROUNDS = ['all', 'flood', 'noisy'] as const;

interface Options extends NoisyOptions {
  duration: number;
  connections: number;
}

function parseOptions(args: string[]): { options: Options; round: (typeof ROUNDS)[number] } {
  const options: Options = { duration: 20, connections: 50, ...NOISY_DEFAULTS };
  let round: (typeof ROUNDS)[number] = 'all';
  for (let index = 0; index < args.length; index += 2) {
    if (args[index] === '--round') {
      const value = args[index + 1] as (typeof ROUNDS)[number];
      if (!ROUNDS.includes(value)) throw new Error(`bad option --round ${value}: one of ${ROUNDS.join(', ')}`);
      round = value;
      continue;
    }
    const key = args[index]!.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof Options;
    const value = Number(args[index + 1]);
    if (!(key in options) || !Number.isFinite(value) || value <= 0) throw new Error(`bad option ${args[index]} ${args[index + 1]}`);
    options[key] = value;
  }
  return { options, round };
}

function post(agent: http.Agent, port: number, payload: HostilePayload): Promise<number> {
  return new Promise((resolve) => {
    const request = http.request(
      { host: '127.0.0.1', port, path: '/batch/', method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': payload.body.length } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.setTimeout(120_000, () => request.destroy());
    request.on('error', () => resolve(0));
    request.end(payload.body);
  });
}

/** One `/_health` probe every 20 ms until `until()` is false; returns the latencies in ms. */
async function probeHealth(port: number, until: () => boolean): Promise<{ latencies: number[]; failures: number }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let failures = 0;
  while (until()) {
    const started = performance.now();
    const status = await new Promise<number>((resolve) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/_health', agent }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.setTimeout(10_000, () => request.destroy());
      request.on('error', () => resolve(0));
    });
    latencies.push(performance.now() - started);
    if (status !== 200) failures += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  agent.destroy();
  return { latencies, failures };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

const log = (line: string) => process.stderr.write(`${line}\n`);

export async function run(args: string[]): Promise<void> {
  const { options, round } = parseOptions(args);
  const build = await privateBuild('bench');
  try {
    if (round !== 'noisy') await floodRound(build, options);
    if (round === 'all') process.stdout.write('\n');
    if (round !== 'flood') process.stdout.write(`${(await noisyNeighbourRound(build, options, log)).join('\n')}\n`);
  } finally {
    build.remove();
  }
}

async function floodRound(build: { command: string; args: string[] }, options: Options): Promise<void> {
  const name = await postgres.createDatabase('hedgerow_bench');
  const databaseUrl = postgres.databaseUrl(name);
  let server: Child | null = null;
  try {
    server = await startHedgerow(build, databaseUrl);
    const token = /Project API key:\s+(phc_\w+)/.exec(server.output.join(''))?.[1];
    if (!token) throw new Error(`no project API key in Hedgerow's first-run output:\n${server.output.join('')}`);
    const { port } = server;
    const pid = server.process.pid!;

    log('building the payloads');
    const payloads = [
      emptyEventFlood({ key: token }),
      emptyEventFlood('wrong'),
      emptyEventFlood('none'),
      emptyEventFloodKeyLast({ key: token }),
      emptyEventFloodKeyLast('wrong'),
      emptyArrayFlood(),
      hugeEvent({ key: token }),
      gzipBomb(),
    ];

    log('idle: /_health for 5 s');
    const idleUntil = performance.now() + 5000;
    const idle = await probeHealth(port, () => performance.now() < idleUntil);
    const idleRss = (await memoryOf(pid)).rss;

    log(`attack: ${options.connections} connections for ${options.duration} s`);
    let peakRss = idleRss;
    const sampler = setInterval(() => {
      memoryOf(pid)
        .then(({ rss }) => (peakRss = Math.max(peakRss, rss)))
        .catch(() => undefined);
    }, 100);
    const attackUntil = performance.now() + options.duration * 1000;
    const answers = new Map<string, Map<number, number>>();
    const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
    const attackers = Array.from({ length: options.connections }, async (_, connection) => {
      let turn = connection;
      while (performance.now() < attackUntil) {
        const payload = payloads[turn % payloads.length]!;
        turn += 1;
        const status = await post(agent, port, payload);
        const byStatus = answers.get(payload.name) ?? new Map<number, number>();
        byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
        answers.set(payload.name, byStatus);
      }
    });
    const attacked = await probeHealth(port, () => performance.now() < attackUntil);
    await Promise.all(attackers);
    clearInterval(sampler);
    agent.destroy();
    const peakFromKernel = (await memoryOf(pid)).peak;
    const afterRss = (await memoryOf(pid)).rss;
    const stored = await (async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const { rows } = await client.query<{ count: string }>('select count(*) from events');
      await client.end();
      return Number(rows[0]!.count);
    })();

    const p99Idle = percentile(idle.latencies, 99);
    const p99Attacked = percentile(attacked.latencies, 99);
    const peak = Math.max(peakRss, peakFromKernel);
    const lines = [
      '| measurement | idle | under attack | target | verdict |',
      '| :-- | --: | --: | --: | :-- |',
      `| \`/_health\` p50, ms | ${fixed(percentile(idle.latencies, 50))} | ${fixed(percentile(attacked.latencies, 50))} | | |`,
      `| \`/_health\` p99, ms | ${fixed(p99Idle)} | ${fixed(p99Attacked)} | < 100 | ${p99Attacked < 100 ? 'met' : 'NOT met'} |`,
      `| \`/_health\` max, ms | ${fixed(Math.max(...idle.latencies))} | ${fixed(Math.max(...attacked.latencies))} | | |`,
      `| \`/_health\` probes (failed) | ${idle.latencies.length} (${idle.failures}) | ${attacked.latencies.length} (${attacked.failures}) | | |`,
      `| server RSS, MB (peak under attack; after) | ${fixed(idleRss, 0)} | ${fixed(peak, 0)}; ${fixed(afterRss, 0)} | < 512 | ${peak < 512 ? 'met' : 'NOT met'} |`,
      '',
      '| payload | gzip bytes | inflates to | answers (status × count) |',
      '| :-- | --: | --: | :-- |',
      ...payloads.map((payload) => {
        const byStatus = [...(answers.get(payload.name) ?? new Map<number, number>())].map(([status, count]) => `${status} × ${count}`);
        return `| ${payload.name} | ${payload.body.length.toLocaleString('en-US')} | ${payload.decodedBytes.toLocaleString('en-US')} | ${byStatus.join(', ')} |`;
      }),
      '',
      `Events stored by the attack: ${stored} (every payload above stores nothing). Status 0: the connection failed.`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    if (server) await stop(server).catch(() => undefined);
    await postgres.dropDatabase(name);
  }
}
