import { expect } from 'chai';
import { createReadDb, type ReadDb } from '../../db/pg/client.js';
import { PREPARED_PER_SESSION } from '../../db/pg/prepared.js';
import { onReadSession } from '../../db/pg/read-session.js';
import { ApiError } from '../../db/core/errors.js';
import { testDb } from '../helpers/database.js';

describe('integration: read-only sessions (db/pg/client.ts createReadDb)', () => {
  let reader: ReadDb;

  before(() => {
    reader = createReadDb(testDb(), 300);
  });

  after(async () => {
    await reader.destroy();
  });

  it('reads', async () => {
    const rows = await onReadSession(reader, 300, async (read) => (await read<{ one: number }>('select 1 as one', [])).rows);
    expect(rows).to.deep.equal([{ one: 1 }]);
  });

  it('refuses to write, whatever the statement', async () => {
    const error = await reader
      .raw('create table hedgerow_should_not_exist (id int)')
      .then(() => null, (thrown: { code?: string }) => thrown);
    expect(error?.code).to.equal('25006'); // read_only_sql_transaction
    const exists = await testDb().raw(`select to_regclass('hedgerow_should_not_exist') as name`);
    expect(exists.rows[0].name).to.equal(null);
  });

  it('cancels a statement past its timeout, as a 504 in the error format', async () => {
    const error = await onReadSession(reader, 300, (read) => read('select pg_sleep(2)', [])).then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(504);
    expect((error as ApiError).toBody()).to.include({ type: 'server_error', code: 'query_timeout', attr: null });
  });

  describe('parallel: false runs a statement without parallel workers (db/pg/prepared.ts)', () => {
    let single: ReadDb;

    before(async () => {
      // A table and a function that tells which process computed each row: a parallel-safe expression is
      // computed by the workers of a parallel plan. (The function calls a parallel-restricted one, which
      // PostgreSQL does not check; it is what lets a row name its process.)
      await testDb().raw('create table hedgerow_parallel_probe as select n from generate_series(1, 200000) as n');
      await testDb().raw(`create function hedgerow_process_of(int) returns int language sql parallel safe as 'select pg_backend_pid()'`);
      single = createReadDb(testDb(), 10_000, { poolMax: 1 });
    });

    after(async () => {
      await single.destroy();
      await testDb().raw('drop table hedgerow_parallel_probe');
      await testDb().raw('drop function hedgerow_process_of(int)');
    });

    /** How many processes computed the rows, the planner made to favour a parallel plan. */
    const processes = (options: { prepare?: boolean; parallel?: boolean }) =>
      onReadSession(single, 10_000, async (read) => {
        await read('set parallel_setup_cost = 0', [], { prepare: false });
        await read('set parallel_tuple_cost = 0', [], { prepare: false });
        await read('set min_parallel_table_scan_size = 0', [], { prepare: false });
        try {
          const { rows } = await read<{ processes: number }>(
            'select count(distinct p)::int as processes from (select hedgerow_process_of(n) as p from hedgerow_parallel_probe where n > ?::int) x',
            [0],
            options,
          );
          return rows[0]!.processes;
        } finally {
          for (const setting of ['parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size']) {
            await read(`reset ${setting}`, [], { prepare: false });
          }
        }
      });

    for (const prepare of [false, true]) {
      it(`computes every row in the session's own process${prepare ? ', prepared' : ''}`, async () => {
        for (let run = 0; run < (prepare ? 3 : 1); run += 1) expect(await processes({ prepare, parallel: false })).to.equal(1);
      });
    }

    it('while the same statement otherwise runs in parallel (the check can tell)', async () => {
      // Parallel workers are shared by the whole server: another session may hold them all for a moment.
      let most = 0;
      for (let attempt = 0; attempt < 10 && most <= 1; attempt += 1) {
        most = Math.max(most, await processes({ prepare: false }));
        if (most <= 1) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(most).to.be.greaterThan(1);
    });

    const workersSetting = () =>
      onReadSession(single, 10_000, async (read) => {
        const { rows } = await read<{ workers: string }>(`select current_setting('max_parallel_workers_per_gather') as workers`, [], { prepare: false });
        return rows[0]!.workers;
      });

    for (const prepare of [false, true]) {
      it(`leaves the session as it was, its setting too, after the statement succeeds or fails${prepare ? ', prepared' : ''}`, async () => {
        const before = await workersSetting();
        expect(before).to.not.equal('0');
        const divide = (by: number) =>
          onReadSession(single, 10_000, async (read) => (await read<{ q: number }>('select 10 / ?::int as q', [by], { prepare, parallel: false })).rows);
        for (let run = 0; run < 3; run += 1) {
          expect(await divide(2)).to.deep.equal([{ q: 5 }]);
          const error = await divide(0).then(
            () => null,
            (thrown: unknown) => thrown,
          );
          // PostgreSQL's division_by_zero (22012), translated: a value the caller's query computed with.
          expect([(error as ApiError).status, (error as ApiError).detail]).to.deep.equal([400, 'A value in the query is not valid: division by zero']);
          expect(await workersSetting()).to.equal(before);
        }
      });
    }
  });

  describe('statements run prepared from their second use, a bounded number of them a session (db/pg/prepared.ts)', () => {
    let single: ReadDb;

    beforeEach(() => {
      single = createReadDb(testDb(), 3000, { poolMax: 1 }); // one session, so that every statement lands on it
    });

    afterEach(async () => {
      await single.destroy();
    });

    const positional = (text: string) => text.replace('?', '$1');

    /** Runs `text` with one parameter on the session; `prepare: false` as the listing runs aggregates. */
    const run = (text: string, value: unknown, prepare = true) =>
      onReadSession(single, 3000, async (read) => (await read<Record<string, unknown>>(text, [value], { prepare })).rows);

    /** This session's prepared statements, by text, with how often each was planned generically. */
    const prepared = () =>
      onReadSession(single, 3000, async (read) => {
        const { rows } = await read<{ statement: string; generic_plans: string }>(
          `select statement, generic_plans from pg_prepared_statements where name like 'hedgerow_read_%'`,
          [],
          { prepare: false },
        );
        return new Map(rows.map((row) => [row.statement, Number(row.generic_plans)]));
      });

    /** How many statements `pg` believes prepared on the session. */
    async function pgBook(): Promise<number> {
      const session = (await single.client.acquireConnection()) as { connection: { parsedStatements: object } };
      try {
        return Object.keys(session.connection.parsedStatements).length;
      } finally {
        await single.client.releaseConnection(session);
      }
    }

    it('runs a text unnamed first, prepared when it comes back, and PostgreSQL then keeps a generic plan for it', async () => {
      const text = 'select n from generate_series(1, 10) as n where n > ?::int order by n limit 3';
      expect(await run(text, 0)).to.deep.equal([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect((await prepared()).has(positional(text))).to.equal(false);
      for (let value = 1; value < 8; value += 1) {
        expect((await run(text, value)).map((row) => row.n)).to.deep.equal([value + 1, value + 2, value + 3]);
      }
      // Seven prepared executions: the sixth and seventh skipped planning.
      expect((await prepared()).get(positional(text))).to.equal(2);
    });

    it('runs unnamed what it is told to, however often', async () => {
      const text = 'select ?::int as n';
      for (let run_ = 0; run_ < 3; run_ += 1) expect(await run(text, run_, false)).to.deep.equal([{ n: run_ }]);
      expect((await prepared()).has(positional(text))).to.equal(false);
    });

    it('deallocates the least recently used beyond the bound, and prepares it again when it comes back', async () => {
      const text = (index: number) => `select ${index} as n where ?::int = 1`;
      const twice = async (index: number) => {
        expect(await run(text(index), 1)).to.deep.equal([{ n: index }]);
        expect(await run(text(index), 1)).to.deep.equal([{ n: index }]);
      };
      for (let index = 0; index < PREPARED_PER_SESSION + 5; index += 1) {
        await twice(index);
        expect(await run(text(0), 1)).to.deep.equal([{ n: 0 }]); // kept recent
      }
      const statements = await prepared();
      expect(statements.size).to.equal(PREPARED_PER_SESSION);
      expect(statements.has(positional(text(0)))).to.equal(true);
      expect(statements.has(positional(text(1)))).to.equal(false);
      expect(await pgBook()).to.equal(PREPARED_PER_SESSION); // `pg`'s own memory of them is bounded alike
      await twice(1);
      expect((await prepared()).has(positional(text(1)))).to.equal(true);
    });

    it('prepares again a statement that PostgreSQL no longer has', async () => {
      const text = 'select ?::int + 1 as n';
      expect(await run(text, 1)).to.deep.equal([{ n: 2 }]);
      expect(await run(text, 2)).to.deep.equal([{ n: 3 }]);
      await onReadSession(single, 3000, (read) => read('deallocate all', [], { prepare: false }));
      expect((await prepared()).size).to.equal(0);
      expect(await run(text, 3)).to.deep.equal([{ n: 4 }]);
      expect((await prepared()).has(positional(text))).to.equal(true);
    });

    it('prepares a statement again when a table it reads has changed its columns since', async () => {
      await testDb().raw('create table hedgerow_prepared_shape (a int)');
      try {
        await testDb().raw('insert into hedgerow_prepared_shape values (1)');
        const text = 'select * from hedgerow_prepared_shape where a = ?::int';
        expect(await run(text, 1)).to.deep.equal([{ a: 1 }]);
        expect(await run(text, 1)).to.deep.equal([{ a: 1 }]); // prepared now
        await testDb().raw('alter table hedgerow_prepared_shape add column b int default 2');
        expect(await run(text, 1)).to.deep.equal([{ a: 1, b: 2 }]);
      } finally {
        await testDb().raw('drop table hedgerow_prepared_shape');
      }
    });

    it('reports a statement PostgreSQL cannot prepare, and goes on when it is pushed out', async () => {
      const refused = async () => {
        const error = await run('select nonsense from nowhere where ?::int = 1', 1).then(
          () => null,
          (thrown: unknown) => thrown,
        );
        expect((error as { code?: string }).code).to.equal('42P01'); // undefined_table
      };
      await refused(); // unnamed
      await refused(); // its Parse as a named statement fails
      for (let index = 0; index < PREPARED_PER_SESSION; index += 1) {
        const text = `select ${index} as n where ?::int = 1`;
        await run(text, 1);
        expect(await run(text, 1)).to.deep.equal([{ n: index }]);
      }
      expect((await prepared()).size).to.equal(PREPARED_PER_SESSION);
    });
  });
});
