/**
 * Batch exports as a user meets them: a server started as `npm start` does (its engine in a process of its own),
 * events captured through `/batch/`, an export created through the API to an S3-compatible server, and the
 * files that appear there. One export is backfilled over a past hour (runs select by event time); the other is
 * left to the schedule, with the server's clock an hour ahead so that the current hour is due (runs select by
 * ingestion time).
 */
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { HttpClient } from '../helpers/http.js';
import { startServerProcess, stopServerProcess, type ServerProcess } from '../helpers/processes.js';
import { startTestS3, type TestS3 } from '../helpers/s3.js';
import { LOOPBACK_ALLOWLIST } from '../helpers/destination-addresses.js';

const HOUR = 3_600_000;

interface Run {
  status: string;
  records_completed: number | null;
  records_total_count: number | null;
  data_interval_start: string | null;
  data_interval_end: string;
  latest_error: string | null;
}

async function waitFor<T>(probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (;;) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const lines = (gzipped: Buffer): Array<Record<string, unknown>> =>
  gunzipSync(gzipped)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('batch exports end to end', function () {
  this.timeout(120_000);
  let name: string;
  let db: Db;
  let s3: TestS3;
  let server: ServerProcess;
  let account: Account;
  let api: HttpClient;

  before(async () => {
    name = await createDatabase('hedgerow_exports_e2e');
    db = createDb(databaseUrl(name));
    await migrateLatest(db);
    account = await newAccount(db);
    s3 = await startTestS3();
    server = await startServerProcess({
      DATABASE_URL: databaseUrl(name),
      HEDGEROW_CLOCK_OFFSET_MS: String(HOUR),
      HEDGEROW_EXPORT_TICK_INTERVAL_MS: '300',
      // s3rver listens on loopback.
      HEDGEROW_DESTINATION_ALLOWLIST: LOOPBACK_ALLOWLIST.join(','),
    });
    api = new HttpClient(server.baseUrl, account.key);
  });

  after(async () => {
    if (server) await stopServerProcess(server);
    await s3?.close();
    await db?.destroy();
    if (name) await dropDatabase(name);
  });

  async function capture(batch: Array<Record<string, unknown>>, into: Account = account): Promise<void> {
    const res = await api.request('POST', '/batch/', {
      key: null,
      rawBody: JSON.stringify({ api_key: into.environment.api_token, historical_migration: true, batch }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).to.equal(200);
  }

  const exportsPath = (of: Account = account) => `/api/environments/${of.environment.id}/batch_exports/`;

  /**
   * The export's runs. The listing ends at the database's now unless told otherwise (as PostHog's ends at now),
   * while this server's engine stamps runs with its clock an hour ahead: `before` reaches past the engine's now.
   */
  async function runsOf(exportId: string, of: Account = account): Promise<Run[]> {
    const before = new Date(Date.now() + 2 * HOUR).toISOString();
    const res = await api.get<{ results: Run[] }>(`${exportsPath(of)}${exportId}/runs/?before=${before}`, { key: of.key });
    expect(res.status).to.equal(200);
    return res.body.results;
  }

  it('backfills a past hour into gzip JSONLines files on S3', async () => {
    const events = [
      { event: 'signed up', distinct_id: 'ada', timestamp: '2026-01-01T10:15:00.000Z', uuid: randomUUID(), properties: { plan: 'pro' } },
      { event: '$pageview', distinct_id: 'bob', timestamp: '2026-01-01T10:45:00.000Z', uuid: randomUUID(), properties: { $current_url: 'https://example.com/' } },
      // Outside the hour: not exported.
      { event: 'later', distinct_id: 'ada', timestamp: '2026-01-01T11:00:00.000Z', uuid: randomUUID() },
    ];
    await capture(events);

    const created = await api.post<{ id: string; destination: { config: Record<string, unknown> } }>(exportsPath(), {
      name: 'events to S3',
      model: 'events',
      interval: 'hour',
      paused: true,
      destination: { type: 'S3Compatible', config: s3.config({ prefix: 'backfill/{year}/{month}/{day}', compression: 'gzip' }) },
    });
    expect(created.status).to.equal(201);
    expect(created.body.destination.config).to.not.have.any.keys('aws_access_key_id', 'aws_secret_access_key');
    const backfill = await api.post<{ backfill_id: string }>(`${exportsPath()}${created.body.id}/backfills/`, {
      start_at: '2026-01-01T10:00:00Z',
      end_at: '2026-01-01T11:00:00Z',
    });
    expect(backfill.status).to.equal(200);

    const [run] = await waitFor(async () => {
      const runs = await runsOf(created.body.id);
      return runs.length === 1 && !['Starting', 'Running'].includes(runs[0]!.status) && runs;
    });
    expect(run).to.deep.include({
      status: 'Completed',
      records_completed: 2,
      records_total_count: 2,
      data_interval_start: '2026-01-01T10:00:00.000Z',
      data_interval_end: '2026-01-01T11:00:00.000Z',
      latest_error: null,
    });
    const key = 'backfill/2026/01/01/2026-01-01T10:00:00+00:00-2026-01-01T11:00:00+00:00.jsonl.gz';
    expect(await s3.keys('backfill/')).to.deep.equal([key]);
    const exported = lines(await s3.object(key));
    expect(exported.map((line) => [line.uuid, line.event, line.distinct_id, line.timestamp])).to.deep.equal(
      events.slice(0, 2).map((event) => [event.uuid, event.event, event.distinct_id, event.timestamp.replace('.000Z', '+00:00')]),
    );
    // Capture adds what PostHog adds to properties; the user's own arrive as they were sent.
    for (const [index, event] of events.slice(0, 2).entries()) {
      expect(exported[index]!.properties).to.deep.include(event.properties);
    }

    const backfillRead = await api.get<{ status: string }>(`${exportsPath()}${created.body.id}/backfills/${backfill.body.backfill_id}/`);
    expect(backfillRead.body.status).to.equal('Completed');
  });

  it('runs the scheduled interval of events ingested now, selected by ingestion time', async () => {
    // An environment of its own: the hour's interval holds only this test's event.
    const other = await newAccount(db);
    const uuid = randomUUID();
    // An old timestamp: a scheduled run selects by when the event arrived, not by when it happened.
    await capture([{ event: 'late arrival', distinct_id: 'cy', timestamp: '2020-05-05T05:05:05.000Z', uuid }], other);
    const created = await api.post<{ id: string }>(exportsPath(other), {
      name: 'hourly',
      model: 'events',
      interval: 'hour',
      destination: { type: 'S3Compatible', config: s3.config({ prefix: 'scheduled', compression: 'gzip' }) },
    }, { key: other.key });
    expect(created.status).to.equal(201);
    const runs = await waitFor(async () => {
      const all = await runsOf(created.body.id, other);
      return all.length > 0 && all.every((run) => !['Starting', 'Running'].includes(run.status)) && all;
    });
    expect(runs.map((run) => run.status)).to.deep.equal(['Completed']);
    expect([runs[0]!.records_completed, runs[0]!.records_total_count]).to.deep.equal([1, 1]);
    const keys = await s3.keys('scheduled/');
    expect(keys).to.have.length(1);
    expect(lines(await s3.object(keys[0]!)).map((line) => [line.uuid, line.timestamp])).to.deep.equal([[uuid, '2020-05-05T05:05:05+00:00']]);
  });
});
