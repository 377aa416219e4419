/**
 * The records source of batch exports (db/queries/batch-exports/records.ts): what each model's records hold for a
 * window, read in batches through the cursor and as the one SELECT that COPY fast paths stream.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/pg/client.js';
import {
  exportRecordsQuery,
  readExportRecords,
  type RecordsRequest,
} from '../../db/queries/batch-exports/records.js';
import type { BatchExportModel, BatchExportRow, ExportRecord } from '../../db/queries/batch-exports/rows.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';

export function exportRow(teamId: number, overrides: Partial<BatchExportRow> = {}): BatchExportRow {
  const now = new Date();
  return {
    id: randomUUID(),
    team_id: teamId,
    name: 'export',
    model: 'events',
    destination_type: 'NoOp',
    destination_config: {},
    interval: 'hour',
    interval_offset: 0,
    timezone: 'UTC',
    paused: false,
    deleted: false,
    created_at: now,
    last_updated_at: now,
    last_paused_at: null,
    start_at: null,
    end_at: null,
    hogql_query: null,
    schema: null,
    filters: null,
    created_by: null,
    ...overrides,
  };
}

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
  });
});
