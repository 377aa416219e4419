/**
 * The batch export engine in-process against the test database: a manual clock, ticks called by the test, and
 * test-double destinations (recording, failing, blocking) in place of the real ones. (Backfills:
 * batch-export-engine-backfills.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import PgBoss from 'pg-boss';
import pino from 'pino';
import { connectionStringOf } from '../../db/pg/client.js';
import { notifyEngine } from '../../db/queries/batch-exports/notify.js';
import { readExportRecords } from '../../db/queries/batch-exports/records.js';
import type { BatchExportRow, BatchExportRunRow } from '../../db/queries/batch-exports/rows.js';
import { claimRun } from '../../db/queries/batch-exports/runs.js';
import { ManualClock } from '../../handlers/jobs/clock.js';
import { NonRetryableExportError, type Destination, type ExportRun } from '../../handlers/jobs/destinations/types.js';
import { RUN_QUEUE } from '../../handlers/jobs/engine.js';
import { startEngine as startProcessEngine } from '../../handlers/jobs/index.js';
import { readConfig } from '../../handlers/server/config.js';
import { testDb } from '../helpers/database.js';
import { exportRow, recorder, runsOf, waitFor } from '../helpers/engine-doubles.js';
import { engineSuite } from '../helpers/engine-suite.js';
import { newAccount } from '../helpers/fixtures.js';

const MINUTE = 60_000;

/** Fails with a retryable error `failures` times, then completes. */
function flaky(failures: number) {
  let calls = 0;
  const destination: Destination = {
    async run() {
      calls += 1;
      if (calls <= failures) throw new Error(`connection reset (attempt ${calls})`);
      return { recordsCompleted: 3, bytesExported: 30 };
    },
  };
  return { destination, calls: () => calls };
}

function refusing(message: string) {
  let calls = 0;
  const destination: Destination = {
    async run() {
      calls += 1;
      throw new NonRetryableExportError(message);
    },
  };
  return { destination, calls: () => calls };
}

/** Blocks until its signal is aborted, then rejects with the signal's reason. */
function blocking() {
  const aborted: string[] = [];
  let started!: (runId: string) => void;
  const whenStarted = new Promise<string>((resolve) => (started = resolve));
  const destination: Destination = {
    run({ run, signal }) {
      started(run.id);
      return new Promise((_, reject) => {
        signal.addEventListener('abort', () => {
          aborted.push(run.id);
          reject(signal.reason);
        });
      });
    },
  };
  return { destination, whenStarted, aborted };
}

const allFinal = (runs: BatchExportRunRow[]) => runs.every((run) => !['Starting', 'Running'].includes(run.status));

describe('batch export engine', function () {
  this.timeout(30_000);
  const suite = engineSuite();
  const { startEngine, createExport, createBackfill } = suite;

  it('creates exactly the due runs, catching up every interval since the export was created, and runs each once', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder({ records: 0 });
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport();
    await engine.tick();
    // Down for three hours: the next tick makes every interval that ended meanwhile.
    clock.set(new Date('2024-03-01T14:10:00Z'));
    await engine.tick();
    const runs = await waitFor('runs done', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 4 && allFinal(rows) && rows;
    });
    expect(runs.map((run) => [run.data_interval_start?.toISOString(), run.data_interval_end.toISOString(), run.status])).to.deep.equal([
      ['2024-03-01T10:00:00.000Z', '2024-03-01T11:00:00.000Z', 'Completed'],
      ['2024-03-01T11:00:00.000Z', '2024-03-01T12:00:00.000Z', 'Completed'],
      ['2024-03-01T12:00:00.000Z', '2024-03-01T13:00:00.000Z', 'Completed'],
      ['2024-03-01T13:00:00.000Z', '2024-03-01T14:00:00.000Z', 'Completed'],
    ]);
    for (const run of runs) {
      expect({ records: run.records_completed, bytes: run.bytes_exported, attempts: run.attempts, backfill: run.backfill_id }).to.deep.equal({
        records: '0',
        bytes: '0',
        attempts: 1,
        backfill: null,
      });
      expect(run.finished_at).to.be.an.instanceOf(Date);
    }
    expect(destination.calls.map((call) => call.end).sort()).to.deep.equal(runs.map((run) => run.data_interval_end.toISOString()));
    expect(destination.calls.every((call) => call.selectBy === 'inserted_at')).to.equal(true);
  });

  it('schedules nothing for a paused or deleted export, nothing before start_at and nothing after end_at', async () => {
    const clock = new ManualClock(new Date('2024-03-01T14:10:00Z'));
    const destination = recorder();
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const paused = await createExport({ paused: true });
    const deleted = await createExport({ deleted: true });
    const late = await createExport({ start_at: new Date('2024-03-01T12:30:00Z') });
    const ending = await createExport({ end_at: new Date('2024-03-01T12:00:00Z') });
    await engine.tick();
    const ends = async (id: string) => (await runsOf(id)).map((run) => run.data_interval_end.toISOString());
    await waitFor('runs done', async () => allFinal([...(await runsOf(late.id)), ...(await runsOf(ending.id))]));
    expect(await ends(paused.id)).to.deep.equal([]);
    expect(await ends(deleted.id)).to.deep.equal([]);
    expect(await ends(late.id)).to.deep.equal(['2024-03-01T13:00:00.000Z', '2024-03-01T14:00:00.000Z']);
    expect(await ends(ending.id)).to.deep.equal(['2024-03-01T11:00:00.000Z', '2024-03-01T12:00:00.000Z']);
  });

  it('restarts the schedule from schedule_from: a new interval or an unpause does not re-export or catch up what came before', async () => {
    const clock = new ManualClock(new Date('2024-03-01T14:10:00Z'));
    const destination = recorder();
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport();
    await engine.tick();
    await waitFor('hourly runs', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 4 && allFinal(rows);
    });
    // The API moves it to five minutes at 14:10 (schedule_from), then the engine wakes at 14:21.
    await testDb()('batch_exports').where({ id: batchExport.id }).update({ interval: 'every 5 minutes', schedule_from: new Date('2024-03-01T14:10:00Z') });
    clock.set(new Date('2024-03-01T14:21:00Z'));
    await engine.tick();
    // Paused from 14:21 to 15:02 (an unpause sets schedule_from), then the engine wakes at 15:11.
    await waitFor('five-minute runs', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 6 && allFinal(rows);
    });
    await testDb()('batch_exports').where({ id: batchExport.id }).update({ paused: false, schedule_from: new Date('2024-03-01T15:02:00Z') });
    clock.set(new Date('2024-03-01T15:11:00Z'));
    await engine.tick();
    const runs = await waitFor('all runs', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 8 && allFinal(rows) && rows;
    });
    expect(runs.map((run) => [run.data_interval_start?.toISOString().slice(11, 16), run.data_interval_end.toISOString().slice(11, 16)])).to.deep.equal([
      ['10:00', '11:00'],
      ['11:00', '12:00'],
      ['12:00', '13:00'],
      ['13:00', '14:00'],
      ['14:10', '14:15'],
      ['14:15', '14:20'],
      ['15:00', '15:05'],
      ['15:05', '15:10'],
    ]);
  });

  it('looks for missing intervals only after the latest scheduled run', async () => {
    const clock = new ManualClock(new Date('2024-03-01T14:10:00Z'));
    const destination = recorder();
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport();
    // A scheduled run at 13:00 says every interval before it has been made (scheduled runs are made oldest first);
    // a backfill's run at 12:00 says nothing of the schedule.
    for (const [end, backfill] of [
      ['2024-03-01T13:00:00Z', null],
      ['2024-03-01T12:00:00Z', await createBackfill(batchExport.id, '2024-03-01T11:00:00Z', '2024-03-01T12:00:00Z')],
    ] as const) {
      await testDb()('batch_export_runs').insert({
        id: randomUUID(),
        team_id: batchExport.team_id,
        batch_export_id: batchExport.id,
        backfill_id: backfill,
        status: 'Completed',
        data_interval_start: new Date(new Date(end).getTime() - 60 * MINUTE),
        data_interval_end: new Date(end),
      });
    }
    await testDb()('batch_export_backfills').where({ batch_export_id: batchExport.id }).update({ status: 'Completed' });
    await engine.tick();
    const runs = await waitFor('runs done', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 3 && allFinal(rows) && rows;
    });
    expect(runs.map((run) => [run.data_interval_end.toISOString(), run.status])).to.deep.equal([
      ['2024-03-01T12:00:00.000Z', 'Completed'],
      ['2024-03-01T13:00:00.000Z', 'Completed'],
      ['2024-03-01T14:00:00.000Z', 'Completed'],
    ]);
    expect(destination.calls.map((call) => call.end)).to.deep.equal(['2024-03-01T14:00:00.000Z']);
  });

  it('never creates or runs an interval twice across repeated ticks of two engines', async () => {
    const clock = new ManualClock(new Date('2024-03-01T10:40:00Z'));
    const first = recorder();
    const second = recorder();
    const one = await startEngine(clock, { NoOp: first.destination });
    const two = await startEngine(clock, { NoOp: second.destination });
    const batchExport = await createExport({ interval: 'every 5 minutes' });
    clock.set(new Date('2024-03-01T11:32:00Z'));
    await Promise.all([one.tick(), two.tick(), one.tick(), two.tick()]);
    await Promise.all([one.tick(), two.tick()]);
    const runs = await waitFor('runs done', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 12 && allFinal(rows) && rows;
    });
    expect(runs.every((run) => run.status === 'Completed' && run.attempts === 1)).to.equal(true);
    const ends = [...first.calls, ...second.calls].map((call) => call.end).sort();
    expect(ends).to.deep.equal(runs.map((run) => run.data_interval_end.toISOString()));
  });

  it('retries a retryable failure, then completes', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = flaky(2);
    await startEngine(clock, { NoOp: destination.destination }, { retry: { limit: 2, delaySeconds: 0, backoff: false } });
    const batchExport = await createExport();
    await suite.engines[0]!.tick();
    const [run] = await waitFor('run done', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 1 && rows[0]!.status === 'Completed' && rows;
    });
    expect({ attempts: run!.attempts, records: run!.records_completed, bytes: run!.bytes_exported, calls: destination.calls() }).to.deep.equal({
      attempts: 3,
      records: '3',
      bytes: '30',
      calls: 3,
    });
  });

  it('ends a run Failed at once on a non-retryable error, with its message', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = refusing('The bucket does not exist');
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport();
    await engine.tick();
    const [run] = await waitFor('run done', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 1 && allFinal(rows) && rows;
    });
    expect({ status: run!.status, error: run!.latest_error, attempts: run!.attempts, calls: destination.calls() }).to.deep.equal({
      status: 'Failed',
      error: 'The bucket does not exist',
      attempts: 1,
      calls: 1,
    });
    expect(run!.records_completed).to.equal(null);
  });

  it('ends a run Failed with PostHog\'s message when the destination throws something that is not an Error', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination: Destination = {
      run() {
        return Promise.reject('a bare string');
      },
    };
    const engine = await startEngine(clock, { NoOp: destination });
    const batchExport = await createExport();
    await engine.tick();
    const [run] = await waitFor('run done', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 1 && allFinal(rows) && rows;
    });
    expect({ status: run!.status, error: run!.latest_error, attempts: run!.attempts }).to.deep.equal({
      status: 'Failed',
      error: 'An unexpected error has occurred',
      attempts: 1,
    });
  });

  it('ends a run FailedRetryable when its retries run out', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = flaky(100);
    const engine = await startEngine(clock, { NoOp: destination.destination }, { retry: { limit: 1, delaySeconds: 0, backoff: false } });
    const batchExport = await createExport();
    await engine.tick();
    const [run] = await waitFor('run done', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 1 && allFinal(rows) && rows;
    });
    expect({ status: run!.status, error: run!.latest_error, attempts: run!.attempts, calls: destination.calls() }).to.deep.equal({
      status: 'FailedRetryable',
      error: 'connection reset (attempt 2)',
      attempts: 2,
      calls: 2,
    });
  });

  it('pauses an export whose tenth recent run failed, and cancels its running backfill', async () => {
    const clock = new ManualClock(new Date('2024-03-01T10:30:00Z'));
    const destination = refusing('Invalid credentials');
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport({ interval: 'every 5 minutes' });
    // Nine failures: still running.
    clock.set(new Date('2024-03-01T11:15:00Z'));
    await engine.tick();
    await waitFor('nine failed', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 9 && allFinal(rows);
    });
    expect((await exportRow(batchExport.id)).paused).to.equal(false);
    // A backfill held behind a run in flight stays Running until the pause cancels it.
    const backfillId = await createBackfill(batchExport.id, '2024-02-01T00:00:00Z', '2024-02-01T00:05:00Z');
    await testDb()('batch_export_backfills').where({ id: backfillId }).update({ status: 'Running' });
    await testDb()('batch_export_runs').insert({
      id: randomUUID(),
      team_id: batchExport.team_id,
      batch_export_id: batchExport.id,
      backfill_id: backfillId,
      status: 'Running',
      data_interval_start: new Date('2024-02-01T00:00:00Z'),
      data_interval_end: new Date('2024-02-01T00:05:00Z'),
      job_id: randomUUID(),
      last_updated_at: clock.now(),
    });
    // The tenth.
    clock.set(new Date('2024-03-01T11:20:00Z'));
    await engine.tick();
    const paused = await waitFor('paused', async () => {
      const row = await exportRow(batchExport.id);
      return row.paused && row;
    });
    expect(paused.last_paused_at?.toISOString()).to.equal('2024-03-01T11:20:00.000Z');
    const backfill = await testDb()('batch_export_backfills').where({ id: backfillId }).first();
    expect(backfill.status).to.equal('Cancelled');
    const backfillRuns = await testDb()('batch_export_runs').where({ backfill_id: backfillId }).select('status');
    expect(backfillRuns).to.deep.equal([{ status: 'Cancelled' }]);
    // Paused: the next interval is not scheduled.
    clock.set(new Date('2024-03-01T11:30:00Z'));
    await engine.tick();
    expect((await runsOf(batchExport.id)).filter((run) => run.backfill_id === null)).to.have.length(10);
  });

  it('aborts the destination of a run the API cancelled, and leaves the run Cancelled', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = blocking();
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport();
    await engine.tick();
    const runId = await destination.whenStarted;
    // What the API's cancel does: the status, and a word on the channel in the same transaction.
    await testDb().transaction(async (trx) => {
      await trx('batch_export_runs').where({ id: runId }).whereIn('status', ['Starting', 'Running']).update({ status: 'Cancelled' });
      await notifyEngine(trx);
    });
    await waitFor('aborted', async () => destination.aborted.includes(runId));
    await engine.tick();
    const [run] = await runsOf(batchExport.id);
    expect({ id: run!.id, status: run!.status, attempts: run!.attempts }).to.deep.equal({ id: runId, status: 'Cancelled', attempts: 1 });
  });

  it('hands a run in flight back when its engine stops, for another engine to complete', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const stopping = blocking();
    const first = await startEngine(clock, { NoOp: stopping.destination });
    const batchExport = await createExport();
    await first.tick();
    const runId = await stopping.whenStarted;
    await first.stop();
    expect(stopping.aborted).to.deep.equal([runId]);
    const [handedBack] = await runsOf(batchExport.id);
    expect({ status: handedBack!.status, job: handedBack!.job_id }).to.deep.equal({ status: 'Starting', job: null });
    const destination = recorder({ records: 4 });
    await startEngine(clock, { NoOp: destination.destination });
    const [run] = await waitFor('completed by the second engine', async () => {
      const rows = await runsOf(batchExport.id);
      return rows[0]!.status === 'Completed' && rows;
    });
    expect({ id: run!.id, attempts: run!.attempts, records: run!.records_completed, calls: destination.calls.length }).to.deep.equal({
      id: runId,
      attempts: 2,
      records: '4',
      calls: 1,
    });
  });

  it('does not run a queued run of an export deleted meanwhile', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder();
    const engine = await startEngine(clock, { NoOp: destination.destination }, { concurrency: 1 });
    const batchExport = await createExport({ deleted: true });
    const runId = randomUUID();
    await testDb()('batch_export_runs').insert({
      id: runId,
      team_id: batchExport.team_id,
      batch_export_id: batchExport.id,
      status: 'Running',
      data_interval_start: new Date('2024-03-01T10:00:00Z'),
      data_interval_end: new Date('2024-03-01T11:00:00Z'),
      last_updated_at: new Date('2024-03-01T10:00:00Z'),
    });
    // Its worker died; the take-over finds the export deleted.
    await engine.tick();
    const [run] = await waitFor('cancelled', async () => {
      const rows = await runsOf(batchExport.id);
      return rows[0]!.status === 'Cancelled' && rows;
    });
    expect({ id: run!.id, calls: destination.calls.length }).to.deep.equal({ id: runId, calls: 0 });
  });

  it('does not run again a run that is over when a job for it arrives', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder();
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport();
    await engine.tick();
    const [done] = await waitFor('completed', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 1 && rows[0]!.status === 'Completed' && rows;
    });
    // A stray second job for the same run (a duplicate delivery), and one for a cancelled run.
    const cancelledId = randomUUID();
    await testDb()('batch_export_runs').insert({
      id: cancelledId,
      team_id: batchExport.team_id,
      batch_export_id: batchExport.id,
      status: 'Cancelled',
      data_interval_start: new Date('2024-03-01T08:00:00Z'),
      data_interval_end: new Date('2024-03-01T09:00:00Z'),
    });
    const boss = new PgBoss({ connectionString: connectionStringOf(testDb()), schema: suite.schema, max: 1, schedule: false, supervise: false });
    await boss.start();
    const jobs = [await boss.send(RUN_QUEUE, { runId: done!.id }), await boss.send(RUN_QUEUE, { runId: cancelledId })];
    await waitFor('jobs done', async () => {
      const states = await Promise.all(jobs.map((id) => boss.getJobById(RUN_QUEUE, id!, { includeArchive: true })));
      return states.every((job) => job?.state === 'completed');
    });
    await boss.stop({ graceful: false });
    expect(destination.calls.map((call) => call.runId)).to.deep.equal([done!.id]);
    const after = await runsOf(batchExport.id);
    expect(after.map((run) => [run.id, run.status, run.attempts])).to.deep.equal([
      [cancelledId, 'Cancelled', 0],
      [done!.id, 'Completed', 1],
    ]);
  });

  it('takes over a run whose worker stopped beating, and completes it once', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder();
    const engine = await startEngine(clock, { NoOp: destination.destination }, { leaseMs: 5 * MINUTE });
    const batchExport = await createExport({ paused: true });
    // A worker that claimed the run and died: Running, its heartbeat frozen.
    const runId = randomUUID();
    await testDb()('batch_export_runs').insert({
      id: runId,
      team_id: batchExport.team_id,
      batch_export_id: batchExport.id,
      status: 'Starting',
      data_interval_start: new Date('2024-03-01T10:00:00Z'),
      data_interval_end: new Date('2024-03-01T11:00:00Z'),
    });
    expect(await claimRun(testDb(), { teamId: batchExport.team_id, id: runId }, randomUUID(), clock.now())).to.not.equal(null);
    clock.advance(4 * MINUTE);
    await engine.tick();
    expect((await runsOf(batchExport.id))[0]!.status).to.equal('Running');
    clock.advance(2 * MINUTE);
    await engine.tick();
    const [run] = await waitFor('taken over', async () => {
      const rows = await runsOf(batchExport.id);
      return rows[0]!.status === 'Completed' && rows;
    });
    expect({ id: run!.id, attempts: run!.attempts, calls: destination.calls.length }).to.deep.equal({ id: runId, attempts: 2, calls: 1 });
  });

  it('gives a fresh job to a Starting run that has none left (its job expired and its retry found it Running)', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder();
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport({ paused: true });
    const runId = randomUUID();
    // What releaseRun leaves when the handler of an expired job fails after its retry was already done.
    await testDb()('batch_export_runs').insert({
      id: runId,
      team_id: batchExport.team_id,
      batch_export_id: batchExport.id,
      status: 'Starting',
      attempts: 1,
      latest_error: 'connection reset',
      data_interval_start: new Date('2024-03-01T10:00:00Z'),
      data_interval_end: new Date('2024-03-01T11:00:00Z'),
    });
    await engine.tick();
    const [run] = await waitFor('run done', async () => {
      const rows = await runsOf(batchExport.id);
      return rows[0]!.status === 'Completed' && rows;
    });
    expect({ id: run!.id, attempts: run!.attempts, calls: destination.calls.map((call) => call.runId) }).to.deep.equal({ id: runId, attempts: 2, calls: [runId] });
    // Another tick finds its job and leaves it alone: one job for the run, ever.
    await engine.tick();
    const jobs = await testDb().raw<{ rows: Array<{ n: string }> }>(`select count(*) as n from ??.job where data->>'runId' = ?`, [suite.schema, runId]);
    expect(jobs.rows[0]!.n).to.equal('1');
  });

  it('sizes a process engine\'s pool by its concurrency, which the configuration bounds', async () => {
    const running = await startProcessEngine(
      {
        databaseUrl: connectionStringOf(testDb()),
        concurrency: 12,
        leaseMs: 5 * MINUTE,
        tickIntervalMs: 0,
        clockOffsetMs: 0,
        noopDelayMs: 0,
        connectTimeoutMs: 5_000,
        statementTimeoutMs: 30_000,
        queryTimeoutMs: 15_000,
      },
      pino({ level: 'silent' }),
    );
    try {
      // 12 runs, 3 for the tick, heartbeats and finishes, 3 for the status writes of asynchronous queries.
      expect((running.db.client as { pool: { max: number } }).pool.max).to.equal(18);
    } finally {
      await running.stop();
      await testDb().raw('drop schema if exists pgboss cascade');
    }
    const saved = process.env.HEDGEROW_EXPORT_CONCURRENCY;
    try {
      process.env.HEDGEROW_EXPORT_CONCURRENCY = '32';
      expect(readConfig().exportConcurrency).to.equal(32);
      process.env.HEDGEROW_EXPORT_CONCURRENCY = '33';
      expect(() => readConfig()).to.throw('HEDGEROW_EXPORT_CONCURRENCY must be at most 32, got "33"');
    } finally {
      if (saved === undefined) delete process.env.HEDGEROW_EXPORT_CONCURRENCY;
      else process.env.HEDGEROW_EXPORT_CONCURRENCY = saved;
    }
  });

  /**
   * A five-minute export whose current interval ends a few real seconds from now (its offset places the end):
   * the straddle wait compares with the database's clock, so a run of it waits for real time to pass its end.
   */
  async function exportEndingSoon(secondsAhead: number, fields: Partial<BatchExportRow> = {}): Promise<{ batchExport: BatchExportRow; end: Date }> {
    const createdAt = new Date();
    const end = new Date((Math.ceil(createdAt.getTime() / 1000) + secondsAhead) * 1000);
    const batchExport = await createExport({ interval: 'every 5 minutes', created_at: createdAt, interval_offset: (end.getTime() / 1000) % 300, ...fields });
    return { batchExport, end };
  }

  it('does not wait for a transaction that reads records for another run (it cannot write)', async () => {
    const clock = new ManualClock(new Date());
    const destination = recorder();
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const { batchExport, end } = await exportEndingSoon(2);
    // A long run of an export of another environment, reading its records one at a time: its read-only
    // transaction stays open.
    const other = await newAccount(testDb());
    const old = new Date('2020-01-01T00:00:00Z');
    for (const event of ['a', 'b']) {
      await testDb()('events').insert({ team_id: other.environment.id, uuid: randomUUID(), event, distinct_id: 'd1', timestamp: old });
    }
    const otherExport = { ...batchExport, team_id: other.environment.id };
    const reader = readExportRecords(testDb(), { batchExport: otherExport, start: old, end: new Date('2020-01-02T00:00:00Z'), selectBy: 'timestamp' }, { batchSize: 1 })[
      Symbol.asyncIterator
    ]();
    try {
      expect((await reader.next()).done).to.equal(false);
      clock.set(new Date(end.getTime() + 1_000));
      await engine.tick();
      const [run] = await waitFor('run done', async () => {
        const rows = await runsOf(batchExport.id);
        return rows.length === 1 && rows[0]!.status === 'Completed' && rows;
      });
      expect(run!.data_interval_end.toISOString()).to.equal(end.toISOString());
    } finally {
      await reader.return?.();
    }
  });

  const countByInsertedAt = async (exportRun: ExportRun) => {
    const [row] = await exportRun.db('events')
      .where({ team_id: exportRun.batchExport.team_id })
      .andWhere('inserted_at', '>=', exportRun.run.data_interval_start!)
      .andWhere('inserted_at', '<', exportRun.run.data_interval_end)
      .count({ n: '*' });
    return Number(row!.n);
  };

  it('waits for a transaction that began before the interval ended, naming it in a warning, then exports its event once', async () => {
    const destination = recorder({ count: countByInsertedAt });
    const warnings: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) });
    const clock = new ManualClock(new Date());
    const engine = await startEngine(clock, { NoOp: destination.destination }, { logger, straddleWarnMs: 100 });
    const { batchExport, end } = await exportEndingSoon(2);
    const trx = await testDb().transaction();
    try {
      const [{ pid }] = (await trx.raw<{ rows: Array<{ pid: number }> }>('select pg_backend_pid() as pid')).rows as [{ pid: number }];
      await trx('events').insert({ team_id: suite.account.environment.id, uuid: randomUUID(), event: 'straddler', distinct_id: 'd1', timestamp: new Date() });
      clock.set(new Date(end.getTime() + 1_000));
      await engine.tick();
      await waitFor('claimed', async () => (await runsOf(batchExport.id))[0]?.status === 'Running');
      const warning = await waitFor('warned', async () =>
        warnings.find((line) => line.databaseReachedEnd === true && (line.sessions as Array<{ pid: number }>).some((session) => session.pid === pid)),
      );
      expect(destination.calls).to.deep.equal([]);
      const [run] = await runsOf(batchExport.id);
      const session = (warning.sessions as Array<Record<string, unknown>>).find((entry) => entry.pid === pid)!;
      expect(Object.keys(session).sort()).to.deep.equal(['application_name', 'pid', 'xact_start']);
      expect({ runId: warning.runId, intervalEnd: warning.intervalEnd, started: new Date(session.xact_start as string) < end }).to.deep.equal({
        runId: run!.id,
        intervalEnd: end.toISOString(),
        started: true,
      });
      await trx.commit();
      const [done] = await waitFor('run done', async () => {
        const rows = await runsOf(batchExport.id);
        return rows.length === 1 && rows[0]!.status === 'Completed' && rows;
      });
      expect({ end: done!.data_interval_end.toISOString(), records: done!.records_completed, calls: destination.calls.length }).to.deep.equal({
        end: end.toISOString(),
        records: '1',
        calls: 1,
      });
    } finally {
      if (!trx.isCompleted()) await trx.rollback();
    }
  });

  it('waits for the database\'s clock to pass the interval\'s end when the engine\'s clock runs ahead of it', async () => {
    const databaseTimes: Date[] = [];
    const destination = recorder({
      count: async (exportRun) => {
        const { rows } = await exportRun.db.raw<{ rows: Array<{ now: Date }> }>('select now() as now');
        databaseTimes.push(rows[0]!.now);
        return countByInsertedAt(exportRun);
      },
    });
    const clock = new ManualClock(new Date());
    const engine = await startEngine(clock, { NoOp: destination.destination });
    // An environment of its own: no other test's events are in its interval.
    const own = await newAccount(testDb());
    const { batchExport, end } = await exportEndingSoon(3, { team_id: own.environment.id });
    // The engine's clock is a minute ahead: by it, the interval is over.
    clock.set(new Date(end.getTime() + MINUTE));
    await engine.tick();
    // A transaction that starts after the engine took the interval as over, yet before the database's clock
    // reaches its end: its event's inserted_at is inside the interval.
    await testDb()('events').insert({ team_id: own.environment.id, uuid: randomUUID(), event: 'late', distinct_id: 'd1', timestamp: new Date() });
    const [run] = await waitFor('run done', async () => {
      const rows = await runsOf(batchExport.id);
      return rows.length === 1 && rows[0]!.status === 'Completed' && rows;
    });
    expect({ records: run!.records_completed, readAfterEnd: databaseTimes.length === 1 && databaseTimes[0]! >= end }).to.deep.equal({
      records: '1',
      readAfterEnd: true,
    });
  });
});
