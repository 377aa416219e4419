/**
 * The processes of `npm start` as an operator meets them: Ctrl-C in a terminal (SIGINT to the whole process
 * group) stops every process with exit code 0 and restarts none; a process killed with SIGKILL (an HTTP worker
 * mid-query, the job engine's process mid-query) leaves no statement running for nobody, and is started again.
 */
import { expect } from 'chai';
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import { HttpClient } from '../helpers/http.js';
import { isRunning, startServerProcess, stopServerProcess, type ServerProcess } from '../helpers/processes.js';
import { ENDLESS_QUERY } from '../helpers/queries.js';
import { insertEvents } from '../helpers/seed-events.js';
import { waitFor } from '../helpers/wait.js';

/** Within a few seconds: PostgreSQL looks for a vanished client every second. */
const STATEMENT_GONE_WITHIN_MS = 5_000;

/** The pids of the log lines with message `msg` (the server logs at info level in these tests). */
function pidsLogged(output: string, msg: string): number[] {
  return output
    .split('\n')
    .filter((line) => line.includes(`"msg":"${msg}"`))
    .map((line) => (JSON.parse(line) as { pid: number }).pid);
}

describe('system: the processes of npm start', function () {
  this.timeout(180_000);
  let name: string;
  let db: Db;
  let team: number;
  let apiKey: string;
  const servers: ServerProcess[] = [];

  before(async () => {
    name = await createDatabase('hedgerow_processes');
    db = createDb(databaseUrl(name));
    await migrateLatest(db);
    const account = await newAccount(db, { scopes: ['query:read'] });
    team = account.environment.id;
    apiKey = account.key;
    await insertEvents(
      db,
      team,
      ['a', 'b', 'c', 'd', 'e'].map((distinct_id) => ({ event: '$pageview', distinct_id, timestamp: '2024-01-01T00:00:00Z' })),
    );
  });

  // One server at a time: another's job engine would take the asynchronous queries of the next test.
  afterEach(async () => {
    for (const server of servers.splice(0)) await stopServerProcess(server);
  });

  after(async () => {
    await db.destroy();
    await dropDatabase(name);
  });

  const start = async (env: Record<string, string> = {}, options: { detached?: boolean } = {}) => {
    const server = await startServerProcess({ DATABASE_URL: databaseUrl(name), LOG_LEVEL: 'info', HEDGEROW_QUERY_TIMEOUT_MS: '120000', ...env }, options);
    servers.push(server);
    return server;
  };

  /** The backend running the endless query for the process named `role` (its sessions' application_name). */
  async function endlessStatementOf(role: string): Promise<{ backend: number; owner: number }> {
    return waitFor(`a ${role} process to run the endless query`, async () => {
      const { rows } = await db.raw<{ rows: Array<{ pid: number; application_name: string }> }>(
        `select pid, application_name from pg_stat_activity
          where datname = current_database() and state = 'active' and application_name like ? and query like '%join%'`,
        [`hedgerow ${role} %`],
      );
      const row = rows[0];
      return row ? { backend: row.pid, owner: Number(row.application_name.split(' ')[2]) } : undefined;
    });
  }

  async function statementGone(backend: number): Promise<void> {
    await waitFor(
      `backend ${backend} to leave pg_stat_activity`,
      async () => (await db.raw('select count(*)::int as n from pg_stat_activity where pid = ?', [backend])).rows[0].n === 0,
      STATEMENT_GONE_WITHIN_MS,
    );
  }

  it('Ctrl-C (SIGINT to the process group) stops every process, exit code 0, none started again', async () => {
    const server = await start({ HEDGEROW_WORKERS: '2' }, { detached: true });
    await waitFor('the job engine to start', async () => server.output().includes('"msg":"job engine started"'));
    // As many workers as the database's free sessions allow (other suites may hold some): at least one.
    const workers = Number(/"workers":(\d+),"reason"/.exec(server.output())?.[1]);
    expect(workers).to.be.within(1, 2);
    const children = [...pidsLogged(server.output(), 'worker started'), ...pidsLogged(server.output(), 'job engine process started')];
    expect(children).to.have.length(workers + 1);

    process.kill(-server.child.pid!, 'SIGINT');
    const code = await server.exited;

    expect(code).to.equal(0);
    await waitFor('every child process to exit', async () => children.every((pid) => !isRunning(pid)), 10_000);
    expect(server.output()).not.to.match(/starting another/);
    expect(pidsLogged(server.output(), 'worker started')).to.have.length(workers);
    expect(pidsLogged(server.output(), 'job engine process started')).to.have.length(1);
  });

  it("an HTTP worker killed mid-query (SIGKILL): its statement is cancelled within seconds, and it is replaced", async () => {
    const server = await start({ HEDGEROW_WORKERS: '1' });
    const api = new HttpClient(server.baseUrl, null).withKey(apiKey);
    // Never answered: its worker dies under it.
    const pending = api.post(`/api/environments/${team}/query/`, { query: { kind: 'HogQLQuery', query: ENDLESS_QUERY } }).catch(() => null);
    const { backend, owner } = await endlessStatementOf('worker');
    expect(pidsLogged(server.output(), 'worker started')).to.include(owner);

    process.kill(owner, 'SIGKILL');
    await statementGone(backend);
    await pending;
    await waitFor('another worker to serve', async () => pidsLogged(server.output(), 'worker listening').some((pid) => pid !== owner), 30_000);
  });

  it("the job engine's process killed mid-query (SIGKILL): its statement is cancelled within seconds, and it is started again", async () => {
    const server = await start({ HEDGEROW_WORKERS: '1' });
    await waitFor('the job engine to start', async () => server.output().includes('"msg":"job engine started"'));
    const api = new HttpClient(server.baseUrl, null).withKey(apiKey);
    const queued = await api.post(`/api/environments/${team}/query/`, { query: { kind: 'HogQLQuery', query: ENDLESS_QUERY }, refresh: 'async' });
    expect(queued.status).to.equal(202);
    const { backend, owner } = await endlessStatementOf('jobs');
    expect(pidsLogged(server.output(), 'job engine process started')).to.deep.equal([owner]);

    process.kill(owner, 'SIGKILL');
    await statementGone(backend);
    await waitFor('another job engine to start', async () => pidsLogged(server.output(), 'job engine started').some((pid) => pid !== owner), 30_000);
    expect(server.output()).to.include('"msg":"job engine process died; starting another"');
  });
});
