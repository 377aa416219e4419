/**
 * The HTTP destination: events captured into one Hedgerow, exported by a hand-built run to the `/batch/` endpoint
 * of a second Hedgerow on its own database (where they land once, with their uuids, however often the run is
 * repeated) and to a local receiver that records the requests and answers what a test asks of it.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { formatDatetime } from '../../handlers/jobs/destinations/files.js';
import { createHttpDestination, httpDestination } from '../../handlers/jobs/destinations/http.js';
import { NonRetryableExportError, type ExportRun } from '../../handlers/jobs/destinations/types.js';
import { exportRow, runRow } from '../helpers/batch-exports.js';
import { startReceiver } from '../helpers/http-receiver.js';
import { createDatabase, databaseUrl, dropDatabase, testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { loopbackAddresses } from '../helpers/destination-addresses.js';

const WINDOW = { start: new Date('2026-01-01T10:00:00Z'), end: new Date('2026-01-01T11:00:00Z') };

function harness(account: Account, config: Record<string, unknown>) {
  const batchExport = exportRow(account.environment.id, { name: 'to http', destination_type: 'HTTP', destination_config: config });
  const run = runRow(batchExport, WINDOW);
  const progress: Array<{ recordsCompleted?: number; bytesExported?: number; cursor?: string | null }> = [];
  const exportRun: ExportRun = {
    batchExport,
    run,
    selectBy: 'timestamp',
    db: testDb(),
    addresses: loopbackAddresses,
    signal: new AbortController().signal,
    progress: async (update) => void progress.push(update),
  };
  return { exportRun, progress };
}

interface StoredEvent {
  uuid: string;
  event: string;
  distinct_id: string;
  timestamp: Date;
  properties: Record<string, unknown>;
  elements_chain: string;
}

const eventsOf = (db: Db, teamId: number): Promise<StoredEvent[]> =>
  db('events')
    .where({ team_id: teamId })
    .orderBy([{ column: 'timestamp' }, { column: 'uuid' }])
    .select('uuid', 'event', 'distinct_id', 'timestamp', 'properties', 'elements_chain');

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the run to fail');
}

describe('batch export to HTTP', function () {
  this.timeout(60_000);
  let source: TestServer;
  let receiver: TestServer;
  let receiverDatabase: string;
  let receiverDb: Db;
  let account: Account;
  let target: Account;

  before(async () => {
    receiverDatabase = await createDatabase('hedgerow_test_receiver');
    receiverDb = createDb(databaseUrl(receiverDatabase));
    await migrateLatest(receiverDb);
    [source, receiver] = await Promise.all([startTestServer(), startTestServer({ db: receiverDb })]);
    account = await newAccount(testDb());
    target = await newAccount(receiverDb);
    const res = await source.http.request('POST', '/batch/', {
      rawBody: JSON.stringify({
        api_key: account.environment.api_token,
        historical_migration: true,
        batch: [
          { event: '$pageview', distinct_id: 'ada', timestamp: '2026-01-01T10:10:00.250Z', uuid: randomUUID(), properties: { $current_url: 'https://example.com/', n: 1 } },
          {
            event: '$autocapture',
            distinct_id: 'ada',
            timestamp: '2026-01-01T10:20:00Z',
            uuid: randomUUID(),
            properties: { $event_type: 'click', $elements_chain: 'button.primary:nth-child="1"nth-of-type="1"text="Buy"' },
          },
          { event: 'signed up', distinct_id: 'bob', timestamp: '2026-01-01T10:59:59Z', uuid: randomUUID(), properties: { nested: { a: [1, 2] } } },
          { event: 'outside', distinct_id: 'bob', timestamp: '2026-01-01T11:00:00Z', uuid: randomUUID() },
        ],
      }),
      headers: { 'content-type': 'application/json' },
    });
    expect([res.status, res.body]).to.deep.equal([200, { status: 1 }]);
  });
  after(async () => {
    await Promise.all([source?.close(), receiver?.close()]);
    await receiverDb?.destroy();
    if (receiverDatabase) await dropDatabase(receiverDatabase);
  });

  /** The body events PostHog's HTTP export makes of the window's stored events. */
  async function expectedBatch(): Promise<Array<Record<string, unknown>>> {
    const stored = (await eventsOf(testDb(), account.environment.id)).filter((event) => event.timestamp < WINDOW.end);
    expect(stored.map((event) => event.event)).to.deep.equal(['$pageview', '$autocapture', 'signed up']);
    return stored.map((event) => ({
      uuid: event.uuid,
      distinct_id: event.distinct_id,
      timestamp: formatDatetime(event.timestamp),
      event: event.event,
      properties: {
        ...event.properties,
        $geoip_disable: true,
        ...(event.event === '$autocapture' ? { $elements_chain: event.elements_chain } : {}),
      },
    }));
  }

  it('posts the window’s events in PostHog’s /batch/ body, flushing at the event limit, reporting each flush', async () => {
    const local = await startReceiver();
    try {
      const { exportRun, progress } = harness(account, { url: local.url, token: 'phc_receiver' });
      const outcome = await createHttpDestination({ maxEventsPerRequest: 2 }).run(exportRun);
      const batch = await expectedBatch();
      expect(local.bodies).to.deep.equal([
        { contentType: 'application/json', body: { api_key: 'phc_receiver', historical_migration: true, batch: batch.slice(0, 2) } },
        { contentType: 'application/json', body: { api_key: 'phc_receiver', historical_migration: true, batch: batch.slice(2) } },
      ]);
      expect(outcome.recordsCompleted).to.equal(3);
      expect(progress.map((update) => update.recordsCompleted)).to.deep.equal([2, 3]);
      expect(progress.at(-1)!.bytesExported).to.equal(outcome.bytesExported).and.to.be.greaterThan(0);
      // How far each flush got: the event time of its last event (this run selects by event time).
      expect(progress.map((update) => update.cursor)).to.deep.equal([1, 2].map((index) => new Date(batch[index]!.timestamp as string).toISOString()));
    } finally {
      await local.close();
    }
  });

  it('lands the events in another Hedgerow with their uuids, and once only when the run is repeated', async () => {
    const config = { url: `${receiver.directUrl}/batch/`, token: target.environment.api_token };
    const first = await httpDestination.run(harness(account, config).exportRun);
    const second = await httpDestination.run(harness(account, config).exportRun);
    expect([first.recordsCompleted, second.recordsCompleted]).to.deep.equal([3, 3]);
    const landed = await eventsOf(receiverDb, target.environment.id);
    const stored = await eventsOf(testDb(), account.environment.id);
    // The receiver's capture moves $elements_chain from the properties into the column, as the sender's did.
    const sent = (await expectedBatch()).map((event, index) => {
      const properties = { ...(event.properties as Record<string, unknown>) };
      delete properties.$elements_chain;
      return { ...event, properties, elements_chain: stored[index]!.elements_chain };
    });
    expect(sent[1]!.elements_chain).to.equal('button.primary:nth-child="1"nth-of-type="1"text="Buy"');
    expect(
      landed.map((event) => ({
        uuid: event.uuid,
        distinct_id: event.distinct_id,
        timestamp: formatDatetime(event.timestamp),
        event: event.event,
        properties: event.properties,
        elements_chain: event.elements_chain,
      })),
    ).to.deep.equal(sent);
  });

  const retryable: Array<[number, string]> = [
    [500, '{"detail":"boom"}'],
    [503, 'unavailable'],
    [429, '{"detail":"slow down"}'],
  ];
  for (const [status, body] of retryable) {
    it(`leaves a ${status} answer to the engine's retries`, async () => {
      const local = await startReceiver();
      try {
        Object.assign(local.answer, { status, body });
        const error = await failure(httpDestination.run(harness(account, { url: local.url, token: 't' }).exportRun));
        expect(error).to.be.instanceOf(Error).and.not.to.be.instanceOf(NonRetryableExportError);
        expect((error as Error).message).to.equal(`RetryableResponseError (status: ${status}): ${body}`);
      } finally {
        await local.close();
      }
    });
  }

  it('fails for good on a 400, naming the status and the body', async () => {
    const local = await startReceiver();
    try {
      Object.assign(local.answer, { status: 400, body: '{"type":"validation_error","detail":"bad"}' });
      const { exportRun, progress } = harness(account, { url: local.url, token: 't' });
      const error = await failure(httpDestination.run(exportRun));
      expect(error).to.be.instanceOf(NonRetryableExportError);
      expect((error as Error).message).to.equal('NonRetryableResponseError (status: 400): {"type":"validation_error","detail":"bad"}');
      expect(progress).to.deep.equal([]);
    } finally {
      await local.close();
    }
  });

  it('keeps only a short excerpt of a long error body', async () => {
    const local = await startReceiver();
    try {
      Object.assign(local.answer, { status: 400, body: `${'x'.repeat(4096)}${'y'.repeat(1 << 20)}` });
      const { exportRun } = harness(account, { url: local.url, token: 't' });
      const error = await failure(httpDestination.run(exportRun));
      expect((error as Error).message).to.equal(`NonRetryableResponseError (status: 400): ${'x'.repeat(200)}…`);
    } finally {
      await local.close();
    }
  });

  it('leaves an unreachable receiver to the engine’s retries, and refuses a URL that is not one', async () => {
    const local = await startReceiver();
    await local.close();
    const unreachable = await failure(httpDestination.run(harness(account, { url: local.url, token: 't' }).exportRun));
    expect(unreachable).to.be.instanceOf(Error).and.not.to.be.instanceOf(NonRetryableExportError);
    expect((unreachable as Error).message).to.equal('ConnectionError: the destination could not be reached');
    const invalid = await failure(httpDestination.run(harness(account, { url: 'not a url', token: 't' }).exportRun));
    expect(invalid).to.be.instanceOf(NonRetryableExportError).with.property('message', 'Invalid destination URL: not a url');
  });
});
