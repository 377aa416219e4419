/**
 * Two hosts on one database, as a team runs them behind a load balancer: two `npm start` servers, each with its
 * own supervisor, workers, port and job engine, started at once as separate processes on an empty database that
 * the test admin URL names (so that the same test runs on a Citus coordinator). One of them sets it up. A personal key's requests spread over both count
 * against one budget; a batch export that both engines find due lands once in its destination; an asynchronous
 * query submitted to one host runs once and is read from the other; a host killed with everything it runs (its
 * process group, SIGKILL) while it holds an export run leaves that run to the other host, and one killed while it
 * runs asynchronous queries leaves them to be run again there; and each host's `/_health` and `/_metrics` name
 * that host.
 *
 * The engines' clock runs an hour ahead (HEDGEROW_CLOCK_OFFSET_MS), so that the current hour is due; their NoOp
 * destination takes a while (HEDGEROW_NOOP_DELAY_MS), so that a kill lands inside a run; their lease is short
 * (HEDGEROW_EXPORT_LEASE_MS), so that the takeover comes soon.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { expect } from 'chai';
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import type { BatchExportRunRow } from '../../db/queries/batch-exports/rows.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { LOOPBACK_ALLOWLIST } from '../helpers/destination-addresses.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { HttpClient } from '../helpers/http.js';
import { startReceiver } from '../helpers/http-receiver.js';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../helpers/processes.js';
import { ENDLESS_QUERY, runningAsyncQueries } from '../helpers/queries.js';
import { insertEvents } from '../helpers/seed-events.js';
import { waitFor } from '../helpers/wait.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const FIVE_MINUTES = 5 * MINUTE;
/** Requests a key may make per minute on each host, and on both together. */
const PER_MINUTE = 40;
/** How long a host may take to start, or the engines to finish what the test gave them. */
const PROCESS_WAIT_MS = 60_000;

/** The process a session of ours belongs to: its application name ends with the pid (handlers/server/logger.ts). */
const processOfSession = (applicationName: string) => Number(/ (\d+)$/.exec(applicationName)?.[1]);

/** Whether process `pid` runs in the process group `group` (the fifth field of /proc/<pid>/stat). */
function inProcessGroup(pid: number, group: number): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === group;
}

interface Host {
  process: ServerProcess;
  port: number;
  http: (key?: string | null) => HttpClient;
}

describe('many hosts on one database', function () {
  this.timeout(300_000);
  let name: string;
  let db: Db;
  let hostA: Host;
  let hostB: Host;

  const start = async (): Promise<Host> => {
    const started = await startServerProcess(
      {
        DATABASE_URL: databaseUrl(name),
        HEDGEROW_WORKERS: '2',
        HEDGEROW_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
        HEDGEROW_CLOCK_OFFSET_MS: String(HOUR),
        HEDGEROW_NOOP_DELAY_MS: '5000',
        // Heartbeats come every third of it: long enough that a loaded machine's late beat does not look like a
        // dead host, short enough for the takeover to come soon.
        HEDGEROW_EXPORT_LEASE_MS: '6000',
        HEDGEROW_EXPORT_TICK_INTERVAL_MS: '300',
        HEDGEROW_DESTINATION_ALLOWLIST: LOOPBACK_ALLOWLIST.join(','),
      },
      // A process group of its own, so that the whole host (supervisor, workers, engine) can be killed at once.
      { detached: true },
    );
    return {
      process: started,
      port: Number(new URL(started.baseUrl).port),
      http: (key = null) => new HttpClient(started.baseUrl, key),
    };
  };

  before(async () => {
    name = await createDatabase('hedgerow_many_hosts');
    db = createDb(databaseUrl(name));
    // Both at once on an empty database: their setups take turns to migrate and make the first organization.
    [hostA, hostB] = await Promise.all([start(), start()]);
  });

  after(async () => {
    for (const host of [hostA, hostB]) if (host) await stopServerProcess(host.process);
    await db?.destroy();
    if (name) await dropDatabase(name);
  });

  it('start at once on an empty database: one of them migrates it and makes its first organization', async () => {
    const firstRuns = [hostA, hostB].filter((host) => host.process.output().includes('First run: created an organization'));
    expect(firstRuns).to.have.length(1);
    expect(await db('organizations').count({ n: '*' })).to.deep.equal([{ n: '1' }]);
    expect(await migrateLatest(db)).to.deep.equal([]);
  });

  it("names each host in its own /_health and /_metrics", async () => {
    for (const host of [hostA, hostB]) {
      const expected = `${hostname()}:${host.port}`;
      for (let n = 0; n < 4; n += 1) {
        const health = await host.http().get<{ host: string }>('/_health');
        expect([health.status, health.body.host]).to.deep.equal([200, expected]);
      }
      const metrics = await host.http().get<string>('/_metrics');
      expect(metrics.text).to.include(`\nhedgerow_host_info{host="${expected}"} 1\n`);
    }
    expect(hostA.port).to.not.equal(hostB.port);
  });

  it("counts a personal key's requests once across both hosts", async () => {
    const account = await newAccount(db);
    const other = await newAccount(db);
    const answers = await Promise.all(
      Array.from({ length: 2 * PER_MINUTE + 20 }, (_, n) => (n % 2 === 0 ? hostA : hostB).http(account.key).get('/api/projects/')),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).to.have.length(PER_MINUTE);
    expect(statuses.filter((status) => status === 429)).to.have.length(PER_MINUTE + 20);
    const throttled = answers.find((answer) => answer.status === 429)!;
    const wait = Number(throttled.headers.get('retry-after'));
    expect(wait).to.be.within(1, 60);
    expect(throttled.body).to.deep.equal({
      type: 'throttled_error',
      code: 'throttled',
      detail: `Request was throttled. Expected available in ${wait} seconds.`,
      attr: null,
    });
    // Both hosts still refuse the key, and serve another.
    for (const host of [hostA, hostB]) {
      expect((await host.http(account.key).get('/api/projects/')).status).to.equal(429);
      expect((await host.http(other.key).get('/api/projects/')).status).to.equal(200);
    }
  });

  it('answers an asynchronous query submitted to one host once, and the other host reads it', async () => {
    const account = await newAccount(db, { scopes: ['query:read'] });
    const team = account.environment.id;
    const submitted = await waitFor('an engine to take queries', async () => {
      const answer = await hostA.http(account.key).post(`/api/environments/${team}/query/`, {
        query: { kind: 'HogQLQuery', query: 'select 1 + 1' },
        refresh: 'async',
        client_query_id: 'across-hosts',
      });
      // On a database no engine has run on yet, nothing is queued until one starts.
      return answer.status !== 503 && answer;
    }, PROCESS_WAIT_MS);
    expect(submitted.status).to.equal(202);
    // Waited for in the database: polling the API would spend the key's budget.
    const status = await waitFor('the query to finish', async () => db('query_statuses').where({ team_id: team, id: 'across-hosts', complete: true }).first(), PROCESS_WAIT_MS);
    const read = await hostB.http(account.key).get(`/api/environments/${team}/query/across-hosts/`);
    expect(read.status).to.equal(200);
    expect(read.body.query_status).to.include({ complete: true, error: false });
    expect(read.body.query_status.results.results).to.deep.equal([[2]]);
    // One job, run once: picked up by one engine, never retried.
    const jobs = await db.raw<{ rows: Array<{ state: string; retry_count: number }> }>(
      `select state, retry_count from pgboss.job where name = 'query-run' and id::text = ?`,
      [status.task_id],
    );
    expect(jobs.rows).to.deep.equal([{ state: 'completed', retry_count: 0 }]);
  });

  it('delivers a batch export that both hosts find due once to its destination', async () => {
    const account = await newAccount(db);
    const receiver = await startReceiver();
    try {
      const events = Array.from({ length: 5 }, (_, n) => ({ event: 'exported once', distinct_id: `d${n}`, uuid: randomUUID(), timestamp: '2026-01-01T10:00:00.000Z' }));
      const captured = await hostA.http().request('POST', '/batch/', {
        rawBody: JSON.stringify({ api_key: account.environment.api_token, historical_migration: true, batch: events }),
        headers: { 'content-type': 'application/json' },
      });
      expect(captured.status).to.equal(200);
      // Made an hour before the current one: the previous hour and the current one (the engines' clock is an
      // hour ahead) are due on both hosts at once; the events arrived in the current one.
      const createdAt = new Date(Math.floor(Date.now() / HOUR) * HOUR - HOUR);
      const exportId = randomUUID();
      await db('batch_exports').insert({
        id: exportId,
        team_id: account.environment.id,
        name: 'to a receiver',
        destination_type: 'HTTP',
        destination_config: { url: receiver.url, token: account.environment.api_token },
        interval: 'hour',
        created_at: createdAt,
      });
      const runs = await waitFor('both intervals to be exported', async () => {
        const rows = await db<BatchExportRunRow>('batch_export_runs').where({ batch_export_id: exportId }).orderBy('data_interval_end');
        return rows.length === 2 && rows.every((run) => run.status === 'Completed') && rows;
      }, PROCESS_WAIT_MS);
      expect(runs.map((run) => [run.data_interval_end.getTime(), run.attempts])).to.deep.equal([
        [createdAt.getTime() + HOUR, 1],
        [createdAt.getTime() + 2 * HOUR, 1],
      ]);
      const delivered = receiver.bodies.flatMap((request: { body: { batch: Array<{ uuid: string }> } }) => request.body.batch.map((event) => event.uuid));
      expect(delivered.sort()).to.deep.equal(events.map((event) => event.uuid).sort());
    } finally {
      await receiver.close();
    }
  });

  it('finishes on the other host a run whose host was killed while it held it', async () => {
    const account: Account = await newAccount(db);
    // Six five-minute intervals of three hours ago; each host runs one of them at a time (an environment's share
    // of an engine's two slots).
    const createdAt = new Date(Math.floor((Date.now() - 3 * HOUR) / FIVE_MINUTES) * FIVE_MINUTES);
    const exportId = randomUUID();
    await db('batch_exports').insert({
      id: exportId,
      team_id: account.environment.id,
      name: 'noop',
      destination_type: 'NoOp',
      interval: 'every 5 minutes',
      created_at: createdAt,
      end_at: new Date(createdAt.getTime() + 6 * FIVE_MINUTES),
    });
    const runs = () => db<BatchExportRunRow>('batch_export_runs').where({ batch_export_id: exportId }).orderBy('data_interval_end');
    // Two runs at once: one on each host.
    const running = await waitFor('both hosts to hold a run', async () => {
      const held = (await runs()).filter((run) => run.status === 'Running');
      return held.length === 2 && held;
    }, PROCESS_WAIT_MS);
    process.kill(-hostA.process.child.pid!, 'SIGKILL');
    await hostA.process.exited;

    const finished = await waitFor('every interval to be exported', async () => {
      const rows = await runs();
      return rows.length === 6 && rows.every((run) => run.status === 'Completed') && rows;
    }, 2 * PROCESS_WAIT_MS);
    expect(finished.map((run) => run.data_interval_end.getTime())).to.deep.equal(
      Array.from({ length: 6 }, (_, n) => createdAt.getTime() + (n + 1) * FIVE_MINUTES),
    );
    // The killed host's run was started again, by the host left; every other run once.
    const again = finished.filter((run) => run.attempts !== 1);
    expect(again.map((run) => run.attempts)).to.deep.equal([2]);
    expect(running.map((run) => run.id)).to.include(again[0]!.id);
    // The host left still serves.
    expect((await hostB.http(account.key).get('/api/projects/')).status).to.equal(200);
  });

  it('runs again on the host left the queries of a host killed while it ran them', async () => {
    // A host in place of the one killed above.
    hostA = await start();
    // Four endless queries of one environment: each host's engine runs two of an environment's at most, and puts
    // back a job past that for the other host, which has room, to run.
    const querying = await newAccount(db, { scopes: ['query:read'] });
    const queryTeam = querying.environment.id;
    const queryPath = (id = '') => `/api/environments/${queryTeam}/query/${id ? `${id}/` : ''}`;
    await insertEvents(db, queryTeam, ['a', 'b', 'c', 'd', 'e'].map((distinct_id) => ({ event: '$pageview', distinct_id, timestamp: '2024-01-01T00:00:00Z' })));
    const queryIds = ['q1', 'q2', 'q3', 'q4'];
    for (const id of queryIds) {
      const submitted = await hostA.http(querying.key).post(queryPath(), { query: { kind: 'HogQLQuery', query: ENDLESS_QUERY }, refresh: 'async', client_query_id: id });
      expect(submitted.status).to.equal(202);
    }
    const runningQueries = () => runningAsyncQueries(db, queryTeam);
    const running = await waitFor('both hosts to run two queries each', async () => {
      const found = await runningQueries();
      return found.length === 4 && found;
    }, PROCESS_WAIT_MS);
    const onHostA = running.filter((query) => inProcessGroup(processOfSession(query.application_name), hostA.process.child.pid!));
    const orphans = onHostA.map((query) => query.id);
    expect(orphans).to.have.length(2);
    process.kill(-hostA.process.child.pid!, 'SIGKILL');
    await hostA.process.exited;

    // The killed host's sessions end (client_connection_check_interval); its queries are taken over as their
    // statuses are read, and run by the host left once the others are cancelled.
    await waitFor('the killed host’s sessions to end', async () => {
      const { rows } = await db.raw('select count(*)::int as n from pg_stat_activity where pid = any(?)', [onHostA.map((query) => query.pid)]);
      return rows[0].n === 0;
    }, PROCESS_WAIT_MS);
    for (const id of queryIds) expect((await hostB.http(querying.key).get(queryPath(id))).status, id).to.equal(202);
    const takeovers = await db('query_statuses').where({ team_id: queryTeam }).orderBy('id').select('id', 'takeovers');
    expect(takeovers).to.deep.equal(queryIds.map((id) => ({ id, takeovers: orphans.includes(id) ? 1 : 0 })));
    for (const id of queryIds.filter((id) => !orphans.includes(id))) expect((await hostB.http(querying.key).delete(queryPath(id))).status).to.equal(204);
    await waitFor('the host left to run the queries taken over', async () => (await runningQueries()).map((query) => query.id).join() === orphans.join(), PROCESS_WAIT_MS);
    for (const id of orphans) expect((await hostB.http(querying.key).delete(queryPath(id))).status).to.equal(204);
  });
});
