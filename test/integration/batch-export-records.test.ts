/**
 * The records source of batch exports (db/queries/batch-exports/records.ts): what each model's records hold for a
 * window, read in batches through the cursor and as the one SELECT that COPY fast paths stream.
 */
import { expect } from 'chai';
import type { Db } from '../../db/pg/client.js';
import { hogqlSelectItems } from '../../db/queries/batch-exports/event-records.js';
import { PERSON_RECORD_COLUMNS } from '../../db/queries/batch-exports/person-records.js';
import { exportRecordsQuery, readExportRecords } from '../../db/queries/batch-exports/records.js';
import { InvalidExportSettingsError, type RecordsRequest } from '../../db/queries/batch-exports/records-query.js';
import { SESSION_RECORD_COLUMNS } from '../../db/queries/batch-exports/session-records.js';
import type { BatchExportModel, BatchExportRow, ExportRecord } from '../../db/queries/batch-exports/rows.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson, mergePersonInto } from '../helpers/seed-persons.js';
import { exportRow } from '../helpers/batch-exports.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Inserts events and then sets when each was "ingested". */
async function seed(db: Db, teamId: number, events: ReadonlyArray<NewEvent & { inserted_at: string }>): Promise<string[]> {
  const uuids = await insertEvents(db, teamId, events);
  for (const [index, uuid] of uuids.entries()) {
    await db('events').where({ team_id: teamId, uuid }).update({ inserted_at: events[index]!.inserted_at });
  }
  return uuids;
}

async function readAll(db: Db, request: RecordsRequest, batchSize?: number): Promise<{ batches: number[]; records: ExportRecord[] }> {
  const batches: number[] = [];
  const records: ExportRecord[] = [];
  for await (const batch of readExportRecords(db, request, { batchSize })) {
    batches.push(batch.length);
    records.push(...batch);
  }
  return { batches, records };
}

async function selectAll(db: Db, request: RecordsRequest): Promise<ExportRecord[]> {
  const query = exportRecordsQuery(db, request);
  const { rows } = (await db.raw(query.sql, query.bindings as never[])) as { rows: ExportRecord[] };
  return rows;
}

const at = (iso: string) => new Date(iso);

function request(teamId: number, start: string | null, end: string, selectBy: RecordsRequest['selectBy'], overrides: Partial<BatchExportRow> = {}, model: BatchExportModel = 'events'): RecordsRequest {
  return { batchExport: exportRow(teamId, { model, ...overrides }), start: start === null ? null : at(start), end: at(end), selectBy };
}

describe('batch export records', () => {
  let account: Account;
  let other: Account;

  before(async () => {
    account = await newAccount(testDb());
    other = await newAccount(testDb());
  });

  describe('events', () => {
    let team: number;
    let uuids: string[];
    let person: { uuid: string };

    before(async () => {
      const db = testDb();
      team = account.environment.id;
      person = await insertPerson(db, team, { distinctIds: ['alice'], properties: { email: 'alice@example.com', plan: 'pro' } });
      uuids = await seed(db, team, [
        // Before the window by inserted_at, inside it by timestamp.
        { event: 'early', distinct_id: 'alice', timestamp: '2026-01-01T10:30:00Z', inserted_at: '2026-01-01T09:59:59.999999Z', person_id: person.uuid },
        // On the start boundary.
        {
          event: '$pageview',
          distinct_id: 'alice',
          timestamp: '2026-01-01T09:00:00Z',
          inserted_at: '2026-01-01T10:00:00Z',
          person_id: person.uuid,
          properties: { $current_url: 'https://example.com/a', $set: { plan: 'pro' }, $set_once: { first: 'a' } },
          elements_chain: 'a:href="/a"nth-child="1"',
        },
        { event: 'anonymous', distinct_id: 'nobody', timestamp: '2026-01-01T10:15:00.123456Z', inserted_at: '2026-01-01T10:20:00Z', properties: { n: 1 } },
        // On the end boundary: the next window's.
        { event: 'late', distinct_id: 'alice', timestamp: '2026-01-01T10:45:00Z', inserted_at: '2026-01-01T11:00:00Z', person_id: person.uuid },
      ]);
      await seed(db, other.environment.id, [
        { event: 'elsewhere', distinct_id: 'alice', timestamp: '2026-01-01T10:30:00Z', inserted_at: '2026-01-01T10:30:00Z' },
      ]);
    });

    it('reads the window [start, end) by inserted_at with every default column, ordered by (_inserted_at, uuid)', async () => {
      const { records } = await readAll(testDb(), request(team, '2026-01-01T10:00:00Z', '2026-01-01T11:00:00Z', 'inserted_at'));
      expect(records).to.deep.equal([
        {
          uuid: uuids[1],
          team_id: team,
          timestamp: at('2026-01-01T09:00:00Z'),
          _inserted_at: at('2026-01-01T10:00:00Z'),
          created_at: at('2026-01-01T10:00:00Z'),
          event: '$pageview',
          properties: { $current_url: 'https://example.com/a', $set: { plan: 'pro' }, $set_once: { first: 'a' } },
          distinct_id: 'alice',
          elements_chain: 'a:href="/a"nth-child="1"',
          person_id: person.uuid,
          person_properties: { email: 'alice@example.com', plan: 'pro' },
          set: { plan: 'pro' },
          set_once: { first: 'a' },
        },
        {
          uuid: uuids[2],
          team_id: team,
          timestamp: at('2026-01-01T10:15:00.123Z'),
          _inserted_at: at('2026-01-01T10:20:00Z'),
          created_at: at('2026-01-01T10:20:00Z'),
          event: 'anonymous',
          properties: { n: 1 },
          distinct_id: 'nobody',
          elements_chain: '',
          person_id: null,
          person_properties: null,
          set: null,
          set_once: null,
        },
      ]);
    });

    it('exports the person properties stored with each event at capture (as HogQL’s poe.properties), not those of today', async () => {
      const db = testDb();
      const own = await newAccount(db);
      const dora = await insertPerson(db, own.environment.id, { distinctIds: ['dora'], properties: { plan: 'team' } });
      await seed(db, own.environment.id, [
        { event: 'then', distinct_id: 'dora', timestamp: '2026-01-02T10:00:00Z', inserted_at: '2026-01-02T10:00:00Z', person_id: dora.uuid, person_properties: { plan: 'free' } },
        { event: 'now', distinct_id: 'dora', timestamp: '2026-01-02T10:00:01Z', inserted_at: '2026-01-02T10:00:01Z', person_id: dora.uuid },
        { event: 'personless', distinct_id: 'dora', timestamp: '2026-01-02T10:00:02Z', inserted_at: '2026-01-02T10:00:02Z' },
      ]);
      const { records } = await readAll(db, request(own.environment.id, null, '2027-01-01T00:00:00Z', 'inserted_at'));
      expect(records.map((record) => [record.event, record.person_properties])).to.deep.equal([
        ['then', { plan: 'free' }],
        ['now', { plan: 'team' }],
        ['personless', null],
      ]);
    });

    it('reads the window by timestamp for backfills, and from the beginning without a start', async () => {
      const byTimestamp = await readAll(testDb(), request(team, '2026-01-01T10:00:00Z', '2026-01-01T11:00:00Z', 'timestamp'));
      expect(byTimestamp.records.map((record) => record.event)).to.deep.equal(['anonymous', 'early', 'late']);
      const earliest = await readAll(testDb(), request(team, null, '2026-01-01T10:30:00Z', 'timestamp'));
      expect(earliest.records.map((record) => record.event)).to.deep.equal(['$pageview', 'anonymous']);
    });

    it('never reads another environment’s events', async () => {
      const { records } = await readAll(testDb(), request(other.environment.id, null, '2027-01-01T00:00:00Z', 'inserted_at'));
      expect(records.map((record) => [record.event, record.team_id])).to.deep.equal([['elsewhere', other.environment.id]]);
    });

    it('reads in batches of at most batchSize, and the SELECT for COPY returns the same records', async () => {
      const window = request(team, null, '2027-01-01T00:00:00Z', 'inserted_at');
      const { batches, records } = await readAll(testDb(), window, 3);
      expect(batches).to.deep.equal([3, 1]);
      expect(records.map((record) => record.event)).to.deep.equal(['early', '$pageview', 'anonymous', 'late']);
      expect(await selectAll(testDb(), window)).to.deep.equal(records);
      expect(exportRecordsQuery(testDb(), window).columns).to.deep.equal(Object.keys(records[0]!));
    });

    it('stops with the signal’s reason once aborted, and leaves no transaction open', async () => {
      const controller = new AbortController();
      const seen: number[] = [];
      const reading = (async () => {
        for await (const batch of readExportRecords(testDb(), request(team, null, '2027-01-01T00:00:00Z', 'inserted_at'), {
          batchSize: 1,
          signal: controller.signal,
        })) {
          seen.push(batch.length);
          controller.abort(new Error('cancelled by the test'));
        }
      })();
      let failure: unknown;
      await reading.catch((error: unknown) => {
        failure = error;
      });
      expect((failure as Error).message).to.equal('cancelled by the test');
      expect(seen).to.deep.equal([1]);
      const { rows } = (await testDb().raw(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'",
      )) as { rows: Array<{ n: number }> };
      expect(rows[0]!.n).to.equal(0);
    });

    it('applies the export’s property filters and its include_events / exclude_events', async () => {
      const window = (overrides: Partial<BatchExportRow>) => request(team, null, '2027-01-01T00:00:00Z', 'inserted_at', overrides);
      const events = async (overrides: Partial<BatchExportRow>) => (await readAll(testDb(), window(overrides))).records.map((record) => record.event);
      expect(await events({ filters: [{ key: 'n', operator: 'exact', value: 1, type: 'event' }] })).to.deep.equal(['anonymous']);
      expect(await events({ filters: [{ key: 'email', operator: 'icontains', value: 'ALICE', type: 'person' }] })).to.deep.equal([
        'early',
        '$pageview',
        'late',
      ]);
      expect(await events({ destination_config: { include_events: ['late', '$pageview'] } })).to.deep.equal(['$pageview', 'late']);
      expect(await events({ destination_config: { exclude_events: ['late', '$pageview'] } })).to.deep.equal(['early', 'anonymous']);
      expect(
        await events({ destination_config: { include_events: ['late', 'early'], exclude_events: ['late'] }, filters: [] }),
      ).to.deep.equal(['early']);
    });

    it('refuses filters it cannot read with InvalidExportSettingsError', () => {
      expect(() => exportRecordsQuery(testDb(), request(team, null, '2027-01-01T00:00:00Z', 'inserted_at', { filters: [{ key: 'x', operator: 'nope' }] })))
        .to.throw(InvalidExportSettingsError, 'Invalid filters: "nope" is not a valid operator.');
      expect(() => exportRecordsQuery(testDb(), request(team, null, '2027-01-01T00:00:00Z', 'inserted_at', { destination_config: { include_events: 'late' } })))
        .to.throw(InvalidExportSettingsError, 'include_events must be a list of event names.');
    });

    it('compiles a hogql_query into the record’s columns, each under its alias, adding _inserted_at', async () => {
      const query =
        "SELECT event, properties.$current_url AS url, person.properties.email AS email, toString(uuid) AS id, concat(distinct_id, '!') AS who FROM events";
      const window = request(team, '2026-01-01T10:00:00Z', '2026-01-01T11:00:00Z', 'inserted_at', { hogql_query: query });
      expect(exportRecordsQuery(testDb(), window).columns).to.deep.equal(['event', 'url', 'email', 'id', 'who', '_inserted_at']);
      const { records } = await readAll(testDb(), window);
      expect(records).to.deep.equal([
        { event: '$pageview', url: 'https://example.com/a', email: 'alice@example.com', id: uuids[1], who: 'alice!', _inserted_at: at('2026-01-01T10:00:00Z') },
        { event: 'anonymous', url: null, email: null, id: uuids[2], who: 'nobody!', _inserted_at: at('2026-01-01T10:20:00Z') },
      ]);
      expect(hogqlSelectItems('select (1 + 2) * 3 AS n, event FROM events').map((item) => item.name)).to.deep.equal(['n', 'event']);
      // Comments are white space, as where the query is validated: the names are those of the text without them.
      expect(hogqlSelectItems("SELECT event -- , uuid\n, '--' /* x */ AS `a--b`, distinct_id /* , uuid */ FROM -- persons\n events").map((item) => item.name)).to.deep.equal([
        'event',
        'a--b',
        'distinct_id',
      ]);
      expect(() => hogqlSelectItems('SELECT event FROM events /* never closed')).to.throw(InvalidExportSettingsError, 'Invalid HogQL query: Unterminated comment');
      expect(() => hogqlSelectItems('SELECT event FROM persons')).to.throw(InvalidExportSettingsError, 'FROM events');
      expect(() => exportRecordsQuery(testDb(), { ...window, batchExport: exportRow(team, { hogql_query: 'SELECT nosuch FROM events' }) })).to.throw(
        InvalidExportSettingsError,
        'Invalid HogQL query: Unknown field "nosuch".',
      );
    });
  });

  describe('persons', () => {
    it('exports one record per distinct id whose person or mapping changed in the window, with versions', async () => {
      const db = testDb();
      const { environment } = await newAccount(db);
      const team = environment.id;
      const window = (start: Date, end: Date) => ({ batchExport: exportRow(team, { model: 'persons' }), start, end, selectBy: 'inserted_at' as const });
      const clock = async () => ((await db.raw('select now() as now')) as { rows: Array<{ now: Date }> }).rows[0]!.now;

      const alice = await insertPerson(db, team, { distinctIds: ['alice', 'alice-device'], properties: { plan: 'free' } });
      const bob = await insertPerson(db, team, { distinctIds: ['bob'], properties: { plan: 'pro' } });
      await insertPerson(db, other.environment.id, { distinctIds: ['alice'], properties: {} });
      // Dated back to a known hour, so that the changes below fall in a window of their own.
      const createdAt = at('2026-01-01T00:30:00Z');
      await db('persons').where({ team_id: team }).update({ updated_at: createdAt });
      await db('person_distinct_ids').where({ team_id: team }).update({ updated_at: createdAt });
      const first = await readAll(db, window(at('2026-01-01T00:00:00Z'), at('2026-01-01T01:00:00Z')));
      expect(first.records.map((record) => [record.distinct_id, record.person_id, record.properties, record.person_version, record.person_distinct_id_version, record.is_deleted, record.team_id, record._inserted_at]))
        .to.have.deep.members([
          ['alice', alice.uuid, { plan: 'free' }, 0, 0, false, team, createdAt],
          ['alice-device', alice.uuid, { plan: 'free' }, 0, 0, false, team, createdAt],
          ['bob', bob.uuid, { plan: 'pro' }, 0, 0, false, team, createdAt],
        ]);
      expect(first.records[0]).to.have.keys([...PERSON_RECORD_COLUMNS]);

      // A $set changes alice; a merge moves bob's distinct id to alice.
      const changesFrom = await clock();
      await db('persons').where({ id: alice.id }).update({ properties: JSON.stringify({ plan: 'pro' }), version: 1, updated_at: db.fn.now() });
      await mergePersonInto(db, team, bob.id, alice.id);
      const changed = await clock();
      const second = await readAll(db, window(changesFrom, new Date(changed.getTime() + 1)));
      expect(second.records.map((record) => [record.distinct_id, record.person_id, record.properties, record.person_version, record.person_distinct_id_version]))
        .to.have.deep.members([
          ['alice', alice.uuid, { plan: 'pro' }, 1, 0],
          ['alice-device', alice.uuid, { plan: 'pro' }, 1, 0],
          ['bob', alice.uuid, { plan: 'pro' }, 1, 1],
        ]);
      const stamps = second.records.map((record) => (record._inserted_at as Date).getTime());
      expect(stamps.every((stamp) => stamp >= changesFrom.getTime() && stamp <= changed.getTime())).to.equal(true);
      // Nothing changed since: the next window is empty.
      expect((await readAll(db, window(new Date(changed.getTime() + 1), new Date(changed.getTime() + 60_000)))).records).to.deep.equal([]);
    });
  });

  describe('persons through capture', () => {
    let server: TestServer;
    before(async () => {
      server = await startTestServer();
    });
    after(() => server.close());

    it('sees capture’s $set and $create_alias merge as changes of the person and of the moved distinct id', async () => {
      const db = testDb();
      const { environment } = await newAccount(db);
      const capture = async (body: Record<string, unknown>) => {
        const answer = await server.http.request('POST', '/i/v0/e/', {
          rawBody: JSON.stringify({ api_key: environment.api_token, ...body }),
          headers: { 'content-type': 'application/json' },
        });
        expect(answer.status).to.equal(200);
      };
      const clock = async () => ((await db.raw('select now() as now')) as { rows: Array<{ now: Date }> }).rows[0]!.now;
      const request = (start: Date) => ({ batchExport: exportRow(environment.id, { model: 'persons' }), start, end: at('2100-01-01T00:00:00Z'), selectBy: 'inserted_at' as const });

      await capture({ event: 'signed up', distinct_id: 'user-1', properties: { $set: { plan: 'free' } } });
      await capture({ event: 'browsed', distinct_id: 'anon-1', properties: {} });
      const user = (await db('person_distinct_ids as d').join('persons as p', (on) => on.on('p.team_id', 'd.team_id').andOn('p.id', 'd.person_id')).where({ 'd.team_id': environment.id, 'd.distinct_id': 'user-1' }).first('p.uuid')) as { uuid: string };
      // Dated back, so that what follows is the only change after `from`.
      await db('persons').where({ team_id: environment.id }).update({ updated_at: at('2026-01-01T00:00:00Z') });
      await db('person_distinct_ids').where({ team_id: environment.id }).update({ updated_at: at('2026-01-01T00:00:00Z') });
      const from = await clock();

      await capture({ event: 'upgraded', distinct_id: 'user-1', properties: { $set: { plan: 'pro' } } });
      await capture({ event: '$create_alias', distinct_id: 'user-1', properties: { alias: 'anon-1' } });
      const { records } = await readAll(db, request(from));
      expect(records.map((record) => [record.distinct_id, record.person_id, record.properties, record.person_distinct_id_version])).to.have.deep.members([
        ['user-1', user.uuid, { plan: 'pro' }, 0],
        ['anon-1', user.uuid, { plan: 'pro' }, 1],
      ]);
      expect(records.every((record) => (record.person_version as number) >= 1)).to.equal(true);
    });
  });

  describe('sessions', () => {
    it('exports one record per session whose latest event arrived in the window, computed over all its events', async () => {
      const db = testDb();
      const { environment } = await newAccount(db);
      const team = environment.id;
      const page = (url: string, extra: Record<string, unknown> = {}) => ({
        $session_id: 's1',
        $current_url: `https://shop.example${url}`,
        $pathname: url,
        $host: 'shop.example',
        ...extra,
      });
      await seed(db, team, [
        { event: '$pageview', distinct_id: 'anon', timestamp: '2026-02-01T09:50:00Z', inserted_at: '2026-02-01T09:50:01Z', properties: page('/', { utm_source: 'news', gclid: 'g1' }) },
        { event: '$autocapture', distinct_id: 'anon', timestamp: '2026-02-01T09:55:00Z', inserted_at: '2026-02-01T10:10:00Z', properties: page('/cart', { $external_click_url: 'https://pay.example/x' }) },
        { event: '$pageview', distinct_id: 'user', timestamp: '2026-02-01T10:00:00Z', inserted_at: '2026-02-01T10:10:00Z', properties: page('/buy', { utm_source: 'later' }) },
        // Another session, with one event of the window before: it ends after the window, so the next window's.
        { event: '$pageview', distinct_id: 'x', timestamp: '2026-02-01T10:20:00Z', inserted_at: '2026-02-01T10:20:00Z', properties: { $session_id: 's2', $current_url: 'https://b/' } },
        { event: '$pageview', distinct_id: 'x', timestamp: '2026-02-01T10:21:00Z', inserted_at: '2026-02-01T11:20:00Z', properties: { $session_id: 's2', $current_url: 'https://b/' } },
        // A bounce: one pageview, a second long.
        { event: '$pageview', distinct_id: 'y', timestamp: '2026-02-01T10:30:00Z', inserted_at: '2026-02-01T10:30:00Z', properties: { $session_id: 's3', $current_url: 'https://c/' } },
        { event: 'custom', distinct_id: 'y', timestamp: '2026-02-01T10:30:01Z', inserted_at: '2026-02-01T10:30:01Z', properties: { $session_id: 's3' } },
        // Older than the lookback before the window's events of s1: not read as part of it.
        { event: '$pageview', distinct_id: 'old', timestamp: '2026-01-27T09:50:00Z', inserted_at: '2026-01-27T09:50:01Z', properties: page('/old') },
        // No session: never a record.
        { event: '$pageview', distinct_id: 'z', timestamp: '2026-02-01T10:40:00Z', inserted_at: '2026-02-01T10:40:00Z' },
      ]);
      const window = { batchExport: exportRow(team, { model: 'sessions' }), start: at('2026-02-01T10:00:00Z'), end: at('2026-02-01T11:00:00Z'), selectBy: 'inserted_at' as const };
      const { records } = await readAll(db, window);
      const empty = Object.fromEntries(SESSION_RECORD_COLUMNS.filter((column) => column.startsWith('entry_')).map((column) => [column, null]));
      expect(records).to.deep.equal([
        {
          ...empty,
          session_id: 's1',
          team_id: team,
          distinct_id: 'anon',
          start_timestamp: at('2026-02-01T09:50:00Z'),
          end_timestamp: at('2026-02-01T10:00:00Z'),
          urls: ['https://shop.example/', 'https://shop.example/buy', 'https://shop.example/cart'],
          num_uniq_urls: 3,
          entry_current_url: 'https://shop.example/',
          entry_pathname: '/',
          entry_hostname: 'shop.example',
          end_current_url: 'https://shop.example/buy',
          end_pathname: '/buy',
          end_hostname: 'shop.example',
          entry_utm_source: 'news',
          entry_gclid: 'g1',
          pageview_count: 2,
          autocapture_count: 1,
          screen_count: 0,
          session_duration: 600,
          duration: 600,
          page_screen_autocapture_count_up_to: 2,
          is_bounce: false,
          last_external_click_url: 'https://pay.example/x',
          exit_current_url: 'https://shop.example/buy',
          exit_pathname: '/buy',
          _inserted_at: at('2026-02-01T10:10:00Z'),
        },
        {
          ...empty,
          session_id: 's3',
          team_id: team,
          distinct_id: 'y',
          start_timestamp: at('2026-02-01T10:30:00Z'),
          end_timestamp: at('2026-02-01T10:30:01Z'),
          urls: ['https://c/'],
          num_uniq_urls: 1,
          entry_current_url: 'https://c/',
          entry_pathname: null,
          entry_hostname: null,
          end_current_url: 'https://c/',
          end_pathname: null,
          end_hostname: null,
          pageview_count: 1,
          autocapture_count: 0,
          screen_count: 0,
          session_duration: 1,
          duration: 1,
          page_screen_autocapture_count_up_to: 1,
          is_bounce: true,
          last_external_click_url: null,
          exit_current_url: 'https://c/',
          exit_pathname: null,
          _inserted_at: at('2026-02-01T10:30:01Z'),
        },
      ]);
      // A backfill selects sessions by their last event's time: s2 ends at 10:21.
      const backfill = await readAll(db, { ...window, selectBy: 'timestamp' });
      expect(backfill.records.map((record) => record.session_id)).to.deep.equal(['s1', 's3', 's2']);
    });
  });
});
