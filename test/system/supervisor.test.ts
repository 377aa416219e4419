/**
 * `npm start`'s supervisor (handlers/server/supervisor.ts), run as a user runs it, on the run's test database: worker
 * processes that share the port, one started again after it is killed under capture load (nothing acknowledged
 * lost, retries stored once), the rate limit counted once for all workers, and a graceful stop that stores
 * every acknowledged event.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connectionStringOf } from '../../db/pg/client.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { contractViolations } from '../helpers/contract.js';
import { HttpClient } from '../helpers/http.js';
import { isRunning, startServerProcess, type ServerProcess, stopServerProcess } from '../helpers/processes.js';

interface Health {
  status: 'ok';
  worker: { id: number; pid: number };
  workers: { configured: number; alive: number; restarts: number };
}

type Sent = Array<{ uuid: string; n: number }>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('system: the supervisor of npm start', function () {
  this.timeout(180_000);
  let account: Account;
  let databaseUrl: string;
  const servers: ServerProcess[] = [];

  before(async () => {
    account = await newAccount(testDb());
    databaseUrl = connectionStringOf(testDb());
  });

  after(async () => {
    for (const server of servers) await stopServerProcess(server);
  });

  const start = async (env: Record<string, string>) => {
    const server = await startServerProcess({ DATABASE_URL: databaseUrl, ...env });
    servers.push(server);
    return server;
  };

  /**
   * A request over a connection of its own, its answer checked against the spec: the supervisor's primary deals
   * connections to the workers in turn, while the test client's kept-alive ones stay with one worker.
   */
  function onNewConnection(baseUrl: string, method: string, path: string, json?: unknown): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
      const headers = json === undefined ? {} : { 'content-type': 'application/json' };
      const request = httpRequest(new URL(path, baseUrl), { method, headers, agent: false, timeout: 10_000 }, (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const contentType = response.headers['content-type'] ?? null;
          const body: unknown = contentType?.includes('json') ? JSON.parse(text) : text;
          const status = response.statusCode!;
          contractViolations({ method, path, status, contentType, body, text }).then((violations) => {
            if (violations.length > 0) reject(new Error(`Response breaks the contract:\n${violations.join('\n')}`));
            else resolve({ status, body });
          }, reject);
        });
      });
      request.on('timeout', () => request.destroy(new Error(`${method} ${path} did not answer`)));
      request.on('error', reject);
      request.end(json === undefined ? undefined : JSON.stringify(json));
    });
  }

  async function healthOnNewConnection(baseUrl: string): Promise<Health> {
    const { status, body } = await onNewConnection(baseUrl, 'GET', '/_health');
    expect(status).to.equal(200);
    return body as Health;
  }

  /**
   * `/_health` on new connections, at least `count` times, then a little apart until two workers have answered (at
   * most 100): the primary hands each new connection to a free worker, and on a loaded machine one worker may
   * take many in a row.
   */
  async function healthFromMany(baseUrl: string, count = 8): Promise<Health[]> {
    const answers: Health[] = [];
    const served = () => new Set(answers.map((health) => health.worker.pid)).size;
    while (answers.length < count || (served() < 2 && answers.length < 100)) {
      if (answers.length >= count) await new Promise((resolve) => setTimeout(resolve, 50));
      answers.push(await healthOnNewConnection(baseUrl));
    }
    return answers;
  }

  /**
   * One event per request, or a batch of five, alternately: what the SDKs send, and as they do, giving up on a
   * request after a while. A connection that node:cluster's primary was handing to a worker when it was killed
   * is never answered nor closed: the primary keeps it until the client gives up.
   */
  async function send(baseUrl: string, events: Sent): Promise<number> {
    const batch = events.map(({ uuid, n }) => ({ event: 'load', distinct_id: `user-${n % 17}`, uuid, properties: { n } }));
    const [path, body] =
      events.length === 1
        ? ['/i/v0/e/', JSON.stringify({ api_key: account.environment.api_token, ...batch[0] })]
        : ['/batch/', JSON.stringify({ api_key: account.environment.api_token, batch })];
    const response = await fetch(new URL(path, baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  }

  /**
   * Clients capturing until stopped (or, with `untilError`, until a request fails); what they sent and what was
   * acknowledged. A client re-sends a request that failed until it is acknowledged, as the SDKs do.
   */
  function captureLoad(baseUrl: string, clients: number, options: { untilError: boolean }) {
    const attempted: Sent[] = [];
    const acknowledged: string[] = [];
    let failures = 0;
    let stopped = false;
    let n = 0;
    const client = async () => {
      let retrying: Sent | null = null;
      while (!stopped) {
        const events: Sent = retrying ?? Array.from({ length: attempted.length % 2 ? 5 : 1 }, () => ({ uuid: randomUUID(), n: n++ }));
        if (!retrying) attempted.push(events);
        retrying = null;
        let status = 0;
        try {
          status = await send(baseUrl, events);
        } catch {
          if (options.untilError) return;
        }
        if (status === 200) acknowledged.push(...events.map((event) => event.uuid));
        else {
          failures += 1;
          retrying = events;
          await sleep(10);
        }
      }
    };
    const running = Array.from({ length: clients }, () => client());
    return {
      attempted,
      acknowledged,
      failures: () => failures,
      async stop() {
        stopped = true;
        await Promise.all(running);
      },
      finished: () => Promise.all(running),
    };
  }

  async function waitFor(condition: () => boolean | Promise<boolean>, what: string, withinMs = 60_000): Promise<void> {
    const deadline = Date.now() + withinMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`not within ${withinMs} ms: ${what}`);
      await sleep(25);
    }
  }

  async function countStored(uuids: string[]): Promise<number> {
    const rows = await testDb()('events').where({ team_id: account.environment.id }).whereIn('uuid', uuids).count<{ count: string }[]>('* as count');
    return Number(rows[0]!.count);
  }

  it('starts a worker killed by SIGKILL under capture load again, loses nothing acknowledged, and stores retries once', async () => {
    const server = await start({ HEDGEROW_WORKERS: '2', HEDGEROW_RATE_LIMIT_PER_MINUTE: '0' });
    const http = new HttpClient(server.baseUrl);
    const before = await healthFromMany(server.baseUrl);
    const pids = new Set(before.map((health) => health.worker.pid));
    expect(pids.size).to.equal(2);
    const victim = [...pids][0]!;

    const load = captureLoad(server.baseUrl, 16, { untilError: false });
    try {
      await waitFor(() => load.acknowledged.length >= 600, '600 events acknowledged');
      process.kill(victim, 'SIGKILL');
      await waitFor(async () => {
        // A kept-alive connection to the killed worker fails once; the next request takes another.
        const health = await http.get<Health>('/_health').then((answer) => answer.body, () => null);
        return health?.workers.restarts === 1 && health.workers.alive === 2;
      }, 'the supervisor reports the restart and two workers alive');
      const acknowledgedAtRestart = load.acknowledged.length;
      await waitFor(() => load.acknowledged.length >= acknowledgedAtRestart + 300, '300 more events acknowledged after the restart');
    } finally {
      await load.stop();
    }
    expect(isRunning(victim)).to.equal(false);

    // The new worker serves too.
    const after = await healthFromMany(server.baseUrl);
    for (const health of after) expect(health.workers).to.deep.equal({ configured: 2, alive: 2, restarts: 1 });
    const pidsAfter = new Set(after.map((health) => health.worker.pid));
    expect(pidsAfter.size).to.equal(2);
    expect(pidsAfter.has(victim)).to.equal(false);

    // Every acknowledged event is stored, once, and some requests failed (those to the killed worker).
    expect(await countStored(load.acknowledged)).to.equal(load.acknowledged.length);
    expect(load.failures()).to.be.greaterThan(0);
    // The SDKs re-send what failed (and sometimes what was acknowledged): everything is then stored exactly once.
    const resend = [...load.attempted];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let events = resend.pop(); events; events = resend.pop()) expect(await send(server.baseUrl, events)).to.equal(200);
      }),
    );
    const all = load.attempted.flat();
    const rows = await testDb()('events').where({ team_id: account.environment.id }).whereIn('uuid', all.map((event) => event.uuid)).select('uuid');
    expect(rows.length).to.equal(all.length);
    expect(new Set(rows.map((row) => row.uuid))).to.deep.equal(new Set(all.map((event) => event.uuid)));
  });

  it('serves from two worker processes, counts the metrics and the rate limit once for both, and stores every acknowledged event when stopped', async () => {
    const server = await start({ HEDGEROW_WORKERS: '2', HEDGEROW_RATE_LIMIT_PER_MINUTE: '5' });
    const http = new HttpClient(server.baseUrl, account.key);
    const healths = await healthFromMany(server.baseUrl);
    const pids = new Set(healths.map((health) => health.worker.pid));
    expect(pids.size).to.equal(2);
    expect(pids.has(server.child.pid!)).to.equal(false);
    expect(new Set(healths.map((health) => health.worker.id))).to.deep.equal(new Set([1, 2]));
    for (const health of healths) expect(health.workers).to.deep.equal({ configured: 2, alive: 2, restarts: 0 });

    // /_metrics counts what every worker did, whichever one answers.
    for (let n = 0; n < 10; n += 1) {
      const event = { api_key: account.environment.api_token, event: 'counted', distinct_id: `counted-${n}`, uuid: randomUUID() };
      expect((await onNewConnection(server.baseUrl, 'POST', '/i/v0/e/', event)).status).to.equal(200);
    }
    const metrics = (await http.get<string>('/_metrics')).body;
    expect(metrics).to.match(/^hedgerow_capture_events_ingested_total 10$/m);
    expect(metrics).to.match(/^hedgerow_workers_alive 2$/m);
    expect(metrics.match(/^process_resident_memory_bytes\{worker="\d+"\} \d+$/gm)).to.have.length(2);

    // One key's budget is 5 a minute whichever worker answers (requests over several connections at once).
    const statuses = (await Promise.all(Array.from({ length: 12 }, () => http.get('/api/projects/')))).map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).to.have.length(5);
    expect(statuses.filter((status) => status === 429)).to.have.length(7);

    const load = captureLoad(server.baseUrl, 12, { untilError: true });
    try {
      await waitFor(() => load.acknowledged.length >= 600, '600 events acknowledged');
    } finally {
      server.child.kill('SIGTERM');
    }
    expect(await server.exited).to.equal(0);
    await load.finished();
    for (const pid of pids) expect(isRunning(pid), `worker ${pid} still running`).to.equal(false);
    expect(await countStored(load.acknowledged)).to.equal(load.acknowledged.length);
  });
});
