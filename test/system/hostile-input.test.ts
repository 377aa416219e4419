/**
 * The server (its own process, as `npm start` runs it) under small requests that expand into large work
 * (test/helpers/hostile.ts), several at once: gzips of about 25 KB that inflate to 25 MiB of empty events
 * with a valid key, a wrong one or none, one 25 MiB event, an array of millions of empty arrays, and gzip
 * bombs. Each gets its answer (after any 503 `capture_busy`, sent again as the SDKs do), `/_health` keeps
 * answering meanwhile, the server stays up within its memory, and nothing of it is stored. The targets (RSS
 * under 512 MB, `/_health` p99 under 100 ms) are the benchmark's (`npm run bench -- hostile`);
 * the bounds here are loose enough for a loaded machine and far below what the unbounded server took.
 */
import { expect } from 'chai';
import { readFile, readdir } from 'node:fs/promises';
import { connectionStringOf } from '../../db/pg/client.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import {
  emptyArrayFlood,
  emptyEventFlood,
  emptyEventFloodKeyLast,
  gzipBomb,
  hugeEvent,
  type HostilePayload,
} from '../helpers/hostile.js';
import { startServerProcess, type ServerProcess, stopServerProcess } from '../helpers/processes.js';

/** Resident memory of a process and all its descendants, in MB (Linux /proc). */
async function treeRssMb(pid: number): Promise<number> {
  let kilobytes = 0;
  const visit = async (id: number) => {
    const status = await readFile(`/proc/${id}/status`, 'utf8').catch(() => '');
    kilobytes += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    for (const task of await readdir(`/proc/${id}/task`).catch(() => [] as string[])) {
      const children = await readFile(`/proc/${id}/task/${task}/children`, 'utf8').catch(() => '');
      for (const child of children.split(' ').filter(Boolean)) await visit(Number(child));
    }
  };
  await visit(pid);
  return kilobytes / 1024;
}

describe('capture under hostile input', function () {
  this.timeout(180_000);
  let account: Account;
  let server: ServerProcess;

  before(async () => {
    account = await newAccount(testDb());
    const databaseUrl = connectionStringOf(testDb());
    // The job engine's process takes no part in capture and holds the same idle whatever capture does: left out,
    // so that the memory measured is the supervisor's and the capture workers'.
    server = await startServerProcess({ DATABASE_URL: databaseUrl, HEDGEROW_RATE_LIMIT_PER_MINUTE: '0', HEDGEROW_JOBS: 'off' });
  });

  after(() => stopServerProcess(server));

  async function post(payload: HostilePayload): Promise<{ status: number; code: string | undefined; retryAfter: string | null }> {
    const response = await fetch(new URL('/batch/', server.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: payload.body,
    });
    const body = (await response.json()) as { code?: string };
    return { status: response.status, code: body.code, retryAfter: response.headers.get('retry-after') };
  }

  /** Sends until the answer is not 503 `capture_busy`, waiting as `Retry-After` says (as the SDKs retry). */
  async function answerOf(payload: HostilePayload): Promise<string> {
    for (let attempt = 0; attempt < 30; attempt += 1) {
      const answer = await post(payload);
      if (answer.status !== 503) return `${answer.status} ${answer.code ?? ''}`.trim();
      expect([answer.code, answer.retryAfter]).to.deep.equal(['capture_busy', '1']);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    return 'still 503';
  }

  it('answers every flood and bomb, keeps /_health answering and its memory bounded, and stores none of it', async () => {
    const token = account.environment.api_token;
    const attacks: Array<{ payload: HostilePayload; want: string }> = [
      { payload: emptyEventFlood({ key: token }), want: '200' },
      { payload: emptyEventFloodKeyLast({ key: token }), want: '200' },
      { payload: emptyEventFlood('wrong'), want: '401 invalid_api_key' },
      { payload: emptyEventFloodKeyLast('wrong'), want: '401 invalid_api_key' },
      { payload: emptyEventFlood('none'), want: '401 missing_api_key' },
      { payload: emptyArrayFlood(), want: '401 missing_api_key' },
      { payload: hugeEvent({ key: token }), want: '413 event_too_big' },
      ...Array.from({ length: 3 }, () => ({ payload: gzipBomb(), want: '413 request_too_large' })),
    ];

    let attacking = true;
    const healthLatencies: number[] = [];
    const healthStatuses = new Set<number>();
    const prober = (async () => {
      while (attacking) {
        const started = performance.now();
        const response = await fetch(new URL('/_health', server.baseUrl));
        await response.arrayBuffer();
        healthLatencies.push(performance.now() - started);
        healthStatuses.add(response.status);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    let peakRss = 0;
    const sampler = setInterval(() => {
      treeRssMb(server.child.pid!)
        .then((rss) => (peakRss = Math.max(peakRss, rss)))
        .catch(() => undefined);
    }, 100);

    let answers: string[];
    try {
      answers = await Promise.all(attacks.map(({ payload }) => answerOf(payload)));
    } finally {
      attacking = false;
      clearInterval(sampler);
      await prober;
    }

    expect(answers).to.deep.equal(attacks.map(({ want }) => want));
    expect([...healthStatuses]).to.deep.equal([200]);
    expect(healthLatencies.length).to.be.greaterThan(10);
    expect(Math.max(...healthLatencies), 'slowest /_health while attacked, ms').to.be.lessThan(1000);
    expect(peakRss, 'peak RSS of the server, MB').to.be.lessThan(512);
    expect(server.child.exitCode).to.equal(null);
    expect(await testDb()('events').where({ team_id: account.environment.id }).count<{ count: string }[]>('* as count')).to.deep.equal([{ count: '0' }]);
    // The server still captures as usual.
    const ordinary = await fetch(new URL('/i/v0/e/', server.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: token, event: 'after', distinct_id: 'u' }),
    });
    expect(ordinary.status).to.equal(200);
  });
});
