import { expect } from 'chai';
import type { ClientBase } from 'pg';
import { runQuery } from '../../db/pg/query.js';
import { testDb } from '../helpers/database.js';

describe('integration: runQuery (db/pg/query.ts), pg through its callback API', () => {
  let connection: ClientBase;

  before(async () => {
    connection = (await testDb().client.acquireConnection()) as ClientBase;
  });

  after(async () => {
    await testDb().client.releaseConnection(connection);
  });

  it('runs a text with its parameters', async () => {
    const result = await runQuery<{ sum: number; word: string }>(connection, 'select $1::int + 1 as sum, $2::text as word', [41, 'hedgerow']);
    expect(result.rows).to.deep.equal([{ sum: 42, word: 'hedgerow' }]);
  });

  it('runs a named statement from its config, again from the prepared statement', async () => {
    const config = { name: 'hedgerow_pg_query_test', text: 'select $1::text as echoed', values: ['once'] };
    expect((await runQuery(connection, config)).rows).to.deep.equal([{ echoed: 'once' }]);
    expect((await runQuery(connection, { ...config, values: ['twice'] })).rows).to.deep.equal([{ echoed: 'twice' }]);
    await runQuery(connection, `deallocate ${config.name}`);
  });

  it('runs a script of statements in one message, one result each', async () => {
    const results = (await runQuery(connection, 'select 1 as a; select 2 as b')) as unknown as { rows: unknown[] }[];
    expect(results.map((result) => result.rows)).to.deep.equal([[{ a: 1 }], [{ b: 2 }]]);
  });

  it("rejects with PostgreSQL's error, its stack leading back to the caller", async () => {
    async function callerOfTheFailingStatement() {
      const result = await runQuery(connection, 'select 1 / $1::int', [0]);
      return result;
    }
    const error = await callerOfTheFailingStatement().then(
      () => null,
      (thrown: { code?: string; stack?: string }) => thrown,
    );
    expect(error?.code).to.equal('22012'); // division_by_zero
    expect(error?.stack).to.include('callerOfTheFailingStatement');
    // The connection is still usable.
    expect((await runQuery(connection, 'select 1 as one')).rows).to.deep.equal([{ one: 1 }]);
  });
});
