/**
 * The Postgres destination of batch exports against a second PostgreSQL database that the test creates and drops:
 * the rows that land there, exactly once across retries, the upserts of persons and sessions, and which failures
 * end a run at once and which are retried.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import type { BatchExportRow, BatchExportRunRow } from '../../db/queries/batch-exports/rows.js';
import { postgresDestination } from '../../handlers/jobs/destinations/postgres.js';
import { NonRetryableExportError, type ExportRun } from '../../handlers/jobs/destinations/types.js';
import { ADMIN_PORT, ADMIN_URL, createDatabase, databaseUrl, dropDatabase, testDb } from '../helpers/database.js';
import { DESTINATION_ROLE, destinationRoleUrl, handToDestinationRole } from '../helpers/destination-role.js';
import { failureOf } from '../helpers/failure.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { insertEvents } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';
import { loopbackAddresses } from '../helpers/destination-addresses.js';

type Progress = Parameters<ExportRun['progress']>[0];

describe('batch export destination: Postgres', () => {
  let destinationName: string;
  let destination: pg.Client;
  let account: Account;

  before(async () => {
    destinationName = await createDatabase('hedgerow_destination', { local: true });
    // Signed in as an ordinary role: a superuser of the server's own cluster is refused as a destination.
    await handToDestinationRole(ADMIN_URL, destinationName);
    destination = new pg.Client({ connectionString: destinationRoleUrl(databaseUrl(destinationName)) });
    await destination.connect();
    account = await newAccount(testDb());
  });

  after(async () => {
    await destination?.end();
    if (destinationName) await dropDatabase(destinationName);
  });

  const baseConfig = (overrides: Record<string, unknown> = {}) => ({
    user: DESTINATION_ROLE,
    password: '',
    host: '127.0.0.1',
    port: ADMIN_PORT,
    database: destinationName,
    schema: 'public',
    table_name: `events_${randomUUID().slice(0, 8)}`,
    has_self_signed_cert: false,
    ...overrides,
  });

  /** A real export and run row in Hedgerow's database, and the ExportRun the engine would hand over. */
  async function exportRun(
    config: Record<string, unknown>,
    window: { start: string | null; end: string },
    options: {
      model?: BatchExportRow['model'];
      hogql_query?: string | null;
      selectBy?: ExportRun['selectBy'];
      batchExportId?: string;
      teamId?: number;
      /** The backfill that runs the interval (again); none for the scheduled run. */
      backfillId?: string | null;
    } = {},
  ): Promise<{ exportRun: ExportRun; updates: Progress[]; controller: AbortController }> {
    const db = testDb();
    let batchExport = options.batchExportId
      ? await db<BatchExportRow>('batch_exports').where({ id: options.batchExportId }).first()
      : undefined;
    if (!batchExport) {
      [batchExport] = await db<BatchExportRow>('batch_exports')
        .insert({
          id: randomUUID(),
          team_id: options.teamId ?? account.environment.id,
          name: 'to postgres',
          model: options.model ?? 'events',
          destination_type: 'Postgres',
          destination_config: JSON.stringify(config) as never,
          interval: 'hour',
          hogql_query: options.hogql_query ?? null,
        })
        .returning('*');
    }
    const [run] = await db<BatchExportRunRow>('batch_export_runs')
      .insert({
        id: randomUUID(),
        team_id: batchExport!.team_id,
        batch_export_id: batchExport!.id,
        status: 'Running',
        data_interval_start: window.start === null ? null : new Date(window.start),
        data_interval_end: new Date(window.end),
        backfill_id: options.backfillId ?? null,
      })
      .onConflict(['batch_export_id', 'data_interval_end', 'team_id'])
      .merge(['status', 'backfill_id'])
      .returning('*');
    const updates: Progress[] = [];
    const controller = new AbortController();
    return {
      exportRun: {
        batchExport: batchExport!,
        run: run!,
        selectBy: options.selectBy ?? 'inserted_at',
        db,
        addresses: loopbackAddresses,
        signal: controller.signal,
        progress: async (update) => {
          updates.push(update);
        },
      },
      updates,
      controller,
    };
  }

  /** A backfill row of the export, as the API makes one to run intervals again. */
  async function newBackfill(batchExport: BatchExportRow): Promise<string> {
    const id = randomUUID();
    await testDb()('batch_export_backfills').insert({ id, batch_export_id: batchExport.id, team_id: batchExport.team_id, status: 'Running' });
    return id;
  }

  async function markerOf(batchExportId: string): Promise<Array<{ generation: string | null; records_completed: number }>> {
    return (
      await destination.query('select generation, records_completed::int from public.hedgerow_batch_export_runs where batch_export_id = $1 order by data_interval_end', [
        batchExportId,
      ])
    ).rows;
  }

  /** Events of an environment, each ingested at its own timestamp. */
  async function seed(team: number, events: Array<{ event: string; distinct_id: string; timestamp: string; properties?: Record<string, unknown> }>): Promise<string[]> {
    const db = testDb();
    const uuids = await insertEvents(db, team, events);
    for (const [index, uuid] of uuids.entries()) {
      await db('events').where({ team_id: team, uuid }).update({ inserted_at: events[index]!.timestamp });
    }
    return uuids;
  }

  async function rowsOf(table: string, order: string): Promise<Record<string, unknown>[]> {
    return (await destination.query(`select * from public.${table} order by ${order}`)).rows;
  }

  describe('events', () => {
    let uuids: string[];

    before(async () => {
      const db = testDb();
      const team = account.environment.id;
      uuids = await insertEvents(db, team, [
        {
          event: '$pageview',
          distinct_id: 'alice',
          timestamp: '2026-03-01T09:30:00.123456Z',
          properties: { $ip: '10.0.0.1', $set: { plan: 'pro' }, $set_once: { first: 'x' }, nested: { a: [1, 'two', null] }, quote: 'tab\there "q" \\ back' },
          elements_chain: 'a:href="/x"nth-child="1"',
        },
        { event: 'signup', distinct_id: 'bob', timestamp: '2026-03-01T09:45:00Z', properties: { $ip: '' } },
        { event: 'outside', distinct_id: 'bob', timestamp: '2026-03-01T09:50:00Z' },
      ]);
      const inserted = ['2026-03-01T10:00:00Z', '2026-03-01T10:59:59.999Z', '2026-03-01T11:00:00Z'];
      for (const [index, uuid] of uuids.entries()) {
        await db('events').where({ team_id: team, uuid }).update({ inserted_at: inserted[index] });
      }
    });

    it('creates PostHog’s events table and loads the window’s events into it, every column', async () => {
      const config = baseConfig();
      const { exportRun: run, updates } = await exportRun(config, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' });
      const outcome = await postgresDestination.run(run);
      expect(outcome.recordsCompleted).to.equal(2);
      expect(outcome.bytesExported).to.be.greaterThan(0);
      expect(updates).to.deep.equal([outcome]);
      const columns = (
        await destination.query(
          `select column_name, data_type from information_schema.columns where table_schema = 'public' and table_name = $1 order by ordinal_position`,
          [config.table_name],
        )
      ).rows.map((row) => `${row.column_name} ${row.data_type}`);
      expect(columns).to.deep.equal([
        'uuid character varying',
        'event character varying',
        'properties jsonb',
        'elements jsonb',
        'set jsonb',
        'set_once jsonb',
        'distinct_id character varying',
        'team_id integer',
        'ip character varying',
        'site_url character varying',
        'timestamp timestamp with time zone',
      ]);
      const { rows } = await destination.query(
        `select uuid, event, properties, elements, set, set_once, distinct_id, team_id, ip, site_url, timestamp::text as timestamp
           from public.${config.table_name} order by timestamp`,
      );
      const team = account.environment.id;
      const timezone = (await destination.query('show timezone')).rows[0].TimeZone as string;
      expect(timezone).to.be.a('string');
      expect(rows.map((row) => ({ ...row, timestamp: new Date(row.timestamp as string).toISOString() }))).to.deep.equal([
        {
          uuid: uuids[0],
          event: '$pageview',
          properties: { $ip: '10.0.0.1', $set: { plan: 'pro' }, $set_once: { first: 'x' }, nested: { a: [1, 'two', null] }, quote: 'tab\there "q" \\ back' },
          elements: 'a:href="/x"nth-child="1"',
          set: { plan: 'pro' },
          set_once: { first: 'x' },
          distinct_id: 'alice',
          team_id: team,
          ip: '10.0.0.1',
          site_url: null,
          timestamp: '2026-03-01T09:30:00.123Z',
        },
        {
          uuid: uuids[1],
          event: 'signup',
          properties: { $ip: '' },
          elements: '',
          set: null,
          set_once: null,
          distinct_id: 'bob',
          team_id: team,
          ip: null,
          site_url: null,
          timestamp: '2026-03-01T09:45:00.000Z',
        },
      ]);
      // Microseconds survive the trip.
      const exact = await destination.query(`select to_char(timestamp at time zone 'UTC', 'HH24:MI:SS.US') as t from public.${config.table_name} where event = '$pageview'`);
      expect(exact.rows[0].t).to.equal('09:30:00.123456');
    });

    it('writes only the columns an existing table has', async () => {
      const config = baseConfig();
      await destination.query(`create table public.${config.table_name} (event text, uuid text, extra text default 'kept')`);
      const { exportRun: run } = await exportRun(config, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' });
      expect((await postgresDestination.run(run)).recordsCompleted).to.equal(2);
      expect(await rowsOf(config.table_name, 'event')).to.deep.equal([
        { event: '$pageview', uuid: uuids[0], extra: 'kept' },
        { event: 'signup', uuid: uuids[1], extra: 'kept' },
      ]);
    });

    it('loads a run once: running it again writes nothing and answers the first outcome', async () => {
      const config = baseConfig();
      const first = await exportRun(config, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' });
      const outcome = await postgresDestination.run(first.exportRun);
      const again = await exportRun(config, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' }, { batchExportId: first.exportRun.batchExport.id });
      expect(await postgresDestination.run(again.exportRun)).to.deep.equal(outcome);
      expect((await rowsOf(config.table_name, 'event')).map((row) => row.event)).to.deep.equal(['$pageview', 'signup']);
      const marker = await destination.query('select batch_export_id::text, data_interval_end, table_name, records_completed::int from public.hedgerow_batch_export_runs where batch_export_id = $1', [
        first.exportRun.batchExport.id,
      ]);
      expect(marker.rows).to.deep.equal([
        { batch_export_id: first.exportRun.batchExport.id, data_interval_end: new Date('2026-03-01T11:00:00Z'), table_name: `public.${config.table_name}`, records_completed: 2 },
      ]);
    });

    it('loads a run once when two attempts run at the same time', async () => {
      const config = baseConfig();
      const first = await exportRun(config, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' });
      const second = await exportRun(config, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' }, { batchExportId: first.exportRun.batchExport.id });
      const outcomes = await Promise.all([postgresDestination.run(first.exportRun), postgresDestination.run(second.exportRun)]);
      expect(outcomes[0]).to.deep.equal(outcomes[1]);
      expect((await rowsOf(config.table_name, 'event')).map((row) => row.event)).to.deep.equal(['$pageview', 'signup']);
    });

    // PostgreSQL's CREATE TABLE IF NOT EXISTS fails when another session creates the same table at that moment
    // (a duplicate row type); neither two exports into one new table nor two attempts of one run may fail for it.
    it('two exports into one new table and a second attempt of one of them, all at once, never fail (×20)', async () => {
      const window = { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' };
      for (let round = 0; round < 20; round += 1) {
        const config = baseConfig();
        const one = await exportRun(config, window);
        const retry = await exportRun(config, window, { batchExportId: one.exportRun.batchExport.id });
        const other = await exportRun(config, window);
        const outcomes = await Promise.all([one, retry, other].map(({ exportRun: run }) => postgresDestination.run(run)));
        expect(outcomes.map((outcome) => outcome.recordsCompleted), `round ${round}`).to.deep.equal([2, 2, 2]);
        expect(outcomes[0], `round ${round}`).to.deep.equal(outcomes[1]);
        // Each export delivers the window once: its two events, twice in all.
        const delivered = uuids.slice(0, 2);
        const rows = await rowsOf(config.table_name, 'uuid');
        expect(rows.map((row) => row.uuid as string).sort(), `round ${round}`).to.deep.equal([...delivered, ...delivered].sort());
      }
    });

    it('leaves nothing of a run that failed mid-write, so that its retry writes each row once', async () => {
      const config = baseConfig();
      // The second row breaks the table's check: the COPY fails after the first row went in.
      await destination.query(`create table public.${config.table_name} (uuid text, event text check (event <> 'signup'))`);
      const first = await exportRun(config, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' });
      const failure = await failureOf(postgresDestination.run(first.exportRun));
      expect(failure).to.be.instanceOf(NonRetryableExportError);
      expect(failure.message).to.match(/^The destination database refused the export \(23514\): new row for relation "events_[0-9a-f]+" violates check constraint/);
      expect(await rowsOf(config.table_name, 'event')).to.deep.equal([]);
      expect((await destination.query('select count(*)::int as n from public.hedgerow_batch_export_runs where batch_export_id = $1', [first.exportRun.batchExport.id])).rows[0].n).to.equal(0);

      await destination.query(`alter table public.${config.table_name} drop constraint ${config.table_name}_event_check`);
      const retry = await exportRun(config, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' }, { batchExportId: first.exportRun.batchExport.id });
      expect((await postgresDestination.run(retry.exportRun)).recordsCompleted).to.equal(2);
      expect((await rowsOf(config.table_name, 'event')).map((row) => row.event)).to.deep.equal(['$pageview', 'signup']);
    });

    it('stops with the signal’s reason when the run is cancelled, and writes nothing', async () => {
      const config = baseConfig();
      const { exportRun: run, controller } = await exportRun(config, { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' });
      controller.abort(new Error('run cancelled'));
      expect((await failureOf(postgresDestination.run(run))).message).to.equal('run cancelled');
      const exists = await destination.query('select to_regclass($1) as t', [`public.${config.table_name}`]);
      expect(exists.rows[0].t).to.equal(null);
    });

    it('loads a hogql_query’s columns into the table’s columns of the same names', async () => {
      const config = baseConfig();
      await destination.query(`create table public.${config.table_name} (event text, ip text, _inserted_at timestamptz)`);
      const { exportRun: run } = await exportRun(
        config,
        { start: '2026-03-01T10:00:00Z', end: '2026-03-01T11:00:00Z' },
        { hogql_query: 'SELECT upper(event) AS event, properties.$ip AS ip, distinct_id FROM events' },
      );
      expect((await postgresDestination.run(run)).recordsCompleted).to.equal(2);
      expect(await rowsOf(config.table_name, 'event')).to.deep.equal([
        { event: '$PAGEVIEW', ip: '"10.0.0.1"', _inserted_at: new Date('2026-03-01T10:00:00Z') },
        { event: 'SIGNUP', ip: '""', _inserted_at: new Date('2026-03-01T10:59:59.999Z') },
      ]);
    });
  });

  describe('persons and sessions', () => {
    it('upserts persons by (team_id, distinct_id): a newer version wins, an older one does not', async () => {
      const db = testDb();
      const { environment } = await newAccount(db);
      const config = baseConfig({ table_name: `persons_${randomUUID().slice(0, 8)}` });
      const person = await insertPerson(db, environment.id, { distinctIds: ['p1'], properties: { plan: 'free' } });
      const batchExportId = randomUUID();
      await db('batch_exports').insert({
        id: batchExportId,
        team_id: environment.id,
        name: 'persons',
        model: 'persons',
        destination_type: 'Postgres',
        destination_config: JSON.stringify(config),
      });
      const runAt = async (end: Date) => {
        const { exportRun: run } = await exportRun(config, { start: new Date(end.getTime() - 3_600_000).toISOString(), end: end.toISOString() }, { batchExportId });
        return postgresDestination.run(run);
      };
      const now = async () => ((await db.raw('select now() as now')) as { rows: Array<{ now: Date }> }).rows[0]!.now;
      const soon = async () => new Date((await now()).getTime() + 1);

      expect((await runAt(await soon())).recordsCompleted).to.equal(1);
      await db('persons').where({ id: person.id }).update({ properties: JSON.stringify({ plan: 'pro' }), version: 3, updated_at: db.fn.now() });
      expect((await runAt(await soon())).recordsCompleted).to.equal(1);
      const stored = await rowsOf(config.table_name, 'distinct_id');
      expect(stored.map(({ created_at: _created, ...row }) => row)).to.deep.equal([
        { team_id: String(environment.id), distinct_id: 'p1', person_id: person.uuid, properties: { plan: 'pro' }, person_distinct_id_version: '0', person_version: '3', is_deleted: false },
      ]);

      // An older version arriving later leaves the newer row as it is.
      await db('persons').where({ id: person.id }).update({ properties: JSON.stringify({ plan: 'stale' }), version: 2, updated_at: db.fn.now() });
      expect((await runAt(await soon())).recordsCompleted).to.equal(1);
      expect((await rowsOf(config.table_name, 'distinct_id')).map((row) => [row.properties, row.person_version])).to.deep.equal([[{ plan: 'pro' }, '3']]);
    });

    it('upserts sessions by (team_id, session_id): the later end wins', async () => {
      const db = testDb();
      const { environment } = await newAccount(db);
      const team = environment.id;
      const config = baseConfig({ table_name: `sessions_${randomUUID().slice(0, 8)}` });
      const [first] = await insertEvents(db, team, [{ event: '$pageview', distinct_id: 'd', timestamp: '2026-04-01T10:00:00Z', properties: { $session_id: 's', $current_url: 'https://a/' } }]);
      await db('events').where({ team_id: team, uuid: first }).update({ inserted_at: '2026-04-01T10:00:05Z' });
      const one = await exportRun(config, { start: '2026-04-01T10:00:00Z', end: '2026-04-01T11:00:00Z' }, { model: 'sessions', teamId: team });
      expect((await postgresDestination.run(one.exportRun)).recordsCompleted).to.equal(1);
      const [second] = await insertEvents(db, team, [{ event: '$pageview', distinct_id: 'd', timestamp: '2026-04-01T11:30:00Z', properties: { $session_id: 's', $current_url: 'https://b/' } }]);
      await db('events').where({ team_id: team, uuid: second }).update({ inserted_at: '2026-04-01T11:30:05Z' });
      const two = await exportRun(config, { start: '2026-04-01T11:00:00Z', end: '2026-04-01T12:00:00Z' }, { model: 'sessions', batchExportId: one.exportRun.batchExport.id });
      expect((await postgresDestination.run(two.exportRun)).recordsCompleted).to.equal(1);
      const rows = await rowsOf(config.table_name, 'session_id');
      expect(rows.map((row) => [row.team_id, row.session_id, row.urls, row.end_current_url, row.pageview_count, row.session_duration, (row.end_timestamp as Date).toISOString()])).to.deep.equal([
        [String(team), 's', ['https://a/', 'https://b/'], 'https://b/', '2', '5400', '2026-04-01T11:30:00.000Z'],
      ]);
      expect(Object.keys(rows[0]!)).to.not.include('_inserted_at');
    });

    it('refuses a persons table without the primary key the merge needs', async () => {
      const config = baseConfig({ table_name: `persons_${randomUUID().slice(0, 8)}` });
      await destination.query(`create table public.${config.table_name} (team_id bigint, distinct_id text, person_version bigint, person_distinct_id_version bigint)`);
      const { exportRun: run } = await exportRun(config, { start: null, end: '2026-01-01T00:00:00Z' }, { model: 'persons' });
      const failure = await failureOf(postgresDestination.run(run));
      expect(failure).to.be.instanceOf(NonRetryableExportError);
      expect(failure.message).to.equal(`The table public.${config.table_name} has no primary key on (team_id, distinct_id), which merging the rows needs.`);
    });
  });

  describe('running a delivered interval again', () => {
    const hour = { start: '2026-05-01T10:00:00Z', end: '2026-05-01T11:00:00Z' };

    async function eventRows(table: string): Promise<Array<[unknown, unknown, unknown]>> {
      return (await destination.query(`select uuid, event, properties from public.${table} order by event, uuid`)).rows.map((row) => [row.uuid, row.event, row.properties]);
    }

    it('a retry of the same run skips; a backfill over the interval replaces its rows, a late event included, each once', async () => {
      const { environment } = await newAccount(testDb());
      const team = environment.id;
      const config = baseConfig();
      const [view, signup] = await seed(team, [
        { event: '$pageview', distinct_id: 'a', timestamp: '2026-05-01T10:05:00Z', properties: { n: 1 } },
        { event: 'signup', distinct_id: 'a', timestamp: '2026-05-01T10:10:00Z' },
      ]);
      const scheduled = await exportRun(config, hour, { teamId: team });
      const batchExport = scheduled.exportRun.batchExport;
      const first = await postgresDestination.run(scheduled.exportRun);
      expect(first.recordsCompleted).to.equal(2);

      // A late event of the hour arrives.
      const [late] = await seed(team, [{ event: 'late', distinct_id: 'a', timestamp: '2026-05-01T10:20:00Z' }]);
      const retry = await exportRun(config, hour, { batchExportId: batchExport.id });
      expect(await postgresDestination.run(retry.exportRun)).to.deep.equal(first);
      expect(await eventRows(config.table_name)).to.deep.equal([
        [view, '$pageview', { n: 1 }],
        [signup, 'signup', {}],
      ]);

      const backfillId = await newBackfill(batchExport);
      const rerun = await exportRun(config, hour, { batchExportId: batchExport.id, backfillId, selectBy: 'timestamp' });
      const again = await postgresDestination.run(rerun.exportRun);
      expect(again.recordsCompleted).to.equal(3);
      expect(rerun.updates).to.deep.equal([again]);
      expect(await eventRows(config.table_name)).to.deep.equal([
        [view, '$pageview', { n: 1 }],
        [late, 'late', {}],
        [signup, 'signup', {}],
      ]);
      expect(await markerOf(batchExport.id)).to.deep.equal([{ generation: `backfill ${backfillId}`, records_completed: 3 }]);

      // That backfill's run retried (after a crash past the commit) skips in turn, answering its own outcome.
      const backfillRetry = await exportRun(config, hour, { batchExportId: batchExport.id, backfillId, selectBy: 'timestamp' });
      expect(await postgresDestination.run(backfillRetry.exportRun)).to.deep.equal(again);
      expect((await eventRows(config.table_name)).length).to.equal(3);

      // The runs' retry operation makes another backfill of the interval: a third delivery, still each row once.
      const secondBackfill = await newBackfill(batchExport);
      const third = await exportRun(config, hour, { batchExportId: batchExport.id, backfillId: secondBackfill, selectBy: 'timestamp' });
      expect((await postgresDestination.run(third.exportRun)).recordsCompleted).to.equal(3);
      expect((await eventRows(config.table_name)).map(([uuid]) => uuid)).to.have.members([view, late, signup]).and.to.have.length(3);
    });

    // PostHog never deletes what an export delivered: a re-run writes again the rows it exports now (their new
    // content replacing the old) and leaves the rows it no longer selects, here an event a new filter excludes.
    it('a re-run after a filter change rewrites the rows it exports again and leaves those it no longer selects', async () => {
      const { environment } = await newAccount(testDb());
      const team = environment.id;
      const config = baseConfig();
      const [view, signup] = await seed(team, [
        { event: '$pageview', distinct_id: 'a', timestamp: '2026-05-01T10:05:00Z', properties: { n: 1 } },
        { event: 'signup', distinct_id: 'a', timestamp: '2026-05-01T10:10:00Z', properties: { n: 1 } },
      ]);
      const scheduled = await exportRun(config, hour, { teamId: team });
      await postgresDestination.run(scheduled.exportRun);

      const db = testDb();
      await db('events').where({ team_id: team, uuid: view }).update({ properties: JSON.stringify({ n: 2 }) });
      await db('events').where({ team_id: team, uuid: signup }).update({ properties: JSON.stringify({ n: 2 }) });
      await db('batch_exports')
        .where({ id: scheduled.exportRun.batchExport.id })
        .update({ destination_config: JSON.stringify({ ...config, exclude_events: ['signup'] }) });
      const backfillId = await newBackfill(scheduled.exportRun.batchExport);
      const rerun = await exportRun(config, hour, { batchExportId: scheduled.exportRun.batchExport.id, backfillId, selectBy: 'timestamp' });
      expect((await postgresDestination.run(rerun.exportRun)).recordsCompleted).to.equal(1);
      expect(await eventRows(config.table_name)).to.deep.equal([
        [view, '$pageview', { n: 2 }],
        [signup, 'signup', { n: 1 }],
      ]);
    });

    it('a re-run that does not write uuids cannot tell the rows it delivered, and ends at once writing nothing', async () => {
      const { environment } = await newAccount(testDb());
      const team = environment.id;
      const config = baseConfig();
      await destination.query(`create table public.${config.table_name} (event text)`);
      await seed(team, [{ event: '$pageview', distinct_id: 'a', timestamp: '2026-05-01T10:05:00Z' }]);
      const scheduled = await exportRun(config, hour, { teamId: team });
      await postgresDestination.run(scheduled.exportRun);
      const backfillId = await newBackfill(scheduled.exportRun.batchExport);
      const rerun = await exportRun(config, hour, { batchExportId: scheduled.exportRun.batchExport.id, backfillId, selectBy: 'timestamp' });
      const failure = await failureOf(postgresDestination.run(rerun.exportRun));
      expect(failure).to.be.instanceOf(NonRetryableExportError);
      expect(failure.message).to.equal(
        `This interval was exported to public.${config.table_name} before, and replacing its rows needs their uuid, which this export does not write.`,
      );
      expect(await rowsOf(config.table_name, 'event')).to.deep.equal([{ event: '$pageview' }]);
      expect(await markerOf(scheduled.exportRun.batchExport.id)).to.deep.equal([{ generation: 'scheduled', records_completed: 1 }]);
    });

    it('a marker table without generations gets the column, and its old markers are replaced by the next run', async () => {
      const { environment } = await newAccount(testDb());
      const team = environment.id;
      const schema = `legacy_${randomUUID().slice(0, 8)}`;
      const config = baseConfig({ schema });
      await destination.query(`create schema ${schema}`);
      await destination.query(`create table ${schema}.hedgerow_batch_export_runs (
         batch_export_id uuid not null, data_interval_end timestamptz not null, table_name text not null,
         records_completed bigint, bytes_exported bigint, loaded_at timestamptz not null default now(),
         primary key (batch_export_id, data_interval_end))`);
      const [view] = await seed(team, [{ event: '$pageview', distinct_id: 'a', timestamp: '2026-05-01T10:05:00Z' }]);
      const scheduled = await exportRun(config, hour, { teamId: team });
      await destination.query(`create table ${schema}.${config.table_name} (uuid text, event text)`);
      await destination.query(`insert into ${schema}.${config.table_name} values ($1, '$pageview')`, [view]);
      await destination.query(`insert into ${schema}.hedgerow_batch_export_runs (batch_export_id, data_interval_end, table_name, records_completed) values ($1, $2, 'x', 1)`, [
        scheduled.exportRun.batchExport.id,
        hour.end,
      ]);
      expect((await postgresDestination.run(scheduled.exportRun)).recordsCompleted).to.equal(1);
      expect((await destination.query(`select uuid, event from ${schema}.${config.table_name}`)).rows).to.deep.equal([{ uuid: view, event: '$pageview' }]);
      const markers = await destination.query(`select generation, table_name from ${schema}.hedgerow_batch_export_runs`);
      expect(markers.rows).to.deep.equal([{ generation: 'scheduled', table_name: `${schema}.${config.table_name}` }]);
    });

    it('persons: a re-run overwrites rows of the same version, adds late ones and leaves newer ones', async () => {
      const db = testDb();
      const { environment } = await newAccount(db);
      const config = baseConfig({ table_name: `persons_${randomUUID().slice(0, 8)}` });
      const fixed = await insertPerson(db, environment.id, { distinctIds: ['p1'], properties: { plan: 'free' } });
      const overtaken = await insertPerson(db, environment.id, { distinctIds: ['p3'], properties: { plan: 'free' } });
      // Everything up to an hour from now: the changes below stay inside the interval.
      const now = ((await db.raw('select now() as now')) as { rows: Array<{ now: Date }> }).rows[0]!.now;
      const window = { start: null, end: new Date(now.getTime() + 3_600_000).toISOString() };
      const scheduled = await exportRun(config, window, { model: 'persons', teamId: environment.id });
      const batchExport = scheduled.exportRun.batchExport;
      expect((await postgresDestination.run(scheduled.exportRun)).recordsCompleted).to.equal(2);

      // The source is corrected without a new version, a person arrives late, and a later interval has already
      // delivered a newer version of another.
      await db('persons').where({ id: fixed.id }).update({ properties: JSON.stringify({ plan: 'fixed' }), updated_at: db.fn.now() });
      await insertPerson(db, environment.id, { distinctIds: ['p2'], properties: { plan: 'late' } });
      await destination.query(`update public.${config.table_name} set person_version = 7, properties = '{"plan": "newer"}' where distinct_id = 'p3'`);

      const retry = await exportRun(config, window, { model: 'persons', batchExportId: batchExport.id });
      expect((await postgresDestination.run(retry.exportRun)).recordsCompleted).to.equal(2);
      const before = (await rowsOf(config.table_name, 'distinct_id')).map((row) => [row.distinct_id, row.properties, row.person_version]);
      expect(before).to.deep.equal([
        ['p1', { plan: 'free' }, '0'],
        ['p3', { plan: 'newer' }, '7'],
      ]);

      const backfillId = await newBackfill(batchExport);
      const rerun = await exportRun(config, window, { model: 'persons', batchExportId: batchExport.id, backfillId, selectBy: 'timestamp' });
      expect((await postgresDestination.run(rerun.exportRun)).recordsCompleted).to.equal(3);
      expect((await rowsOf(config.table_name, 'distinct_id')).map((row) => [row.distinct_id, row.person_id, row.properties, row.person_version])).to.deep.equal([
        ['p1', fixed.uuid, { plan: 'fixed' }, '0'],
        ['p2', (await db('persons').where({ team_id: environment.id }).whereRaw("properties ->> 'plan' = 'late'").first('uuid')).uuid, { plan: 'late' }, '0'],
        ['p3', overtaken.uuid, { plan: 'newer' }, '7'],
      ]);
    });

    it('sessions: a re-run rewrites the hour’s sessions, adds a late one and leaves one a later hour extended', async () => {
      const db = testDb();
      const { environment } = await newAccount(db);
      const team = environment.id;
      const config = baseConfig({ table_name: `sessions_${randomUUID().slice(0, 8)}` });
      const [, corrected] = await seed(team, [
        { event: '$pageview', distinct_id: 'd', timestamp: '2026-05-01T10:00:00Z', properties: { $session_id: 's', $current_url: 'https://a/' } },
        { event: '$pageview', distinct_id: 'f', timestamp: '2026-05-01T10:15:00Z', properties: { $session_id: 't', $current_url: 'https://t/' } },
      ]);
      const one = await exportRun(config, hour, { model: 'sessions', teamId: team });
      const batchExport = one.exportRun.batchExport;
      expect((await postgresDestination.run(one.exportRun)).recordsCompleted).to.equal(2);
      await seed(team, [{ event: '$pageview', distinct_id: 'd', timestamp: '2026-05-01T11:30:00Z', properties: { $session_id: 's', $current_url: 'https://b/' } }]);
      const two = await exportRun(config, { start: '2026-05-01T11:00:00Z', end: '2026-05-01T12:00:00Z' }, { model: 'sessions', batchExportId: batchExport.id });
      expect((await postgresDestination.run(two.exportRun)).recordsCompleted).to.equal(1);
      const extended = (await rowsOf(config.table_name, 'session_id'))[0];

      // The first hour's source is corrected (same times) and a late session of it arrives. Session s ended in
      // the second hour, so the first hour's re-run does not select it and its row stays the second hour's.
      await db('events').where({ team_id: team, uuid: corrected }).update({ properties: JSON.stringify({ $session_id: 't', $current_url: 'https://t-fixed/' }) });
      await seed(team, [{ event: '$pageview', distinct_id: 'e', timestamp: '2026-05-01T10:30:00Z', properties: { $session_id: 'u', $current_url: 'https://c/' } }]);
      const backfillId = await newBackfill(batchExport);
      const rerun = await exportRun(config, hour, { model: 'sessions', batchExportId: batchExport.id, backfillId, selectBy: 'timestamp' });
      expect((await postgresDestination.run(rerun.exportRun)).recordsCompleted).to.equal(2);
      const rows = await rowsOf(config.table_name, 'session_id');
      expect(rows.map((row) => [row.session_id, row.urls, (row.end_timestamp as Date).toISOString()])).to.deep.equal([
        ['s', ['https://a/', 'https://b/'], '2026-05-01T11:30:00.000Z'],
        ['t', ['https://t-fixed/'], '2026-05-01T10:15:00.000Z'],
        ['u', ['https://c/'], '2026-05-01T10:30:00.000Z'],
      ]);
      expect(rows[0]).to.deep.equal(extended);
    });

    it('sessions: a re-run does not put back an older state of a session a later hour extended', async () => {
      const db = testDb();
      const { environment } = await newAccount(db);
      const team = environment.id;
      const config = baseConfig({ table_name: `sessions_${randomUUID().slice(0, 8)}` });
      await seed(team, [{ event: '$pageview', distinct_id: 'd', timestamp: '2026-05-01T10:00:00Z', properties: { $session_id: 's', $current_url: 'https://a/' } }]);
      const one = await exportRun(config, hour, { model: 'sessions', teamId: team });
      await postgresDestination.run(one.exportRun);
      // A later hour's delivery, as the table holds it (the source has no such event, so the re-run computes the
      // older state and must not write it back).
      await destination.query(`update public.${config.table_name} set end_timestamp = '2026-05-01T11:30:00Z', end_current_url = 'https://b/' where session_id = 's'`);
      const backfillId = await newBackfill(one.exportRun.batchExport);
      const rerun = await exportRun(config, hour, { model: 'sessions', batchExportId: one.exportRun.batchExport.id, backfillId, selectBy: 'timestamp' });
      expect((await postgresDestination.run(rerun.exportRun)).recordsCompleted).to.equal(1);
      const rows = await rowsOf(config.table_name, 'session_id');
      expect(rows.map((row) => [row.session_id, row.end_current_url, (row.end_timestamp as Date).toISOString()])).to.deep.equal([
        ['s', 'https://b/', '2026-05-01T11:30:00.000Z'],
      ]);
    });
  });

  // PostHog's documentation asks, for an existing table, USAGE on its schema and SELECT, INSERT and UPDATE on the
  // table (CREATE on the schema only when the table is to be created). A role with no more than that loads each
  // row once, the marker table it may not create being replaced by merging the rows by their key.
  describe('a role with only PostHog’s privileges', () => {
    const hour = { start: '2026-06-01T10:00:00Z', end: '2026-06-01T11:00:00Z' };
    const role = `hedgerow_least_${randomUUID().slice(0, 8)}`;
    const schema = `exports_${randomUUID().slice(0, 8)}`;
    let admin: pg.Client;

    before(async () => {
      admin = new pg.Client({ connectionString: databaseUrl(destinationName) });
      await admin.connect();
      await admin.query(`create role ${role} login`);
      await destination.query(`create schema ${schema}`);
      await destination.query(`grant usage on schema ${schema} to ${role}`);
    });

    after(async () => {
      // Roles belong to the cluster: this one goes with what it was granted.
      if (!admin) return;
      const { rows } = await admin.query('select 1 from pg_roles where rolname = $1', [role]);
      if (rows.length > 0) await admin.query(`drop owned by ${role}`);
      await admin.query(`drop role if exists ${role}`);
      await admin.end();
    });

    /** A table made by its owner, on which the role gets SELECT, INSERT and UPDATE only. */
    async function grantedTable(name: string, columns: string): Promise<void> {
      await destination.query(`create table ${schema}.${name} (${columns})`);
      await destination.query(`grant select, insert, update on ${schema}.${name} to ${role}`);
    }

    async function schemaTables(): Promise<string[]> {
      const { rows } = await destination.query<{ tablename: string }>('select tablename from pg_tables where schemaname = $1 order by 1', [schema]);
      return rows.map((row) => row.tablename);
    }

    it('events: loads, skips nothing twice across retries, concurrent attempts and a backfill, and creates nothing', async () => {
      const { environment } = await newAccount(testDb());
      const table = `events_${randomUUID().slice(0, 8)}`;
      await grantedTable(
        table,
        'uuid varchar(200), event varchar(200), properties jsonb, elements jsonb, set jsonb, set_once jsonb, distinct_id varchar(200), team_id integer, ip varchar(200), site_url varchar(200), timestamp timestamptz',
      );
      const config = baseConfig({ user: role, schema, table_name: table });
      const [view, signup] = await seed(environment.id, [
        { event: '$pageview', distinct_id: 'a', timestamp: '2026-06-01T10:05:00Z' },
        { event: 'signup', distinct_id: 'a', timestamp: '2026-06-01T10:10:00Z' },
      ]);
      const eventRows = async () => (await destination.query(`select uuid, event, team_id from ${schema}.${table} order by event, uuid`)).rows;

      const scheduled = await exportRun(config, hour, { teamId: environment.id });
      const batchExportId = scheduled.exportRun.batchExport.id;
      expect(await postgresDestination.run(scheduled.exportRun)).to.include({ recordsCompleted: 2 });
      const delivered = [
        { uuid: view, event: '$pageview', team_id: environment.id },
        { uuid: signup, event: 'signup', team_id: environment.id },
      ];
      expect(await eventRows()).to.deep.equal(delivered);

      // A retry after a crash past the commit, and two attempts at the same moment: still each row once.
      const retry = await exportRun(config, hour, { batchExportId });
      expect((await postgresDestination.run(retry.exportRun)).recordsCompleted).to.equal(2);
      const attempts = [await exportRun(config, hour, { batchExportId }), await exportRun(config, hour, { batchExportId })];
      await Promise.all(attempts.map(({ exportRun: run }) => postgresDestination.run(run)));
      expect(await eventRows()).to.deep.equal(delivered);

      // A late event and a backfill over the hour: the late one is added, the others stay once.
      const [late] = await seed(environment.id, [{ event: 'late', distinct_id: 'a', timestamp: '2026-06-01T10:20:00Z' }]);
      const backfillId = await newBackfill(scheduled.exportRun.batchExport);
      const rerun = await exportRun(config, hour, { batchExportId, backfillId, selectBy: 'timestamp' });
      expect((await postgresDestination.run(rerun.exportRun)).recordsCompleted).to.equal(3);
      expect(await eventRows()).to.deep.equal([delivered[0], { uuid: late, event: 'late', team_id: environment.id }, delivered[1]]);
      expect(await schemaTables()).to.deep.equal([table]);
    });

    it('persons: upserts by the table’s primary key with SELECT, INSERT and UPDATE only', async () => {
      const db = testDb();
      const { environment } = await newAccount(db);
      const table = `persons_${randomUUID().slice(0, 8)}`;
      await grantedTable(
        table,
        'team_id bigint, distinct_id text, person_id text, properties jsonb, person_distinct_id_version bigint, person_version bigint, created_at timestamptz, is_deleted boolean, primary key (team_id, distinct_id)',
      );
      const config = baseConfig({ user: role, schema, table_name: table });
      const person = await insertPerson(db, environment.id, { distinctIds: ['p1'], properties: { plan: 'free' } });
      const now = ((await db.raw('select now() as now')) as { rows: Array<{ now: Date }> }).rows[0]!.now;
      const window = { start: null, end: new Date(now.getTime() + 3_600_000).toISOString() };
      const scheduled = await exportRun(config, window, { model: 'persons', teamId: environment.id });
      expect((await postgresDestination.run(scheduled.exportRun)).recordsCompleted).to.equal(1);
      await db('persons').where({ id: person.id }).update({ properties: JSON.stringify({ plan: 'pro' }), version: 2, updated_at: db.fn.now() });
      const retry = await exportRun(config, window, { model: 'persons', batchExportId: scheduled.exportRun.batchExport.id });
      expect((await postgresDestination.run(retry.exportRun)).recordsCompleted).to.equal(1);
      const rows = (await destination.query(`select distinct_id, person_id, properties, person_version from ${schema}.${table}`)).rows;
      expect(rows).to.deep.equal([{ distinct_id: 'p1', person_id: person.uuid, properties: { plan: 'pro' }, person_version: '2' }]);
      expect(await schemaTables()).to.include(table).and.not.to.include('hedgerow_batch_export_runs');
    });

    it('keeps its markers in a marker table the owner made and granted, and then skips a retry', async () => {
      const { environment } = await newAccount(testDb());
      const markerSchema = `markers_${randomUUID().slice(0, 8)}`;
      const table = `events_${randomUUID().slice(0, 8)}`;
      await destination.query(`create schema ${markerSchema}`);
      await destination.query(`grant usage on schema ${markerSchema} to ${role}`);
      await destination.query(`create table ${markerSchema}.${table} (uuid text, event text)`);
      await destination.query(`create table ${markerSchema}.hedgerow_batch_export_runs (
         batch_export_id uuid not null, data_interval_end timestamptz not null, table_name text not null,
         records_completed bigint, bytes_exported bigint, loaded_at timestamptz not null default now(), generation text,
         primary key (batch_export_id, data_interval_end))`);
      await destination.query(`grant select, insert, update on ${markerSchema}.${table}, ${markerSchema}.hedgerow_batch_export_runs to ${role}`);
      const config = baseConfig({ user: role, schema: markerSchema, table_name: table });
      await seed(environment.id, [{ event: '$pageview', distinct_id: 'a', timestamp: '2026-06-01T10:05:00Z' }]);
      const scheduled = await exportRun(config, hour, { teamId: environment.id });
      const first = await postgresDestination.run(scheduled.exportRun);
      expect(first.recordsCompleted).to.equal(1);
      await seed(environment.id, [{ event: 'late', distinct_id: 'a', timestamp: '2026-06-01T10:20:00Z' }]);
      const retry = await exportRun(config, hour, { batchExportId: scheduled.exportRun.batchExport.id });
      expect(await postgresDestination.run(retry.exportRun)).to.deep.equal(first);
      expect((await destination.query(`select event from ${markerSchema}.${table}`)).rows).to.deep.equal([{ event: '$pageview' }]);
      const markers = await destination.query(`select generation, records_completed::int from ${markerSchema}.hedgerow_batch_export_runs`);
      expect(markers.rows).to.deep.equal([{ generation: 'scheduled', records_completed: 1 }]);
      await admin.query(`drop schema ${markerSchema} cascade`);
    });

    it('leaves alone a marker table it may not use, and loads each row once by uuid', async () => {
      const { environment } = await newAccount(testDb());
      const otherSchema = `ungranted_${randomUUID().slice(0, 8)}`;
      const table = `events_${randomUUID().slice(0, 8)}`;
      await destination.query(`create schema ${otherSchema}`);
      await destination.query(`grant usage on schema ${otherSchema} to ${role}`);
      await destination.query(`create table ${otherSchema}.${table} (uuid text, event text)`);
      await destination.query(`grant select, insert, update on ${otherSchema}.${table} to ${role}`);
      await destination.query(`create table ${otherSchema}.hedgerow_batch_export_runs (batch_export_id uuid, data_interval_end timestamptz)`);
      const config = baseConfig({ user: role, schema: otherSchema, table_name: table });
      const [view] = await seed(environment.id, [{ event: '$pageview', distinct_id: 'a', timestamp: '2026-06-01T10:05:00Z' }]);
      const scheduled = await exportRun(config, hour, { teamId: environment.id });
      expect((await postgresDestination.run(scheduled.exportRun)).recordsCompleted).to.equal(1);
      const retry = await exportRun(config, hour, { batchExportId: scheduled.exportRun.batchExport.id });
      expect((await postgresDestination.run(retry.exportRun)).recordsCompleted).to.equal(1);
      expect((await destination.query(`select uuid, event from ${otherSchema}.${table}`)).rows).to.deep.equal([{ uuid: view, event: '$pageview' }]);
      expect((await destination.query(`select count(*)::int as n from ${otherSchema}.hedgerow_batch_export_runs`)).rows[0].n).to.equal(0);
      await admin.query(`drop schema ${otherSchema} cascade`);
    });

    it('with PostHog’s recommended CREATE and USAGE on a schema of its own, creates the table and its markers there', async () => {
      const { environment } = await newAccount(testDb());
      const ownSchema = `posthog_exports_${randomUUID().slice(0, 8)}`;
      await destination.query(`create schema ${ownSchema}`);
      await destination.query(`grant create, usage on schema ${ownSchema} to ${role}`);
      const config = baseConfig({ user: role, schema: ownSchema, table_name: 'events' });
      await seed(environment.id, [{ event: '$pageview', distinct_id: 'a', timestamp: '2026-06-01T10:05:00Z' }]);
      const scheduled = await exportRun(config, hour, { teamId: environment.id });
      const first = await postgresDestination.run(scheduled.exportRun);
      expect(first.recordsCompleted).to.equal(1);
      const retry = await exportRun(config, hour, { batchExportId: scheduled.exportRun.batchExport.id });
      expect(await postgresDestination.run(retry.exportRun)).to.deep.equal(first);
      const { rows } = await destination.query('select tablename, tableowner from pg_tables where schemaname = $1 order by 1', [ownSchema]);
      expect(rows).to.deep.equal([{ tablename: 'events', tableowner: role }, { tablename: 'hedgerow_batch_export_runs', tableowner: role }]);
      // The role's own tables, which only it and a superuser may read.
      expect((await admin.query(`select event from ${ownSchema}.events`)).rows).to.deep.equal([{ event: '$pageview' }]);
      await admin.query(`drop schema ${ownSchema} cascade`);
    });

    it('without markers and without a uuid column cannot load each row once, and ends at once writing nothing', async () => {
      const { environment } = await newAccount(testDb());
      const table = `events_${randomUUID().slice(0, 8)}`;
      await grantedTable(table, 'event text');
      await seed(environment.id, [{ event: '$pageview', distinct_id: 'a', timestamp: '2026-06-01T10:05:00Z' }]);
      const { exportRun: run } = await exportRun(baseConfig({ user: role, schema, table_name: table }), hour, { teamId: environment.id });
      const failure = await failureOf(postgresDestination.run(run));
      expect(failure).to.be.instanceOf(NonRetryableExportError);
      expect(failure.message).to.equal(
        `The role may neither create nor use ${schema}.hedgerow_batch_export_runs, where runs are recorded, so loading each row once needs the rows' uuid, which this export does not write: grant the role CREATE on schema ${schema} (it makes that table once), or add a uuid column to ${schema}.${table}.`,
      );
      expect((await destination.query(`select count(*)::int as n from ${schema}.${table}`)).rows[0].n).to.equal(0);
    });

    it('a missing table it may not create ends the run at once (PostHog needs CREATE on the schema for it too)', async () => {
      const { exportRun: run } = await exportRun(baseConfig({ user: role, schema, table_name: `events_${randomUUID().slice(0, 8)}` }), hour);
      const failure = await failureOf(postgresDestination.run(run));
      expect(failure).to.be.instanceOf(NonRetryableExportError);
      expect(failure.message).to.equal(`The destination database refused the export (42501): permission denied for schema ${schema}`);
    });
  });

  describe('failures', () => {
    it('an unknown database, an unknown role and a missing schema end the run at once', async () => {
      const cases: Array<[Record<string, unknown>, RegExp]> = [
        [{ database: 'hedgerow_no_such_database' }, /^The destination database refused the export \(3D000\): database "hedgerow_no_such_database" does not exist$/],
        [{ user: 'hedgerow_no_such_role' }, /^The destination database refused the export \(28000\): role "\*\*\*" does not exist$/],
        [{ schema: 'no_such_schema' }, /^The destination database refused the export \(3F000\): schema "no_such_schema" does not exist$/],
      ];
      for (const [overrides, message] of cases) {
        const { exportRun: run } = await exportRun(baseConfig(overrides), { start: null, end: '2026-01-01T00:00:00Z' });
        const failure = await failureOf(postgresDestination.run(run));
        expect(failure, String(Object.keys(overrides))).to.be.instanceOf(NonRetryableExportError);
        expect(failure.message).to.match(message);
      }
    });

    it('never names the configured user or password in its errors (a run answers them as latest_error)', async () => {
      const { exportRun: run } = await exportRun(baseConfig({ user: 'hedgerow_secret_user' }), { start: null, end: '2026-01-01T00:00:00Z' });
      const failure = await failureOf(postgresDestination.run(run));
      expect(failure).to.be.instanceOf(NonRetryableExportError);
      expect(failure.message).to.equal('The destination database refused the export (28000): role "***" does not exist');
    });

    it('a wrong password ends the run at once', async () => {
      // The test server trusts every local connection, so a stand-in server asks for the password and refuses it.
      const server = net.createServer((socket) => refusePassword(socket));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const port = (server.address() as net.AddressInfo).port;
        const { exportRun: run } = await exportRun(baseConfig({ port, password: 'wrong' }), { start: null, end: '2026-01-01T00:00:00Z' });
        const failure = await failureOf(postgresDestination.run(run));
        expect(failure).to.be.instanceOf(NonRetryableExportError);
        expect(failure.message).to.equal('The destination database refused the export (28P01): password authentication failed for user "***"');
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('a database that refuses connections is retried (a plain error)', async () => {
      const server = net.createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as net.AddressInfo).port;
      await new Promise((resolve) => server.close(resolve));
      const { exportRun: run } = await exportRun(baseConfig({ port }), { start: null, end: '2026-01-01T00:00:00Z' });
      const failure = await failureOf(postgresDestination.run(run));
      expect(failure).to.not.be.instanceOf(NonRetryableExportError);
      expect(failure.message).to.equal('ConnectionError: the destination could not be reached');
    });

    it('settings it cannot use end the run at once', async () => {
      const { exportRun: run } = await exportRun(baseConfig({ host: undefined }), { start: null, end: '2026-01-01T00:00:00Z' });
      const failure = await failureOf(postgresDestination.run(run));
      expect(failure).to.be.instanceOf(NonRetryableExportError);
      expect(failure.message).to.equal('The Postgres destination needs "host".');
    });
  });
});

/**
 * Speaks just enough of PostgreSQL's protocol to refuse a password: no TLS, a request for the password in clear
 * text, then the error a real server sends for a wrong one.
 */
function refusePassword(socket: net.Socket): void {
  let buffered = Buffer.alloc(0);
  let started = false;
  socket.on('error', () => undefined);
  socket.on('data', (chunk) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (!started) {
      if (buffered.length < 8) return;
      const length = buffered.readInt32BE(0);
      if (buffered.length < length) return;
      const code = buffered.readInt32BE(4);
      buffered = buffered.subarray(length);
      if (code === 80877103) {
        socket.write('N'); // SSLRequest: no TLS here
        return;
      }
      started = true;
      const ask = Buffer.alloc(9);
      ask.write('R', 0);
      ask.writeInt32BE(8, 1);
      ask.writeInt32BE(3, 5); // AuthenticationCleartextPassword
      socket.write(ask);
      return;
    }
    if (buffered.length < 5 || buffered[0] !== 'p'.charCodeAt(0)) return;
    const fields = ['SFATAL', 'VFATAL', 'C28P01', 'Mpassword authentication failed for user "***"'];
    const body = Buffer.concat([...fields.map((field) => Buffer.from(`${field}\0`)), Buffer.from('\0')]);
    const header = Buffer.alloc(5);
    header.write('E', 0);
    header.writeInt32BE(body.length + 4, 1);
    socket.end(Buffer.concat([header, body]));
  });
}
