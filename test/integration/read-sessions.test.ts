import { expect } from 'chai';
import { createReadDb, type ReadDb } from '../../db/client.js';
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
});
