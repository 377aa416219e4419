import { expect } from 'chai';
import { createReadDb, type ReadDb } from '../../db/client.js';
import { PREPARED_PER_SESSION } from '../../db/prepared.js';
import { onReadSession } from '../../db/queries/event-listing.js';
import { ApiError } from '../../handlers/errors.js';
import { testDb } from '../helpers/database.js';

describe('integration: read-only sessions (db/client.ts createReadDb)', () => {
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

  describe('statements run prepared, a bounded number of them a session (db/prepared.ts)', () => {
    let single: ReadDb;

    beforeEach(() => {
      single = createReadDb(testDb(), 3000, { poolMax: 1 }); // one session, so that every statement lands on it
    });

    afterEach(async () => {
      await single.destroy();
    });

    /** This session's prepared statements, by text, with how often each was planned generically. */
    const prepared = () =>
      onReadSession(single, 3000, async (read) => {
        const { rows } = await read<{ statement: string; generic_plans: string }>(
          `select statement, generic_plans from pg_prepared_statements where name like 'hedgerow_read_%'`,
          [],
        );
        return new Map(rows.map((row) => [row.statement, Number(row.generic_plans)]));
      });

    it('prepares a recurring statement once, and PostgreSQL then keeps a generic plan for it', async () => {
      const text = 'select n from generate_series(1, 10) as n where n > ?::int order by n limit 3';
      for (let run = 0; run < 8; run += 1) {
        const rows = await onReadSession(single, 3000, async (read) => (await read<{ n: number }>(text, [run])).rows);
        expect(rows.map((row) => row.n)).to.deep.equal([run + 1, run + 2, run + 3]);
      }
      const statements = await prepared();
      const positional = text.replace('?', '$1');
      expect(statements.has(positional)).to.equal(true);
      expect(statements.get(positional)).to.be.greaterThan(0); // the sixth run and later skipped planning
    });

    it('deallocates the least recently used beyond the bound, and prepares it again when it comes back', async () => {
      const text = (index: number) => `select ${index} as n where ?::int = 1`;
      const run = (index: number) => onReadSession(single, 3000, async (read) => (await read<{ n: number }>(text(index), [1])).rows);
      for (let index = 0; index < PREPARED_PER_SESSION + 5; index += 1) {
        expect(await run(index)).to.deep.equal([{ n: index }]);
        expect(await run(0)).to.deep.equal([{ n: 0 }]); // kept recent
      }
      const statements = await prepared();
      expect(statements.size).to.equal(PREPARED_PER_SESSION); // the listing of them is one of them
      expect(statements.has(text(0).replace('?', '$1'))).to.equal(true);
      expect(statements.has(text(1).replace('?', '$1'))).to.equal(false);
      expect(await run(1)).to.deep.equal([{ n: 1 }]);
      expect((await prepared()).has(text(1).replace('?', '$1'))).to.equal(true);
      // … and `pg`'s own memory of the session's statements is bounded alike.
      const session = (await single.client.acquireConnection()) as { connection: { parsedStatements: object } };
      try {
        expect(Object.keys(session.connection.parsedStatements)).to.have.lengthOf(PREPARED_PER_SESSION);
      } finally {
        await single.client.releaseConnection(session);
      }
    });

    it('prepares a statement again when a table it reads has changed its columns since', async () => {
      await testDb().raw('create table hedgerow_prepared_shape (a int)');
      try {
        await testDb().raw('insert into hedgerow_prepared_shape values (1)');
        const read = () =>
          onReadSession(single, 3000, async (r) => (await r('select * from hedgerow_prepared_shape where a = ?::int', [1])).rows);
        expect(await read()).to.deep.equal([{ a: 1 }]);
        await testDb().raw('alter table hedgerow_prepared_shape add column b int default 2');
        expect(await read()).to.deep.equal([{ a: 1, b: 2 }]);
      } finally {
        await testDb().raw('drop table hedgerow_prepared_shape');
      }
    });

    it('reports a statement PostgreSQL cannot prepare, and prepares the next one', async () => {
      const error = await onReadSession(single, 3000, (read) => read('select nonsense from nowhere', [])).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect((error as { code?: string }).code).to.equal('42P01'); // undefined_table
      const rows = await onReadSession(single, 3000, async (read) => (await read<{ one: number }>('select 1 as one', [])).rows);
      expect(rows).to.deep.equal([{ one: 1 }]);
    });
  });
});
