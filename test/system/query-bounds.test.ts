/**
 * The server as `npm start` runs it, with its default answer budget (20 MB), asked for far more than that: 40
 * copies of every event's properties over 50,000 events (about a gigabyte of answer), every event's properties
 * in one row, the same as an EventsQuery, and the first asynchronously. Each is refused with the 400 that says
 * to add a LIMIT, and no process of the server has grown anywhere near 512 MB on the way (the peak resident
 * memory the kernel recorded for each, VmHWM). Then answers within the budget that their clients never read, many
 * of them, from two users (one of them across two organizations): the process keeps only so many of them, and
 * again no process grows past 512 MB.
 */
import { expect } from 'chai';
import { readFile, readdir } from 'node:fs/promises';
import net from 'node:net';
import { createDb, type Db } from '../../db/pg/client.js';
import { WORKER_HEAP_MB } from '../../handlers/server/supervisor.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { invalidInputBody } from '../helpers/error-bodies.js';
import { newAccount } from '../helpers/fixtures.js';
import { HttpClient } from '../helpers/http.js';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../helpers/processes.js';
import { insertEvents } from '../helpers/seed-events.js';
import { waitFor } from '../helpers/wait.js';

const EVENTS = 50_000;
/** About 500 bytes of properties an event: 25 MB of properties in all, past the budget on its own. */
const PROPERTIES = { $current_url: `https://example.test/${'p'.repeat(400)}`, $browser: 'Firefox', plan: 'pro', n: 1 };
/** A bound well under the 512 MB every process must stay under, far under the gigabytes an unbounded answer takes. */
const PEAK_RSS_BOUND_MB = 384;
const TOO_LARGE = invalidInputBody("The query's result is larger than 20 MB, the most one answer may hold. Add a LIMIT or select fewer columns.");

/** Peak and current resident memory (MB) of a process and of each of its descendants (Linux /proc). */
async function memoryOfTree(pid: number): Promise<Array<{ pid: number; peakMb: number; rssMb: number }>> {
  const found: Array<{ pid: number; peakMb: number; rssMb: number }> = [];
  const visit = async (id: number) => {
    const status = await readFile(`/proc/${id}/status`, 'utf8').catch(() => '');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    if (status) found.push({ pid: id, peakMb: Math.round(kb('VmHWM') / 1024), rssMb: Math.round(kb('VmRSS') / 1024) });
    for (const task of await readdir(`/proc/${id}/task`).catch(() => [] as string[])) {
      const children = await readFile(`/proc/${id}/task/${task}/children`, 'utf8').catch(() => '');
      for (const child of children.split(' ').filter(Boolean)) await visit(Number(child));
    }
  };
  await visit(pid);
  return found;
}

/** The memory every process must stay under, whatever a query asks for. */
const PROCESS_BOUND_MB = 512;

/**
 * Posts a query and reads no more of its answer than the first chunk (its status line): the socket, kept open
 * and unread, and the status.
 */
function unreadAnswer(baseUrl: string, key: string, environmentId: number, query: string): Promise<{ socket: net.Socket; status: number }> {
  const body = JSON.stringify({ query: { kind: 'HogQLQuery', query } });
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `POST /api/environments/${environmentId}/query/ HTTP/1.1\r\nhost: ${hostname}\r\nauthorization: Bearer ${key}\r\n` +
          `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    });
    socket.on('error', () => resolve({ socket, status: 0 }));
    socket.once('data', (chunk: Buffer) => {
      socket.pause();
      resolve({ socket, status: Number(chunk.toString('latin1', 9, 12)) });
    });
  });
}

describe('answers of bounded size from the server process', function () {
  this.timeout(300_000);
  let name: string;
  let db: Db;
  let server: ServerProcess;
  let api: HttpClient;
  let path: string;
  let victimKey: string;
  let victimEnvironment: number;

  before(async () => {
    name = await createDatabase('hedgerow_query_bounds');
    db = createDb(databaseUrl(name));
    await migrateLatest(db);
    const account = await newAccount(db, { scopes: ['query:read'] });
    const timestamp = new Date(Date.UTC(2024, 0, 1));
    await insertEvents(
      db,
      account.environment.id,
      Array.from({ length: EVENTS }, (_, index) => ({ event: '$pageview', distinct_id: `d${index % 500}`, timestamp, properties: PROPERTIES })),
    );
    server = await startServerProcess({ DATABASE_URL: databaseUrl(name), HEDGEROW_WORKERS: '1', HEDGEROW_RATE_LIMIT_PER_MINUTE: '0' });
    api = new HttpClient(server.baseUrl, null).withKey(account.key);
    path = `/api/environments/${account.environment.id}/query/`;
    victimKey = account.key;
    victimEnvironment = account.environment.id;
  });

  after(async () => {
    if (server) await stopServerProcess(server);
    await db.destroy();
    await dropDatabase(name);
  });

  it('refuses answers past the budget with the 400, and no process grows near 512 MB', async () => {
    const wide = `select ${Array.from({ length: 40 }, () => 'properties').join(', ')} from events limit 50000`;
    for (const query of [{ kind: 'HogQLQuery', query: wide }, { kind: 'HogQLQuery', query: 'select groupArray(properties) from events' }, { kind: 'EventsQuery', select: ['*'], after: 'all', limit: 50_000 }]) {
      const response = await api.post(path, { query });
      expect([query, response.status, response.body]).to.deep.equal([query, 400, TOO_LARGE]);
    }
    // Asynchronously: the primary's engine runs it (it starts once the workers listen; 503 until then).
    const submitted = await waitFor('the engine to start', async () => {
      const response = await api.post(path, { query: { kind: 'HogQLQuery', query: wide }, refresh: 'async', client_query_id: 'wide' });
      return response.status === 503 ? null : response;
    }, 30_000);
    expect(submitted.status).to.equal(202);
    const failed = await waitFor('the run to finish', async () => {
      const status = await api.get(`${path}wide/`);
      return status.status !== 202 && status;
    }, 60_000);
    expect(failed.status).to.equal(400);
    expect(failed.body.query_status).to.include({ complete: true, error: true, error_message: TOO_LARGE.detail, results: null });

    const processes = await memoryOfTree(server.child.pid!);
    expect(processes.length).to.be.at.least(2);
    // The worker's heap is limited, so that V8 collects the garbage of refused answers long before 512 MB.
    const commands = await Promise.all(processes.map(({ pid }) => readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')));
    expect(commands.some((command) => command.split('\0').includes(`--max-old-space-size=${WORKER_HEAP_MB}`))).to.equal(true);
    for (const process of processes) expect(process.peakMb, `peak RSS of process ${process.pid}`).to.be.below(PEAK_RSS_BOUND_MB);
  });

  it('keeps only so many unread answers, from one user across organizations and from another, and no process grows past 512 MB', async () => {
    const attacker = await newAccount(db);
    const second = await new HttpClient(server.baseUrl, null).withKey(attacker.key).post('/api/organizations/', { name: 'second' });
    expect(second.status).to.equal(201);
    const timestamp = new Date(Date.UTC(2024, 0, 1));
    for (const environment of [attacker.environment.id, second.body.teams[0].id as number]) {
      await insertEvents(
        db,
        environment,
        Array.from({ length: 12_000 }, (_, index) => ({ event: '$pageview', distinct_id: `d${index % 500}`, timestamp, properties: PROPERTIES })),
      );
    }
    // About 18 MB an answer, just within the 20 MB budget.
    const query = 'select properties, properties, properties from events limit 11000';
    const targets = [
      { key: attacker.key, environment: attacker.environment.id },
      { key: attacker.key, environment: second.body.teams[0].id as number },
      { key: victimKey, environment: victimEnvironment },
    ];
    const held: net.Socket[] = [];
    const statuses: number[] = [];
    try {
      // Ten unread answers asked of each environment, each retried a few times when refused, as an attacker would.
      await Promise.all(
        targets.flatMap((target) =>
          Array.from({ length: 10 }, async () => {
            for (let attempt = 0; attempt < 5; attempt++) {
              const answer = await unreadAnswer(server.baseUrl, target.key, target.environment, query);
              statuses.push(answer.status);
              if (answer.status === 200) {
                held.push(answer.socket);
                return;
              }
              answer.socket.destroy();
              await new Promise((resolve) => setTimeout(resolve, 500));
            }
          }),
        ),
      );
      expect(statuses).to.include(200);
      expect(statuses.filter((status) => status !== 200 && status !== 429 && status !== 503)).to.deep.equal([]);
      expect(held.length).to.be.below(30);
      const processes = await memoryOfTree(server.child.pid!);
      for (const process of processes) expect(process.peakMb, `peak RSS of process ${process.pid}`).to.be.below(PROCESS_BOUND_MB);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
