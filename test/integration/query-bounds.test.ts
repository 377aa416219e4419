/**
 * What one query may cost (db/queries/query/execute.ts): an answer larger than the byte budget is a 400 that
 * says what to do, whether PostgreSQL or this process finds it larger, and whatever the shape of the result (many
 * rows, one huge row); a read that outlives its deadline is cancelled and answers 504; errors the query's text
 * causes (too many columns, data exceptions) are 400s.
 */
import { expect } from 'chai';
import { ApiError } from '../../db/core/errors.js';
import { createReadDb, type ReadDb } from '../../db/pg/client.js';
import { onReadSession } from '../../db/pg/read-session.js';
import { runCompiledSelect } from '../../db/queries/query/execute.js';
import type { CompiledSelect } from '../../db/hogql/select/index.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { insertEvents } from '../helpers/seed-events.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

const BUDGET_BYTES = 1024 * 1024;
const TOO_LARGE = {
  type: 'validation_error',
  code: 'invalid_input',
  detail: "The query's result is larger than 1 MB, the most one answer may hold. Add a LIMIT or select fewer columns.",
  attr: null,
};
/** 150 events of about 10 kB of properties each: 1.5 MB together, the budget being 1 MB. */
const EVENTS = 150;
const FILLER = 'x'.repeat(10_000);

describe('query: bounded answers and the errors a query causes', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: HttpClient;
  let path: string;

  const hogql = (query: string) => client.post(path, { query: { kind: 'HogQLQuery', query } });

  before(async () => {
    server = await startTestServer({ config: { queryResultMaxBytes: BUDGET_BYTES } });
    const account = await newAccount(testDb(), { scopes: ['query:read'] });
    client = server.http.withKey(account.key);
    path = `/api/environments/${account.environment.id}/query/`;
    await insertEvents(
      testDb(),
      account.environment.id,
      Array.from({ length: EVENTS }, (_, index) => ({
        event: 'big',
        distinct_id: `d${index}`,
        timestamp: new Date(Date.UTC(2024, 0, 1, 0, 0, index)),
        properties: { filler: FILLER, index },
      })),
    );
  });

  after(async () => {
    await server.close();
  });

  it('an answer within the budget is answered whole', async () => {
    const response = await hogql('select properties from events order by timestamp limit 80');
    expect(response.status).to.equal(200);
    const results = (response.body as { results: string[][] }).results;
    expect(results).to.have.length(80);
    expect(JSON.parse(results[79]![0]!)).to.deep.equal({ filler: FILLER, index: 79 });
  });

  it('400 for many rows that together pass the budget', async () => {
    const response = await hogql('select properties from events limit 1000');
    expect([response.status, response.body]).to.deep.equal([400, TOO_LARGE]);
  });

  it('400 for one row larger than the budget (an array of every event)', async () => {
    const response = await hogql('select groupArray(properties) from events');
    expect([response.status, response.body]).to.deep.equal([400, TOO_LARGE]);
  });

  it('400 for an EventsQuery whose events pass the budget', async () => {
    const response = await client.post(path, { query: { kind: 'EventsQuery', select: ['*'], after: 'all', limit: 1000 } });
    expect([response.status, response.body]).to.deep.equal([400, TOO_LARGE]);
  });

  it('400 for a query of 5,000 columns (PostgreSQL returns at most 1,664)', async () => {
    const response = await hogql(`select ${Array.from({ length: 5000 }, () => 'event').join(', ')} from events`);
    expect([response.status, response.body]).to.deep.equal([
      400,
      { type: 'validation_error', code: 'invalid_input', detail: 'The query selects too many columns: at most 1664 can be returned.', attr: null },
    ]);
  });

  it('400 for a value PostgreSQL cannot compute with (a data exception)', async () => {
    // (substring() past PostgreSQL's int is clamped now, as ClickHouse answers it: an integer overflow still is one.)
    const response = await hogql('select 4000000000000000 * 4000000000000000 * (length(event) + 1) from events');
    expect([response.status, response.body]).to.deep.equal([
      400,
      { type: 'validation_error', code: 'invalid_input', detail: 'A number or date in the query is out of range.', attr: null },
    ]);
  });

  describe('at the database layer', () => {
    let reader: ReadDb;

    before(() => {
      reader = createReadDb(testDb(), 10_000, { poolMax: 1 });
    });

    after(async () => {
      await reader.destroy();
    });

    const compiled = (text: string, limit: number): CompiledSelect => ({
      text,
      params: [],
      columns: [{ name: 'n', clickhouseType: 'Int64', type: 'int' }],
      hogql: '',
      limit,
      offset: 0,
      paginated: false,
    });

    it('rows that PostgreSQL sends small but the answer shows large are counted as shown: 400, and the next query runs', async () => {
      // A thousand one-digit rows, each shown as 2 kB: 2 MB of answer from a few kB of rows.
      const query = compiled('select 1 as c0 from generate_series(1, 1000)', 1000);
      const error = await runCompiledSelect(reader, query, { timeoutMs: 10_000, maxResultBytes: BUDGET_BYTES }, () => ['y'.repeat(2000)]).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).to.be.instanceOf(ApiError);
      expect((error as ApiError).toBody()).to.deep.equal(TOO_LARGE);
      const after = await runCompiledSelect(reader, compiled('select 7 as c0', 10), { timeoutMs: 10_000, maxResultBytes: BUDGET_BYTES });
      expect(after).to.deep.equal({ rows: [[7]], more: false });
    });

    it('a row past the page only says that there are more', async () => {
      const query = compiled('select n as c0 from generate_series(1, 4) n', 3);
      expect(await runCompiledSelect(reader, query, { timeoutMs: 10_000, maxResultBytes: BUDGET_BYTES })).to.deep.equal({ rows: [[1], [2], [3]], more: true });
    });

    /** Runs `text` through eachRow on a session of a 1 s deadline, `onRow` taking each row; the error, and the rows taken. */
    const readPastDeadline = async (text: string, onRow: () => void) => {
      const impatient = createReadDb(testDb(), 1_000, { poolMax: 1 });
      try {
        // The session is opened first, so that the deadline is spent on the rows, not on connecting.
        await onReadSession(impatient, 10_000, (read) => read('select 1', []));
        let taken = 0;
        const error = await onReadSession(impatient, 1_000, (read) =>
          read.eachRow(text, [], () => {
            taken += 1;
            onRow();
            return true;
          }),
        ).then(
          () => null,
          (thrown: unknown) => thrown,
        );
        // The pool lends a new session after the one discarded.
        expect(await onReadSession(impatient, 1_000, async (read) => (await read<{ one: number }>('select 1 as one', [])).rows)).to.deep.equal([{ one: 1 }]);
        return { error, taken };
      } finally {
        await impatient.destroy();
      }
    };

    const expectTimeout = (error: unknown) => {
      expect(error).to.be.instanceOf(ApiError);
      expect((error as ApiError).status).to.equal(504);
      expect((error as ApiError).toBody()).to.include({ type: 'server_error', code: 'query_timeout', attr: null });
      expect((error as ApiError).headers).to.not.have.property('Retry-After');
    };

    it('a read whose rows PostgreSQL produces slowly is cancelled at its deadline: 504 (not 503), and the statement is gone', async () => {
      const marker = `slow-rows-${Date.now()}`;
      const { error, taken } = await readPastDeadline(`select g, pg_sleep(0.2), '${marker}' from generate_series(1, 20) g`, () => undefined);
      expectTimeout(error);
      expect(taken).to.be.below(20);
      // The cancel request is sent, not awaited: the statement ends a moment later.
      await waitFor('the slow statement to end', async () => {
        const running = await testDb().raw(`select count(*)::int as n from pg_stat_activity where query like ? and state = 'active' and pid <> pg_backend_pid()`, [`%${marker}%`]);
        return running.rows[0].n === 0;
      }, 5_000);
    });

    it('a read whose rows take long to handle here is stopped at its deadline too: 504', async () => {
      // Each row holds the process for 0.3 s: the deadline passes after a few of the ten, and the rest are never taken.
      const { error, taken } = await readPastDeadline('select g from generate_series(1, 10) g', () => {
        const until = performance.now() + 300;
        while (performance.now() < until);
      });
      expectTimeout(error);
      expect(taken).to.be.within(1, 6);
    });

    const QUERY_ERRORS: { name: string; text: string; detail: string }[] = [
      {
        name: '5,000 columns (54011)',
        text: `select ${Array.from({ length: 5000 }, (_, index) => `${index} as a${index}`).join(', ')}`,
        detail: 'The query selects too many columns: at most 1664 can be returned.',
      },
      { name: 'a value too large for the database (54000)', text: `select repeat('x', 1100000000)`, detail: 'The query exceeds a limit of the database: requested length too large.' },
      { name: 'a negative substring length (22011)', text: `select substring('abc', 1, -1)`, detail: 'A value in the query is not valid: negative substring length not allowed' },
      { name: 'text that is not a number (22P02)', text: `select 'abc'::int`, detail: 'A value in the query is not of the expected type: invalid input syntax for type integer: "abc"' },
      { name: 'a subquery of two rows as a value (21000)', text: 'select (select 1 union all select 2)', detail: 'The query cannot run: more than one row returned by a subquery used as an expression.' },
    ];
    for (const { name, text, detail } of QUERY_ERRORS) {
      it(`400 for ${name}`, async () => {
        const error = await onReadSession(reader, 10_000, (read) => read(text, [], { prepare: false })).then(
          () => null,
          (thrown: unknown) => thrown,
        );
        expect(error).to.be.instanceOf(ApiError);
        expect((error as ApiError).toBody()).to.deep.equal({ type: 'validation_error', code: 'invalid_input', detail, attr: null });
      });
    }
  });
});
