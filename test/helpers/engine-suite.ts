/**
 * The describe-level set-up of the engine's in-process tests (batch-export-engine.test.ts and
 * batch-export-engine-backfills.test.ts): one account, a pg-boss schema of its own for each test, engines on a
 * manual clock that are stopped after each test, and the export and backfill rows the tests start from.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import type { BatchExportRow } from '../../db/queries/batch-exports/rows.js';
import type { ManualClock } from '../../handlers/jobs/clock.js';
import type { DestinationRegistry } from '../../handlers/jobs/destinations/index.js';
import { Engine, type EngineOptions } from '../../handlers/jobs/engine.js';
import { testDb } from './database.js';
import { newAccount, type Account } from './fixtures.js';

export interface EngineSuite {
  /** The account whose environment the exports belong to, made once for the describe. */
  readonly account: Account;
  /** The current test's pg-boss schema, dropped after it. */
  readonly schema: string;
  /** The engines the current test started, in order. */
  readonly engines: readonly Engine[];
  /** An engine on `clock` that polls quickly and retries twice without delay, unless `options` says otherwise. */
  startEngine(clock: ManualClock, destinations: DestinationRegistry, options?: Partial<EngineOptions>): Promise<Engine>;
  /** An hourly NoOp export created at 2024-03-01 10:30 UTC, unless `fields` says otherwise. */
  createExport(fields?: Partial<BatchExportRow>): Promise<BatchExportRow>;
  /** A Starting backfill of the window, its start not adjusted; returns its id. */
  createBackfill(exportId: string, startAt: string | null, endAt: string | null): Promise<string>;
}

/** Registers the hooks in the calling describe and answers what its tests use. */
export function engineSuite(): EngineSuite {
  let account: Account | undefined;
  let schema = '';
  let engines: Engine[] = [];
  const accountOf = (): Account => {
    if (!account) throw new Error('the engine suite has no account before its before() hook has run');
    return account;
  };

  before(async () => {
    account = await newAccount(testDb());
  });

  beforeEach(() => {
    schema = `pgboss_test_${randomBytes(4).toString('hex')}`;
  });

  afterEach(async () => {
    await Promise.all(engines.map((engine) => engine.stop()));
    engines = [];
    // Nothing of this test is left for the next one's engine to schedule.
    await testDb()('batch_export_backfills').whereIn('status', ['Starting', 'Running']).update({ status: 'Cancelled' });
    await testDb()('batch_export_runs').whereIn('status', ['Starting', 'Running']).update({ status: 'Cancelled' });
    await testDb()('batch_exports').update({ deleted: true });
    await testDb().raw(`drop schema if exists ${schema} cascade`);
  });

  return {
    get account() {
      return accountOf();
    },
    get schema() {
      return schema;
    },
    get engines() {
      return engines;
    },

    async startEngine(clock, destinations, options = {}) {
      const engine = new Engine({
        db: testDb(),
        logger: pino({ level: 'silent' }),
        clock,
        destinations,
        schema,
        cron: false,
        pollingIntervalSeconds: 0.5,
        retry: { limit: 2, delaySeconds: 0, backoff: false },
        straddlePollMs: 20,
        ...options,
      });
      engines.push(engine);
      await engine.start();
      return engine;
    },

    async createExport(fields = {}) {
      const [row] = await testDb()('batch_exports')
        .insert({
          id: randomUUID(),
          team_id: accountOf().environment.id,
          name: 'export',
          destination_type: 'NoOp',
          interval: 'hour',
          created_at: new Date('2024-03-01T10:30:00Z'),
          ...fields,
        })
        .returning('*');
      return row as BatchExportRow;
    },

    async createBackfill(exportId, startAt, endAt) {
      const id = randomUUID();
      await testDb()('batch_export_backfills').insert({
        id,
        batch_export_id: exportId,
        team_id: accountOf().environment.id,
        start_at: startAt,
        end_at: endAt,
        adjusted_start_at: startAt,
        status: 'Starting',
      });
      return id;
    },
  };
}
