/**
 * Asynchronous queries run by `npm start` (its job engine's process) and by `npm run worker` processes while the API
 * runs elsewhere: the API cancels a statement another process runs; a worker killed mid-query (SIGKILL) leaves no
 * statement running for nobody, and another worker takes the query over; a worker stopped (SIGTERM) mid-query
 * cancels its statement and hands the query over to the next worker.
 */
import { expect } from 'chai';
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import { HttpClient } from '../helpers/http.js';
import { startExportWorkerProcess, startServerProcess, stopServerProcess, type ServerProcess } from '../helpers/processes.js';
import { insertEvents } from '../helpers/seed-events.js';
import { ENDLESS_QUERY, runningAsyncQueries } from '../helpers/queries.js';
import { waitFor } from '../helpers/wait.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** How long a process started by the test may take to start and answer (it builds and migrates first). */
const PROCESS_WAIT_MS = 30_000;

describe('asynchronous queries in server and worker processes', function () {
  this.timeout(180_000);
  let name: string;
  let db: Db;
  let server: TestServer;
  let client: HttpClient;
  let team: number;
  let apiKey: string;
  const processes: ServerProcess[] = [];

  before(async () => {
    name = await createDatabase('hedgerow_query_workers');
    db = createDb(databaseUrl(name));
    await migrateLatest(db);
    server = await startTestServer({ db });
    const account = await newAccount(db, { scopes: ['query:read'] });
    team = account.environment.id;
    apiKey = account.key;
    client = server.http.withKey(account.key);
    await insertEvents(
      db,
      team,
      ['a', 'b', 'c', 'd', 'e'].map((distinct_id) => ({ event: '$pageview', distinct_id, timestamp: '2024-01-01T00:00:00Z' })),
    );
  });

  after(async () => {
    await Promise.all(processes.map((worker) => stopServerProcess(worker)));
    await server.close();
    await db.destroy();
    await dropDatabase(name);
  });

  const worker = async () => {
    const started = await startExportWorkerProcess({ DATABASE_URL: databaseUrl(name), HEDGEROW_QUERY_TIMEOUT_MS: '120000' });
    processes.push(started);
    return started;
  };

  /** Waits until a worker's session runs the statement of query `id`; that session's pid. */
  const runningSession = (id: string): Promise<number> =>
    waitFor(`query ${id} to run`, async () => (await runningAsyncQueries(db, team)).find((query) => query.id === id)?.pid, PROCESS_WAIT_MS);

  /** Submits the endless query and waits until a worker's session runs its statement; that session's pid. */
  const startEndless = async (id: string): Promise<number> => {
    const response = await client.post(`/api/environments/${team}/query/`, { query: { kind: 'HogQLQuery', query: ENDLESS_QUERY }, refresh: 'async', client_query_id: id });
    expect(response.status).to.equal(202);
    return runningSession(id);
  };

  const statusRow = (id: string) => db('query_statuses').where({ team_id: team, id }).first();

  /** Cancels query `id` through the API, and checks its status says so. */
  const cancel = async (id: string) => {
    expect((await client.delete(`/api/environments/${team}/query/${id}/`)).status).to.equal(204);
    const status = await client.get(`/api/environments/${team}/query/${id}/`);
    expect(status.status).to.equal(400);
    expect(status.body.query_status).to.include({ complete: true, error: true, error_message: 'Query cancelled' });
  };

  const sessionGone = (pid: number) =>
    waitFor(`session ${pid} to leave pg_stat_activity`, async () => (await db.raw('select count(*)::int as n from pg_stat_activity where pid = ?', [pid])).rows[0].n === 0, 10_000);

  it('npm start runs a query submitted to it, and answers its status', async () => {
    const started = await startServerProcess({ DATABASE_URL: databaseUrl(name), HEDGEROW_WORKERS: '1' });
    processes.push(started);
    try {
      const api = new HttpClient(started.baseUrl, null);
      const served = api.withKey(apiKey);
      // The supervisor starts the engine's process once the workers listen: on a database no engine has run on
      // yet, the submit is a 503 (nothing queued) until then.
      const response = await waitFor('the engine to start', async () => {
        const submitted = await served.post(`/api/environments/${team}/query/`, {
          query: { kind: 'HogQLQuery', query: 'select count() from events' },
          refresh: 'async',
          client_query_id: 'served',
        });
        if (submitted.status === 503) return null;
        return submitted;
      }, PROCESS_WAIT_MS);
      expect(response.status).to.equal(202);
      const done = await waitFor('the query to finish', async () => {
        const status = await served.get(`/api/environments/${team}/query/served/`);
        return status.status !== 202 && status;
      }, PROCESS_WAIT_MS);
      expect(done.status).to.equal(200);
      expect(done.body.query_status.results.results).to.deep.equal([[5]]);
    } finally {
      await stopServerProcess(started);
    }
  });

  it('the API cancels a statement that a worker process runs', async () => {
    await worker();
    const pid = await startEndless('cancelled-elsewhere');
    expect((await client.delete(`/api/environments/${team}/query/cancelled-elsewhere/`)).status).to.equal(204);
    await waitFor(
      'the statement to stop',
      async () => (await db.raw(`select count(*)::int as n from pg_stat_activity where pid = ? and state = 'active'`, [pid])).rows[0].n === 0,
      5_000,
    );
    const status = await client.get(`/api/environments/${team}/query/cancelled-elsewhere/`);
    expect(status.status).to.equal(400);
    expect(status.body.query_status).to.include({ complete: true, error: true, error_message: 'Query cancelled' });
  });

  it('a worker killed mid-query: its statement stops, and another worker takes the query over from the start', async () => {
    const doomed = processes[1]!;
    const pid = await startEndless('killed');
    const before = await statusRow('killed');
    const heir = await worker();
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    // PostgreSQL notices the runner is gone and ends its session (client_connection_check_interval).
    await sessionGone(pid);
    // Found out as its status is read: a new job, which the worker left runs.
    expect((await client.get(`/api/environments/${team}/query/killed/`)).status).to.equal(202);
    const taken = await statusRow('killed');
    expect(taken.takeovers).to.equal(1);
    expect(taken.task_id).to.not.equal(before.task_id);
    expect(await runningSession('killed')).to.not.equal(pid);
    await cancel('killed');
    await stopServerProcess(heir);
  });

  it('a worker stopped mid-query (SIGTERM) cancels its statement and hands the query over to the next worker', async () => {
    const stopping = await worker();
    const pid = await startEndless('stopped');
    const before = await statusRow('stopped');
    await stopServerProcess(stopping);
    // Written by the worker itself as it stopped, before anyone reads the status: a new job, waiting.
    const handed = await statusRow('stopped');
    expect(handed).to.include({ complete: false, error: false, pickup_time: null, runner_pid: null, takeovers: 0 });
    expect(handed.task_id).to.not.equal(before.task_id);
    await sessionGone(pid);
    const waiting = await client.get(`/api/environments/${team}/query/stopped/`);
    expect(waiting.status).to.equal(202);
    expect(waiting.body.query_status).to.include({ complete: false, pickup_time: null, task_id: handed.task_id });
    await worker();
    expect(await runningSession('stopped')).to.not.equal(pid);
    await cancel('stopped');
  });
});
