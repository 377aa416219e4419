/**
 * `npm run worker` processes on one database: every interval runs once, and a run whose process is killed
 * mid-run is finished by another process. The processes' clock runs an hour behind (HEDGEROW_CLOCK_OFFSET_MS),
 * and their NoOp destination takes a while (HEDGEROW_NOOP_DELAY_MS), so that a kill lands inside a run.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import type { BatchExportRunRow } from '../../db/queries/batch-exports/rows.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import { startExportWorkerProcess, stopServerProcess, type ServerProcess } from '../helpers/processes.js';

const MINUTE = 60_000;
const FIVE_MINUTES = 5 * MINUTE;

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('batch export worker processes', function () {
  this.timeout(120_000);
  let name: string;
  let db: Db;
  const processes: ServerProcess[] = [];

  before(async () => {
    name = await createDatabase('hedgerow_workers');
    db = createDb(databaseUrl(name));
    await migrateLatest(db);
  });

  after(async () => {
    await Promise.all(processes.map((worker) => stopServerProcess(worker)));
    await db.destroy();
    await dropDatabase(name);
  });

  it('run every due interval once, and finish a run whose process was killed', async () => {
    const account = await newAccount(db);
    const now = Date.now();
    // Twelve five-minute intervals that ended well before the processes' clock (an hour behind).
    const createdAt = new Date(Math.floor((now - 3 * 60 * MINUTE) / FIVE_MINUTES) * FIVE_MINUTES);
    const due = { id: randomUUID(), created_at: createdAt, end_at: new Date(createdAt.getTime() + 12 * FIVE_MINUTES) };
    // Intervals that ended by the system clock but not by the processes' clock: none may run.
    const notYet = { id: randomUUID(), created_at: new Date(now - 50 * MINUTE), end_at: null };
    for (const row of [due, notYet]) {
      await db('batch_exports').insert({ ...row, team_id: account.environment.id, name: 'noop', destination_type: 'NoOp', interval: 'every 5 minutes' });
    }
    const env = {
      DATABASE_URL: databaseUrl(name),
      HEDGEROW_CLOCK_OFFSET_MS: String(-60 * MINUTE),
      HEDGEROW_NOOP_DELAY_MS: '1500',
      HEDGEROW_EXPORT_LEASE_MS: '2000',
      HEDGEROW_EXPORT_TICK_INTERVAL_MS: '300',
    };
    const runs = () => db<BatchExportRunRow>('batch_export_runs').where({ batch_export_id: due.id }).orderBy('data_interval_end');

    const doomed = await startExportWorkerProcess(env);
    processes.push(doomed);
    await waitFor(async () => (await runs()).some((run) => run.status === 'Running'));
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    // What the killed process held: nothing else was running then.
    const killed = (await runs()).filter((run) => run.status === 'Running').map((run) => run.id);
    expect(killed).to.not.deep.equal([]);

    processes.push(await startExportWorkerProcess(env), await startExportWorkerProcess(env));
    const finished = await waitFor(async () => {
      const rows = await runs();
      return rows.length === 12 && rows.every((run) => run.status === 'Completed') && rows;
    });
    expect(finished.map((run) => run.data_interval_end.getTime())).to.deep.equal(
      Array.from({ length: 12 }, (_, n) => createdAt.getTime() + (n + 1) * FIVE_MINUTES),
    );
    // The killed runs were started twice (the second time by another process); every other one once.
    expect(finished.filter((run) => run.attempts !== 1).map((run) => [run.id, run.attempts])).to.deep.equal(killed.map((id) => [id, 2]));
    expect(await db('batch_export_runs').where({ batch_export_id: notYet.id }).count({ n: '*' })).to.deep.equal([{ n: '0' }]);
  });
});
