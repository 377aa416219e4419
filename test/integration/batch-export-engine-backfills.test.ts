/**
 * The batch export engine's backfills, in-process against the test database with a manual clock: windows in
 * order, retries, resuming after a crash, windows not yet ended, long spans, and backfills with no end.
 * (Scheduling, runs and their failures: batch-export-engine.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ManualClock } from '../../handlers/jobs/clock.js';
import type { Destination } from '../../handlers/jobs/destinations/types.js';
import { testDb } from '../helpers/database.js';
import { exportRow, recorder, runsOf, waitFor } from '../helpers/engine-doubles.js';
import { engineSuite } from '../helpers/engine-suite.js';

describe('batch export engine: backfills', function () {
  this.timeout(30_000);
  const { startEngine, createExport, createBackfill } = engineSuite();

  it('runs backfill windows in order, one at a time, re-running a finished interval and moving on past a failed window', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder({ records: 5, failEnds: ['2024-02-01T03:00:00.000Z'] });
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport({ paused: true });
    // A scheduled run of the second window that is over: the backfill runs it again under its own id.
    const earlierId = randomUUID();
    await testDb()('batch_export_runs').insert({
      id: earlierId,
      team_id: batchExport.team_id,
      batch_export_id: batchExport.id,
      status: 'Completed',
      records_completed: 1,
      data_interval_start: new Date('2024-02-01T01:00:00Z'),
      data_interval_end: new Date('2024-02-01T02:00:00Z'),
    });
    const backfillId = await createBackfill(batchExport.id, '2024-02-01T00:00:00Z', '2024-02-01T04:30:00Z');
    await engine.tick();
    const backfill = await waitFor('backfill done', async () => {
      const row = await testDb()('batch_export_backfills').where({ id: backfillId }).first();
      return row.status !== 'Starting' && row.status !== 'Running' && row;
    });
    expect({ status: backfill.status, total: backfill.total_records_count }).to.deep.equal({ status: 'Completed', total: '15' });
    expect(backfill.finished_at).to.be.an.instanceOf(Date);
    expect(destination.calls.map((call) => [call.start, call.end, call.selectBy])).to.deep.equal([
      ['2024-02-01T00:00:00.000Z', '2024-02-01T01:00:00.000Z', 'timestamp'],
      ['2024-02-01T01:00:00.000Z', '2024-02-01T02:00:00.000Z', 'timestamp'],
      ['2024-02-01T02:00:00.000Z', '2024-02-01T03:00:00.000Z', 'timestamp'],
      ['2024-02-01T03:00:00.000Z', '2024-02-01T04:00:00.000Z', 'timestamp'],
    ]);
    expect(destination.maxRunning()).to.equal(1);
    const runs = await runsOf(batchExport.id);
    expect(runs.map((run) => [run.data_interval_end.toISOString(), run.status, run.backfill_id, run.records_completed])).to.deep.equal([
      ['2024-02-01T01:00:00.000Z', 'Completed', backfillId, '5'],
      ['2024-02-01T02:00:00.000Z', 'Completed', backfillId, '5'],
      ['2024-02-01T03:00:00.000Z', 'Failed', backfillId, null],
      ['2024-02-01T04:00:00.000Z', 'Completed', backfillId, '5'],
    ]);
    expect(runs[1]!.id).to.equal(earlierId);
  });

  it('never takes back a window that a retry of its run has run since', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    const destination: Destination = {
      async run(exportRun) {
        const end = exportRun.run.data_interval_end.toISOString();
        calls.push(end);
        // The backfill's second window waits, so that the first one's retry runs meanwhile.
        if (end === '2024-02-01T02:00:00.000Z' && calls.filter((call) => call === end).length === 1) await gate;
        return { recordsCompleted: 1, bytesExported: 1 };
      },
    };
    // Two runs of the one environment at once: three slots, of which an environment may hold two.
    const engine = await startEngine(clock, { NoOp: destination }, { concurrency: 3 });
    const batchExport = await createExport({ paused: true });
    const first = await createBackfill(batchExport.id, '2024-02-01T00:00:00Z', '2024-02-01T03:00:00Z');
    await engine.tick();
    await waitFor('second window started', async () => calls.includes('2024-02-01T02:00:00.000Z'));
    // The first window's run is retried: a backfill of that interval alone, which takes its run row over.
    const retry = await createBackfill(batchExport.id, '2024-02-01T00:00:00Z', '2024-02-01T01:00:00Z');
    await engine.tick();
    const backfillStatus = async (id: string) => ((await testDb()('batch_export_backfills').where({ id }).first()) as { status: string }).status;
    await waitFor('retry done', async () => (await backfillStatus(retry)) === 'Completed');
    release();
    await waitFor('first backfill done', async () => (await backfillStatus(first)) === 'Completed');
    expect(calls).to.deep.equal([
      '2024-02-01T01:00:00.000Z',
      '2024-02-01T02:00:00.000Z',
      '2024-02-01T01:00:00.000Z',
      '2024-02-01T03:00:00.000Z',
    ]);
    const runs = await runsOf(batchExport.id);
    expect(runs.map((run) => [run.data_interval_end.toISOString(), run.backfill_id])).to.deep.equal([
      ['2024-02-01T01:00:00.000Z', retry],
      ['2024-02-01T02:00:00.000Z', first],
      ['2024-02-01T03:00:00.000Z', first],
    ]);
  });

  it('resumes a backfill whose process died, skipping the windows it already finished', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder({ records: 7 });
    const batchExport = await createExport({ paused: true });
    const backfillId = await createBackfill(batchExport.id, '2024-02-01T00:00:00Z', '2024-02-01T03:00:00Z');
    // What a dead engine left: the backfill Running, its first window Completed.
    await testDb()('batch_export_backfills').where({ id: backfillId }).update({ status: 'Running' });
    await testDb()('batch_export_runs').insert({
      id: randomUUID(),
      team_id: batchExport.team_id,
      batch_export_id: batchExport.id,
      backfill_id: backfillId,
      status: 'Completed',
      records_completed: 7,
      data_interval_start: new Date('2024-02-01T00:00:00Z'),
      data_interval_end: new Date('2024-02-01T01:00:00Z'),
    });
    await startEngine(clock, { NoOp: destination.destination });
    const backfill = await waitFor('backfill done', async () => {
      const row = await testDb()('batch_export_backfills').where({ id: backfillId }).first();
      return row.status === 'Completed' && row;
    });
    expect(destination.calls.map((call) => call.end)).to.deep.equal(['2024-02-01T02:00:00.000Z', '2024-02-01T03:00:00.000Z']);
    expect(backfill.total_records_count).to.equal('21');
  });

  it('starts a backfill window only once it has ended, leaving the backfill Running until then', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder({ records: 1 });
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport({ paused: true });
    const backfillId = await createBackfill(batchExport.id, '2024-03-01T10:00:00Z', '2024-03-01T13:00:00Z');
    const backfillRow = async () => (await testDb()('batch_export_backfills').where({ id: backfillId }).first()) as { status: string; finished_through: Date | null };
    const ends = async () => (await runsOf(batchExport.id)).map((run) => [run.data_interval_end.toISOString(), run.status]);
    await engine.tick();
    // The advance that records the first window as finished is the one that would start the next.
    await waitFor('first window finished', async () => (await backfillRow()).finished_through?.toISOString() === '2024-03-01T11:00:00.000Z');
    expect(await ends()).to.deep.equal([['2024-03-01T11:00:00.000Z', 'Completed']]);
    expect((await backfillRow()).status).to.equal('Running');
    clock.set(new Date('2024-03-01T12:00:00Z'));
    await engine.tick();
    await waitFor('second window finished', async () => (await backfillRow()).finished_through?.toISOString() === '2024-03-01T12:00:00.000Z');
    expect((await backfillRow()).status).to.equal('Running');
    clock.set(new Date('2024-03-01T13:20:00Z'));
    await engine.tick();
    await waitFor('backfill done', async () => (await backfillRow()).status === 'Completed');
    expect(await ends()).to.deep.equal([
      ['2024-03-01T11:00:00.000Z', 'Completed'],
      ['2024-03-01T12:00:00.000Z', 'Completed'],
      ['2024-03-01T13:00:00.000Z', 'Completed'],
    ]);
    expect(destination.calls.map((call) => call.selectBy)).to.deep.equal(['timestamp', 'timestamp', 'timestamp']);
  });

  it('moves a backfill over decades of five-minute windows on from where it got to, and ends it Failed when every window failed', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder({ failEnds: ['2024-02-01T00:05:00.000Z', '2024-02-01T00:10:00.000Z', '2024-02-01T00:15:00.000Z'] });
    const batchExport = await createExport({ paused: true, interval: 'every 5 minutes' });
    const backfillId = await createBackfill(batchExport.id, '1970-01-01T00:00:00Z', '2024-02-01T00:15:00Z');
    // Almost done: every earlier window is finished (its runs since taken over or deleted).
    await testDb()('batch_export_backfills').where({ id: backfillId }).update({ status: 'Running', finished_through: new Date('2024-02-01T00:00:00Z') });
    await startEngine(clock, { NoOp: destination.destination });
    const backfill = await waitFor('backfill done', async () => {
      const row = await testDb()('batch_export_backfills').where({ id: backfillId }).first();
      return row.status !== 'Running' && row;
    });
    expect(backfill.status).to.equal('Failed');
    expect(destination.calls.map((call) => [call.start, call.end])).to.deep.equal([
      ['2024-02-01T00:00:00.000Z', '2024-02-01T00:05:00.000Z'],
      ['2024-02-01T00:05:00.000Z', '2024-02-01T00:10:00.000Z'],
      ['2024-02-01T00:10:00.000Z', '2024-02-01T00:15:00.000Z'],
    ]);
  });

  it('ends a backfill with no end when it reaches now, and unpauses the export', async () => {
    const clock = new ManualClock(new Date('2024-03-01T11:10:00Z'));
    const destination = recorder({ records: 2 });
    const engine = await startEngine(clock, { NoOp: destination.destination });
    const batchExport = await createExport({ paused: true, created_at: new Date('2024-03-01T11:05:00Z') });
    const backfillId = await createBackfill(batchExport.id, '2024-03-01T08:00:00Z', null);
    await engine.tick();
    const backfill = await waitFor('backfill done', async () => {
      const row = await testDb()('batch_export_backfills').where({ id: backfillId }).first();
      return row.status === 'Completed' && row;
    });
    expect(backfill.total_records_count).to.equal('6');
    expect(destination.calls.map((call) => call.end)).to.deep.equal(['2024-03-01T09:00:00.000Z', '2024-03-01T10:00:00.000Z', '2024-03-01T11:00:00.000Z']);
    expect((await exportRow(batchExport.id)).paused).to.equal(false);
  });
});
