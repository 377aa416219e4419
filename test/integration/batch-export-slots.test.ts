/**
 * One tenant's slow destinations cannot hold every export slot: a request to a destination has a deadline for
 * the whole of it (a destination dribbling a byte a second does not keep it alive), and one environment runs on
 * at most all of an engine's slots but one, so another environment's run goes on meanwhile.
 *
 * The slow destination is a tarpit on loopback: it answers the start of a status line, then one byte a second,
 * forever.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import net from 'node:net';
import { expect } from 'chai';
import pino from 'pino';
import type { BatchExportRow, BatchExportRunRow } from '../../db/queries/batch-exports/rows.js';
import { insertOrganizationWithOwner } from '../../db/queries/organizations.js';
import { ManualClock } from '../../handlers/jobs/clock.js';
import { UNREACHABLE_MESSAGE } from '../../handlers/jobs/destinations/egress.js';
import { createHttpDestination } from '../../handlers/jobs/destinations/http.js';
import { noopDestination } from '../../handlers/jobs/destinations/noop.js';
import { createS3Destination } from '../../handlers/jobs/destinations/s3.js';
import type { ExportRun } from '../../handlers/jobs/destinations/types.js';
import { Engine } from '../../handlers/jobs/engine.js';
import { exportRow, runRow } from '../helpers/batch-exports.js';
import { testDb } from '../helpers/database.js';
import { loopbackAddresses } from '../helpers/destination-addresses.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { insertEvents } from '../helpers/seed-events.js';

const DEADLINE_MS = 6_000;
const WINDOW = { start: '2026-01-01T10:00:00Z', end: '2026-01-01T11:00:00Z' };

interface Tarpit {
  url: string;
  port: number;
  /** Connections open now, and the most ever open at once. */
  open: number;
  maxOpen: number;
  /** When each connection was opened and closed (ms since the epoch). */
  spans: Array<{ opened: number; closed: number | null }>;
  close(): Promise<void>;
}

async function startTarpit(): Promise<Tarpit> {
  const sockets = new Set<net.Socket>();
  const tarpit = { open: 0, maxOpen: 0, spans: [] as Tarpit['spans'] } as Tarpit;
  const server = net.createServer((socket) => {
    sockets.add(socket);
    const span = { opened: Date.now(), closed: null as number | null };
    tarpit.spans.push(span);
    tarpit.open += 1;
    tarpit.maxOpen = Math.max(tarpit.maxOpen, tarpit.open);
    let timer: NodeJS.Timeout | null = null;
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\n');
      timer = setInterval(() => socket.write('X'), 1_000);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (timer) clearInterval(timer);
      span.closed = Date.now();
      tarpit.open -= 1;
      sockets.delete(socket);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as net.AddressInfo;
  return Object.assign(tarpit, {
    url: `http://127.0.0.1:${port}/batch/`,
    port,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  });
}

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('export slots and slow destinations', function () {
  this.timeout(120_000);
  let tarpit: Tarpit;
  let slow: Account;
  let other: Account;
  /** The environment of a second organization of slow's user, as POST /api/organizations/ makes one. */
  let slowSecondEnvironment: number;

  before(async () => {
    [slow, other] = await Promise.all([newAccount(testDb()), newAccount(testDb())]);
    const second = await testDb().transaction((trx) => insertOrganizationWithOwner(trx, slow.user.id, { name: `second-${randomBytes(3).toString('hex')}` }));
    slowSecondEnvironment = second.environment.id;
    for (const environmentId of [slow.environment.id, slowSecondEnvironment]) {
      await insertEvents(testDb(), environmentId, [{ event: 'signed up', distinct_id: 'u1', timestamp: '2026-01-01T10:30:00Z' }]);
    }
  });

  beforeEach(async () => {
    tarpit = await startTarpit();
  });

  afterEach(async () => {
    await tarpit.close();
  });

  const slowPlaces: Array<[string, () => [number, number]]> = [
    ['two exports of one environment', () => [slow.environment.id, slow.environment.id]],
    ["one export in each of one user's two organizations", () => [slow.environment.id, slowSecondEnvironment]],
  ];
  for (const [place, environmentsOf] of slowPlaces) {
  it(`ends a request the destination dribbles at its deadline (retryable), and another tenant's run completes meanwhile: ${place}`, async () => {
    const schema = `pgboss_test_${randomBytes(4).toString('hex')}`;
    const engine = new Engine({
      db: testDb(),
      logger: pino({ level: 'silent' }),
      clock: new ManualClock(new Date('2026-01-01T12:10:00Z')),
      destinations: { HTTP: createHttpDestination({ requestDeadlineMs: DEADLINE_MS }), NoOp: noopDestination() },
      addresses: loopbackAddresses,
      schema,
      cron: false,
      concurrency: 2,
      pollingIntervalSeconds: 0.5,
      retry: { limit: 1, delaySeconds: 0, backoff: false },
    });
    const backfill = async (account: Account, environmentId: number, fields: Partial<BatchExportRow>): Promise<string> => {
      const [row] = await testDb()('batch_exports')
        .insert({
          id: randomUUID(),
          team_id: environmentId,
          created_by: account.user.id,
          name: 'export',
          interval: 'hour',
          created_at: new Date('2026-01-01T12:05:00Z'),
          ...fields,
        })
        .returning('*');
      await testDb()('batch_export_backfills').insert({
        id: randomUUID(),
        batch_export_id: row.id,
        team_id: environmentId,
        start_at: WINDOW.start,
        end_at: WINDOW.end,
        adjusted_start_at: WINDOW.start,
        status: 'Starting',
      });
      return row.id as string;
    };
    const runOf = async (exportId: string) => testDb()<BatchExportRunRow>('batch_export_runs').where({ batch_export_id: exportId }).first();
    try {
      // Created after the last interval that ended: only the backfills make runs.
      // Two exports of one tenant to the tarpit: with no share they would take both slots.
      const toTarpit = { destination_type: 'HTTP' as const, destination_config: { url: tarpit.url, token: 'phc_slow' } };
      const slowExports: string[] = [];
      for (const environmentId of environmentsOf()) slowExports.push(await backfill(slow, environmentId, toTarpit));
      await engine.start();
      await waitFor(async () => tarpit.spans.length > 0);
      // Then the other environment's export, while the tarpit holds the first request.
      const otherExport = await backfill(other, other.environment.id, { destination_type: 'NoOp', destination_config: {} });
      await engine.tick();
      const otherRun = await waitFor(async () => {
        const run = await runOf(otherExport);
        return run?.status === 'Completed' && run;
      });
      const first = tarpit.spans[0]!;
      expect(first.closed === null || first.closed > otherRun.finished_at!.getTime(), 'the first request still held').to.equal(true);

      const slowRuns = await waitFor(async () => {
        const runs = await Promise.all(slowExports.map(runOf));
        return runs.every((run) => run && ['Completed', 'Failed', 'FailedRetryable', 'Cancelled'].includes(run.status)) && runs;
      });
      expect(slowRuns.map((run) => [run!.status, run!.latest_error, run!.attempts])).to.deep.equal([
        ['FailedRetryable', UNREACHABLE_MESSAGE, 2],
        ['FailedRetryable', UNREACHABLE_MESSAGE, 2],
      ]);
      // One request per attempt, one at a time (the tenant's share of two slots is one), each ended by the
      // deadline however many bytes came meanwhile.
      expect(tarpit.spans).to.have.length(4);
      expect(tarpit.maxOpen).to.equal(1);
      for (const span of tarpit.spans) {
        const lasted = span.closed! - span.opened;
        expect(lasted).to.be.within(DEADLINE_MS - 500, DEADLINE_MS + 5_000);
      }
    } finally {
      await engine.stop();
      const environments = [slow.environment.id, slowSecondEnvironment, other.environment.id];
      await testDb()('batch_export_backfills').whereIn('team_id', environments).whereIn('status', ['Starting', 'Running']).update({ status: 'Cancelled' });
      await testDb()('batch_exports').whereIn('team_id', environments).update({ deleted: true });
      await testDb().raw(`drop schema if exists ${schema} cascade`);
    }
  });
  }

  it('ends an S3 request the endpoint dribbles at its deadline, as a retryable connection failure', async () => {
    const config = {
      bucket_name: 'exports',
      region: 'us-east-1',
      prefix: '',
      endpoint_url: `http://127.0.0.1:${tarpit.port}`,
      aws_access_key_id: 'AKIAEXAMPLE',
      aws_secret_access_key: 'secret-key',
    };
    const batchExport = exportRow(slow.environment.id, { destination_type: 'S3Compatible', destination_config: config });
    const exportRun: ExportRun = {
      batchExport,
      run: runRow(batchExport, { start: new Date(WINDOW.start), end: new Date(WINDOW.end) }),
      selectBy: 'timestamp',
      db: testDb(),
      addresses: loopbackAddresses,
      signal: new AbortController().signal,
      progress: async () => undefined,
    };
    const destination = createS3Destination({ requestDeadlineMs: DEADLINE_MS, jsonLines: 'records' });
    const started = Date.now();
    const failure = await destination.run(exportRun).then(
      () => null,
      (error: unknown) => error,
    );
    const took = Date.now() - started;
    expect(failure).to.be.an.instanceOf(Error);
    expect((failure as Error).name).to.equal('Error');
    expect((failure as Error).message).to.equal(UNREACHABLE_MESSAGE);
    // The create request, and the abort of nothing: the deadline ended it, not the idle timeout.
    expect(took).to.be.within(DEADLINE_MS - 500, DEADLINE_MS + 5_000);
    expect(tarpit.maxOpen).to.equal(1);
  });
});
