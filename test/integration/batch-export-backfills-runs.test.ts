/**
 * Backfills and runs of a batch export through HTTP: starting, reading, listing (by cursor) and cancelling
 * backfills (and the deprecated backfill endpoint), listing, reading, cancelling and retrying runs, and walking
 * runs by cursor.
 * (The exports themselves: batch-exports.test.ts.)
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { backfillRows, envPath, insertRun, invalid, NOT_FOUND, orgPath, s3Export } from '../helpers/batch-export-api.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import type { ApiResponse, HttpClient } from '../helpers/http.js';
import { insertEvents } from '../helpers/seed-events.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// The fields of PostHog's published BatchExportBackfill and BatchExportRun (its serializers' `__all__`, with the
// backfill's `progress`; `records_failed` is a column of PostHog's run model).
const POSTHOG_BACKFILL_KEYS = [
  'id', 'progress', 'start_at', 'end_at', 'status', 'created_at', 'finished_at', 'last_updated_at',
  'total_records_count', 'adjusted_start_at', 'team', 'batch_export',
].sort();
const POSTHOG_RUN_KEYS = [
  'id', 'status', 'records_completed', 'records_failed', 'latest_error', 'data_interval_start', 'data_interval_end',
  'cursor', 'created_at', 'finished_at', 'last_updated_at', 'records_total_count', 'bytes_exported', 'batch_export',
  'backfill',
].sort();

describe('batch exports: backfills and runs', () => {
  let server: TestServer;
  let owner: Account;
  let http: HttpClient;

  before(async () => {
    server = await startTestServer();
    owner = await newAccount(testDb());
    http = server.http.withKey(owner.key);
  });
  after(() => server.close());

  const create = async (body: Record<string, unknown> = s3Export(), path = envPath(owner), client = http) => {
    const res = await client.post(path, body);
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };

  describe('backfills', () => {
    let exportId: string;
    let account: Account;
    let client: HttpClient;
    let backfillsPath: string;

    before(async () => {
      account = await newAccount(testDb());
      client = server.http.withKey(account.key);
      await insertEvents(testDb(), account.environment.id, [
        { event: 'e', distinct_id: 'd', timestamp: new Date('2026-11-01T10:30:00Z') },
        { event: 'e', distinct_id: 'd', timestamp: new Date('2026-11-02T10:30:00Z') },
      ]);
      exportId = (await create(s3Export(), envPath(account), client)).id;
      backfillsPath = `${envPath(account)}${exportId}/backfills/`;
    });

    /** A backfill started through backfills/, its row as stored. */
    const startBackfill = async () => {
      const res = await client.post(backfillsPath, { start_at: '2026-10-30T00:00:00Z', end_at: '2026-11-02T00:00:00+00:00' });
      expect(res.status, res.text).to.equal(200);
      return testDb()('batch_export_backfills').where({ id: res.body.backfill_id }).first();
    };

    describe('environments_batch_exports_backfills_create', () => {
      const refusals: [string, Record<string, unknown>, string][] = [
        ['a start that is not ISO', { start_at: 'yesterday', end_at: '2026-11-02T00:00:00Z' }, 'Input yesterday is not a valid ISO formatted datetime.'],
        ['a naive start', { start_at: '2026-11-01T00:00:00', end_at: '2026-11-02T00:00:00Z' }, 'Input 2026-11-01T00:00:00 is naive.'],
        ['a start after the end', { start_at: '2026-11-03T00:00:00Z', end_at: '2026-11-02T00:00:00Z' }, "The initial backfill datetime 'start_at' happens after 'end_at'"],
        ['an end too far ahead', { start_at: '2026-11-01T00:00:00Z', end_at: '2999-01-01T00:00:00Z' }, "The provided 'end_at' (2999-01-01T00:00:00+00:00) is too far into the future. Cannot backfill beyond 1 batch period into the future."],
        ['a range before the earliest data', { start_at: '2026-10-01T00:00:00Z', end_at: '2026-10-02T00:00:00Z' }, 'The provided backfill date range contains no data. The earliest possible backfill start date is 2026-11-01T10:00:00+00:00'],
        ['no end for an S3 export', { start_at: '2026-11-01T00:00:00Z' }, 'Backfilling a BatchExport with no end date is not allowed'],
      ];
      for (const [what, body, detail] of refusals) {
        it(`refuses ${what} (400)`, async () => {
          const res = await client.post(backfillsPath, body);
          expect(res.status, res.text).to.equal(400);
          expect(res.body).to.deep.equal(invalid(detail));
          expect(await backfillRows(exportId)).to.have.length(0);
        });
      }

      it('refuses a backfill when the environment has no data for the model', async () => {
        const persons = await create(s3Export({ model: 'persons' }), envPath(account), client);
        const res = await client.post(`${envPath(account)}${persons.id}/backfills/`, { start_at: '2026-11-01T00:00:00Z', end_at: '2026-11-02T00:00:00Z' });
        expect(res.body).to.deep.equal(invalid('There is no data to backfill for this model.'));
      });

      it('inserts a Starting backfill with the start moved to the earliest data', async () => {
        const res = await client.post(backfillsPath, { start_at: '2026-10-30T00:00:00Z', end_at: '2026-11-02T00:00:00+00:00' });
        expect(res.status, res.text).to.equal(200);
        const row = await testDb()('batch_export_backfills').where({ id: res.body.backfill_id }).first();
        expect(row).to.deep.include({ batch_export_id: exportId, team_id: account.environment.id, status: 'Starting' });
        expect(row.start_at.toISOString()).to.equal('2026-10-30T00:00:00.000Z');
        expect(row.adjusted_start_at.toISOString()).to.equal('2026-11-01T10:00:00.000Z');
        expect(row.end_at.toISOString()).to.equal('2026-11-02T00:00:00.000Z');
      });

      it('aligns the earliest data to days and weeks in the export time zone, after its offsets', async () => {
        const cases: [Record<string, unknown>, string][] = [
          // 10:30Z on the day New York leaves summer time: local midnight was still EDT.
          [{ interval: 'day', timezone: 'America/New_York' }, '2026-11-01T04:00:00.000Z'],
          [{ interval: 'day', offset_hour: 12 }, '2026-10-31T12:00:00.000Z'],
          // Weeks that begin on Mondays at 02:00: the Sunday's data belongs to the week from Monday 26 October.
          [{ interval: 'week', offset_day: 1, offset_hour: 2 }, '2026-10-26T02:00:00.000Z'],
          [{ interval: 'every 15 minutes' }, '2026-11-01T10:30:00.000Z'],
        ];
        for (const [schedule, aligned] of cases) {
          const scheduled = await create(s3Export(schedule), envPath(account), client);
          const res = await client.post(`${envPath(account)}${scheduled.id}/backfills/`, { start_at: '2026-10-01T00:00:00Z', end_at: '2026-11-10T00:00:00Z' });
          expect(res.status, res.text).to.equal(200);
          const row = await testDb()('batch_export_backfills').where({ id: res.body.backfill_id }).first();
          expect(row.adjusted_start_at.toISOString(), JSON.stringify(schedule)).to.equal(aligned);
        }
      });

      it('lets HTTP and NoOp exports backfill with no end', async () => {
        const noop = await create(s3Export({ destination: { type: 'NoOp', config: {} } }), envPath(account), client);
        const res = await client.post(`${envPath(account)}${noop.id}/backfills/`, { start_at: '2026-11-01T00:00:00Z' });
        expect(res.status, res.text).to.equal(200);
        const row = await testDb()('batch_export_backfills').where({ id: res.body.backfill_id }).first();
        expect(row.end_at).to.equal(null);
      });
    });

    describe('environments_batch_exports_backfills_retrieve', () => {
      it('reads a backfill by its id, with its progress', async () => {
        const row = await startBackfill();
        await insertRun(exportId, { backfillId: row.id, status: 'Completed', hour: 11 });
        const read = await client.get(`${backfillsPath}${row.id}/`);
        expect(read.status).to.equal(200);
        expect(read.body).to.deep.include({
          id: row.id,
          batch_export: exportId,
          status: 'Starting',
          adjusted_start_at: '2026-11-01T10:00:00.000Z',
          team: account.environment.id,
          progress: { total_runs: 14, finished_runs: 1, progress: 1 / 14 },
        });
        expect(Object.keys(read.body).sort()).to.deep.equal(POSTHOG_BACKFILL_KEYS);
        expect((await client.get(`${backfillsPath}${randomUUID()}/`)).status).to.equal(404);
      });
    });

    describe('environments_batch_exports_backfills_list', () => {
      it('lists the export’s backfills, by cursor as its runs (no count)', async () => {
        const row = await startBackfill();
        const listed = await client.get(backfillsPath);
        expect(listed.status).to.equal(200);
        expect(listed.body).to.have.all.keys('next', 'previous', 'results');
        expect(listed.body.results.map((item: { id: string }) => item.id)).to.include(row.id);
        expect([listed.body.next, listed.body.previous]).to.deep.equal([null, null]);
      });

      it('walks backfills newest first with next, and back with previous, keyed on created_at and id', async () => {
        const walked = (await create(s3Export(), envPath(account), client)).id;
        const path = `${envPath(account)}${walked}/backfills/`;
        const made: { id: string; at: string }[] = [];
        const insert = async (createdAt: string, bindings: readonly number[] = []) => {
          const id = randomUUID();
          await testDb()('batch_export_backfills').insert({
            id,
            batch_export_id: walked,
            team_id: account.environment.id,
            status: 'Completed',
            created_at: testDb().raw(createdAt, bindings),
          });
          const [stored] = (await testDb().raw(
            `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as at from batch_export_backfills where id = ?`,
            [id],
          )).rows as { at: string }[];
          made.push({ id, at: stored!.at });
        };
        // Three a microsecond apart (one JS millisecond), and two created at the very same moment.
        for (let index = 0; index < 3; index += 1) await insert("date_trunc('second', now()) + ?::int * interval '1 microsecond'", [index]);
        for (let index = 0; index < 2; index += 1) await insert("date_trunc('second', now()) - interval '1 hour'");
        const newestFirst = made
          .sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1))
          .map((backfill) => backfill.id);
        const idsOf = (body: { results: { id: string }[] }) => body.results.map((backfill) => backfill.id);
        const pathOf = (link: string) => {
          const url = new URL(link);
          return url.pathname + url.search;
        };

        const pages: string[][] = [];
        const previousLinks: (string | null)[] = [];
        let link: string | null = `${path}?limit=2`;
        while (link) {
          const res: ApiResponse<{ next: string | null; previous: string | null; results: { id: string }[] }> = await client.get(link);
          expect(res.status, res.text).to.equal(200);
          expect(res.body).to.have.all.keys('next', 'previous', 'results');
          pages.push(idsOf(res.body));
          previousLinks.push(res.body.previous);
          link = res.body.next ? pathOf(res.body.next) : null;
        }
        expect(pages).to.deep.equal([newestFirst.slice(0, 2), newestFirst.slice(2, 4), newestFirst.slice(4)]);
        expect(previousLinks[0]).to.equal(null);
        const back = await client.get(pathOf(previousLinks[2]!));
        expect(idsOf(back.body)).to.deep.equal(newestFirst.slice(2, 4));
        const first = await client.get(pathOf(back.body.previous));
        expect([idsOf(first.body), first.body.previous]).to.deep.equal([newestFirst.slice(0, 2), null]);
      });

      it('refuses a cursor that is not ours (404)', async () => {
        const res = await client.get(`${backfillsPath}?cursor=garbage`);
        expect([res.status, res.body]).to.deep.equal([404, { ...NOT_FOUND, detail: 'Invalid cursor' }]);
      });
    });

    describe('environments_batch_exports_backfills_cancel_create', () => {
      it('cancels a Starting backfill once, then answers 400', async () => {
        const row = await startBackfill();
        const cancelled = await client.post(`${backfillsPath}${row.id}/cancel/`);
        expect([cancelled.status, cancelled.body]).to.deep.equal([200, { cancelled: true }]);
        expect((await testDb()('batch_export_backfills').where({ id: row.id }).first()).status).to.equal('Cancelled');
        const again = await client.post(`${backfillsPath}${row.id}/cancel/`);
        expect(again.status).to.equal(400);
        expect(again.body).to.deep.equal(invalid("Cannot cancel a backfill that is in 'Cancelled' status"));
      });
    });

    // The deprecated backfill endpoint, at both levels, inserts the row backfills/ inserts.
    const insertsDeprecatedBackfill = (level: 'environment' | 'organization') => {
      it('inserts a Starting backfill as backfills/ does', async () => {
        const base = level === 'environment' ? envPath(account) : orgPath(account);
        const res = await client.post(`${base}${exportId}/backfill/`, { start_at: '2026-11-01T12:00:00Z', end_at: '2026-11-02T00:00:00Z' });
        expect(res.status, res.text).to.equal(200);
        const row = await testDb()('batch_export_backfills').where({ id: res.body.backfill_id }).first();
        expect(row.status).to.equal('Starting');
        expect(row.adjusted_start_at.toISOString()).to.equal('2026-11-01T12:00:00.000Z');
      });
    };
    describe('environments_batch_exports_backfill_create', () => insertsDeprecatedBackfill('environment'));
    describe('batch_exports_backfill_create', () => insertsDeprecatedBackfill('organization'));
  });

  describe('runs', () => {
    const statuses = ['Starting', 'Running', 'Completed', 'Failed', 'Cancelled'];
    /** An export with one run of each status, an hour apart, the Cancelled one newest. */
    const seedRuns = async () => {
      const created = await create();
      const runsPath = `${envPath(owner)}${created.id}/runs/`;
      const ids: Record<string, string> = {};
      for (const [index, status] of statuses.entries()) ids[status] = await insertRun(created.id, { status, hour: index, minutesAgo: 10 - index });
      return { runsPath, ids };
    };

    describe('environments_batch_exports_runs_list', () => {
      it('lists runs newest first, in pages', async () => {
        const { runsPath, ids } = await seedRuns();
        const listed = await http.get(`${runsPath}?limit=2`);
        expect(listed.body).to.have.all.keys('next', 'previous', 'results');
        expect(listed.body.previous).to.equal(null);
        expect(listed.body.results.map((run: { id: string }) => run.id)).to.deep.equal([ids.Cancelled, ids.Failed]);
      });
    });

    describe('environments_batch_exports_runs_retrieve', () => {
      it('reads a run by its id with PostHog’s fields, and answers 404 for an unknown one', async () => {
        const { runsPath, ids } = await seedRuns();
        const read = await http.get(`${runsPath}${ids.Completed}/`);
        expect(read.body).to.deep.include({
          id: ids.Completed,
          status: 'Completed',
          data_interval_end: '2026-11-20T02:00:00.000Z',
          records_completed: 5,
          records_failed: null,
        });
        expect(Object.keys(read.body).sort()).to.deep.equal(POSTHOG_RUN_KEYS);
        expect((await http.get(`${runsPath}${randomUUID()}/`)).status).to.equal(404);
      });
    });

    describe('environments_batch_exports_runs_cancel_create', () => {
      it('cancels only Starting or Running runs', async () => {
        const { runsPath, ids } = await seedRuns();
        for (const status of ['Starting', 'Running']) {
          const res = await http.post(`${runsPath}${ids[status]}/cancel/`);
          expect(res.body).to.deep.equal({ cancelled: true });
          expect((await testDb()('batch_export_runs').where({ id: ids[status] }).first()).status).to.equal('Cancelled');
        }
        for (const status of ['Completed', 'Failed', 'Cancelled']) {
          const res = await http.post(`${runsPath}${ids[status]}/cancel/`);
          expect(res.status).to.equal(400);
          expect(res.body).to.deep.equal(invalid(`Cannot cancel a run that is in '${status}' status`));
        }
        expect((await testDb()('batch_export_runs').where({ id: ids.Completed }).first()).status).to.equal('Completed');
      });
    });

    describe('environments_batch_exports_runs_retry_create', () => {
      it('retries a run as a backfill of its interval', async () => {
        const { runsPath, ids } = await seedRuns();
        const retried = await http.post(`${runsPath}${ids.Failed}/retry/`);
        expect(retried.status).to.equal(200);
        const backfill = await testDb()('batch_export_backfills').where({ id: retried.body.backfill_id }).first();
        expect(backfill.status).to.equal('Starting');
        expect(backfill.start_at.toISOString()).to.equal('2026-11-20T02:00:00.000Z');
        expect(backfill.end_at.toISOString()).to.equal('2026-11-20T03:00:00.000Z');
      });
    });
  });

  describe('runs by cursor, after and before', () => {
    let account: Account;
    let client: HttpClient;
    let runsPath: string;
    /** The runs created in the last week, newest first by (created_at, id), as PostHog orders them. */
    let recent: string[];
    /** Every run in the order it was made: the nth has the interval ending at 2026-11-01 n:00 UTC. */
    const madeInOrder: string[] = [];
    const oldRuns: Record<string, string> = {};

    /** A run created at an SQL expression of time, to the microsecond. */
    let runsMade = 0;
    async function runCreatedAt(exportId: string, createdAt: string, bindings: readonly number[] = []): Promise<{ id: string; at: string }> {
      const id = randomUUID();
      runsMade += 1;
      const end = new Date(Date.UTC(2026, 10, 1, runsMade));
      await testDb()('batch_export_runs').insert({
        id,
        team_id: account.environment.id,
        batch_export_id: exportId,
        status: 'Completed',
        data_interval_start: new Date(end.getTime() - 3600_000),
        data_interval_end: end,
        created_at: testDb().raw(createdAt, bindings),
      });
      madeInOrder.push(id);
      const [row] = (await testDb().raw(
        `select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US') as at from batch_export_runs where id = ?`,
        [id],
      )).rows as { at: string }[];
      return { id, at: row!.at };
    }

    type RunsPage = { next: string | null; previous: string | null; results: { id: string }[] };
    const idsOf = (body: { results: { id: string }[] }) => body.results.map((run) => run.id);
    const pathOf = (link: string) => {
      const url = new URL(link);
      return url.pathname + url.search;
    };

    before(async () => {
      account = await newAccount(testDb());
      // Wall-clock bounds without an offset are read in the environment's time zone, as PostHog does.
      await testDb()('environments').where({ id: account.environment.id }).update({ timezone: 'Europe/Berlin' });
      client = server.http.withKey(account.key);
      const exportId = (await create(s3Export(), envPath(account), client)).id;
      runsPath = `${envPath(account)}${exportId}/runs/`;
      const made: { id: string; at: string }[] = [];
      // Five runs a microsecond apart (one JS millisecond), and two created at the very same moment.
      for (let index = 0; index < 5; index += 1) {
        made.push(await runCreatedAt(exportId, "date_trunc('second', now()) - interval '1 hour' + ?::int * interval '1 microsecond'", [index]));
      }
      for (let index = 0; index < 2; index += 1) made.push(await runCreatedAt(exportId, "date_trunc('second', now()) - interval '2 hours'"));
      recent = made
        .sort((a, b) => (a.at === b.at ? (a.id < b.id ? 1 : -1) : a.at < b.at ? 1 : -1))
        .map((run) => run.id);
      oldRuns.nineDaysAgo = (await runCreatedAt(exportId, "now() - interval '9 days'")).id;
      oldRuns.tenth = (await runCreatedAt(exportId, "'2026-11-10T12:00:00.000001Z'::timestamptz")).id;
      oldRuns.twelfth = (await runCreatedAt(exportId, "'2026-11-12T00:00:00Z'::timestamptz")).id;
      await testDb()('batch_export_runs').where({ id: madeInOrder[5] }).update({ status: 'Failed' });
    });

    it('walks runs by data interval with next, keeping ordering and the window in the links', async () => {
      const search = '?ordering=data_interval_start&start=2026-11-01T00:00:00Z&end=2026-12-01&limit=4';
      const first = await client.get(`${runsPath}${search}`);
      expect(idsOf(first.body)).to.deep.equal(madeInOrder.slice(0, 4));
      const next = new URL(first.body.next);
      expect(next.searchParams.get('ordering')).to.equal('data_interval_start');
      const second = await client.get(pathOf(first.body.next));
      expect(idsOf(second.body)).to.deep.equal(madeInOrder.slice(4, 8));
      const back = await client.get(pathOf(second.body.previous));
      expect(idsOf(back.body)).to.deep.equal(madeInOrder.slice(0, 4));
      expect(back.body.previous).to.equal(null);
    });

    it('walks the last week newest first with next, and back with previous', async () => {
      const pages: string[][] = [];
      let link: string | null = `${runsPath}?limit=2`;
      const previousLinks: (string | null)[] = [];
      while (link) {
        const res: ApiResponse<RunsPage> = await client.get(link);
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.have.all.keys('next', 'previous', 'results');
        pages.push(idsOf(res.body));
        previousLinks.push(res.body.previous);
        link = res.body.next ? pathOf(res.body.next) : null;
        if (res.body.next) expect(new URL(res.body.next).searchParams.get('limit')).to.equal('2');
      }
      expect(pages.flat()).to.deep.equal(recent);
      expect(pages.map((page) => page.length)).to.deep.equal([2, 2, 2, 1]);
      expect(previousLinks[0]).to.equal(null);

      // Back from the last page: each previous link answers the page before it.
      let back: string | null = previousLinks.at(-1)!;
      const backwards: string[][] = [];
      let first: { previous: string | null; next: string | null } | undefined;
      while (back) {
        const res: ApiResponse<RunsPage> = await client.get(pathOf(back));
        expect(res.status, res.text).to.equal(200);
        backwards.unshift(idsOf(res.body));
        back = res.body.previous;
        first = res.body;
      }
      expect(backwards).to.deep.equal(pages.slice(0, -1));
      expect(first?.next).to.be.a('string');
      expect(idsOf((await client.get(pathOf(first!.next!))).body)).to.deep.equal(pages[1]);
    });

    const windows: [string, string, () => string[]][] = [
      ['the last week by default', '', () => recent],
      ['a relative after', '?after=-10d', () => [...recent, oldRuns.nineDaysAgo!]],
      ['bounds to the microsecond, both included', '?after=2026-11-10T12:00:00.000001Z&before=2026-11-12T00:00:00Z', () => [oldRuns.twelfth!, oldRuns.tenth!]],
      ['an after a microsecond later', '?after=2026-11-10T12:00:00.000002Z&before=2026-11-12T00:00:00Z', () => [oldRuns.twelfth!]],
      ['an offset other than UTC', '?after=2026-11-10T13:00:00.000001%2B01:00&before=2026-11-11T00:00:00Z', () => [oldRuns.tenth!]],
      ['a wall-clock time in the environment time zone', '?after=2026-11-12T01:00:00&before=2026-11-12T01:00:00', () => [oldRuns.twelfth!]],
      ['a wall-clock time a second later', '?after=2026-11-12T01:00:01&before=2026-11-13', () => []],
      ['a date', '?after=2026-11-10&before=2026-11-11', () => [oldRuns.tenth!]],
      ['a span of 100 years', '?after=-100y&before=-8d', () => [oldRuns.nineDaysAgo!, oldRuns.twelfth!, oldRuns.tenth!]],
      ['a relative before', '?after=-30d&before=-8d', () => [oldRuns.nineDaysAgo!, oldRuns.twelfth!, oldRuns.tenth!]],
      ['oldest first by created_at', '?ordering=created_at&after=-30d&before=-8d', () => [oldRuns.tenth!, oldRuns.twelfth!, oldRuns.nineDaysAgo!]],
      ['by default for an ordering PostHog does not know', '?ordering=name', () => recent],
      ['by data interval, within start and end', '?ordering=data_interval_start&start=2026-11-01T01:00:00Z&end=2026-11-01T04:00:00Z', () => madeInOrder.slice(1, 4)],
      ['by data interval, newest first', '?ordering=-data_interval_start&start=2026-11-01T01:00:00Z&end=2026-11-01T04:00:00Z', () => madeInOrder.slice(1, 4).reverse()],
      ['by data interval, ignoring after', '?ordering=data_interval_start&after=-1d&start=2026-11-01T09:00:00Z&end=2026-12-01', () => madeInOrder.slice(9)],
      ['by data interval in the last week by default', '?ordering=data_interval_start', () => []],
      ['in one status', '?status=Failed', () => [madeInOrder[5]!]],
      ['in several statuses', '?status=Failed&status=Completed', () => recent],
    ];
    for (const [what, search, expected] of windows) {
      it(`lists ${what}`, async () => {
        const res = await client.get(`${runsPath}${search}`);
        expect(res.status, res.text).to.equal(200);
        expect(idsOf(res.body)).to.deep.equal(expected());
        expect(res.body.next).to.equal(null);
      });
    }

    const refusals: [string, string, number, Record<string, unknown>][] = [
      ['an after that is no date', '?after=yesterday', 400, invalid('Input yesterday is not a valid ISO formatted datetime or relative date (such as -7d).', 'after')],
      ['a before with a 13th month', '?before=2026-13-01', 400, invalid('Input 2026-13-01 is not a valid ISO formatted datetime or relative date (such as -7d).', 'before')],
      ['a start that is no date', '?ordering=-data_interval_start&start=-7x', 400, invalid('Input -7x is not a valid ISO formatted datetime or relative date (such as -7d).', 'start')],
      ['a span before now beyond any timestamp', '?after=-999999y', 400, invalid('Input -999999y reaches back more than 100 years.', 'after')],
      ['a year 0', '?after=0000-01-01', 400, invalid('Input 0000-01-01 is not a valid ISO formatted datetime or relative date (such as -7d).', 'after')],
      ['a 30th of February', '?after=2026-02-30T00:00:00Z', 400, invalid('Input 2026-02-30T00:00:00Z is not a valid ISO formatted datetime or relative date (such as -7d).', 'after')],
      ['a span of more than 100 years', '?before=-1201m', 400, invalid('Input -1201m reaches back more than 100 years.', 'before')],
      ['a cursor that is not ours', '?cursor=garbage', 404, { ...NOT_FOUND, detail: 'Invalid cursor' }],
      [
        'a cursor naming no run id',
        `?cursor=${Buffer.from(JSON.stringify({ t: '2026-11-10T12:00:00.000001Z', i: "x'; drop table x", n: 0 })).toString('base64url')}`,
        404,
        { ...NOT_FOUND, detail: 'Invalid cursor' },
      ],
    ];
    for (const [what, search, status, body] of refusals) {
      it(`refuses ${what} (${status})`, async () => {
        const res = await client.get(`${runsPath}${search}`);
        expect(res.status, res.text).to.equal(status);
        expect(res.body).to.deep.equal(body);
      });
    }
  });

  describe('sessions backfill', () => {
    it('starts from the earliest event that has a session', async () => {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      await insertEvents(testDb(), account.environment.id, [{ event: 'e', distinct_id: 'd', timestamp: new Date('2026-11-01T00:30:00Z') }]);
      const sessions = await create(s3Export({ model: 'sessions' }), envPath(account), client);
      const path = `${envPath(account)}${sessions.id}/backfills/`;
      const window = { start_at: '2026-10-01T00:00:00Z', end_at: '2026-11-03T00:00:00Z' };
      expect((await client.post(path, window)).body).to.deep.equal(invalid('There is no data to backfill for this model.'));
      await insertEvents(testDb(), account.environment.id, [
        { event: 'e', distinct_id: 'd', timestamp: new Date('2026-11-02T05:10:00Z'), properties: { $session_id: 's1' } },
      ]);
      const res = await client.post(path, window);
      expect(res.status, res.text).to.equal(200);
      const row = await testDb()('batch_export_backfills').where({ id: res.body.backfill_id }).first();
      expect(row.adjusted_start_at.toISOString()).to.equal('2026-11-02T05:00:00.000Z');
    });
  });
});
