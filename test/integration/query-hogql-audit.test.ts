/**
 * Audit of the grown SELECT compiler (merge a73d1df): results that differ from ClickHouse's. Each case fails today.
 */
import { expect } from 'chai';
import { insertEvents } from '../helpers/seed-events.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const CASES: { name: string; query: string; rows: unknown[][] }[] = [
  // ClickHouse multiplies the rows of several arrayJoin()s; PostgreSQL's set-returning functions are zipped.
  {
    name: 'two arrayJoin() columns give every pair',
    query: "select arrayJoin(splitByChar(',', 'a,b,c')) as a, arrayJoin(splitByChar(',', 'x,y')) as b from events order by a, b",
    rows: [['a', 'x'], ['a', 'y'], ['b', 'x'], ['b', 'y'], ['c', 'x'], ['c', 'y']],
  },
];

describe('query: HogQL SELECT audit (ClickHouse semantics)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: HttpClient;
  let path: string;

  before(async () => {
    server = await startTestServer();
    const db = testDb();
    const account = await newAccount(db, { scopes: ['query:read'] });
    client = server.http.withKey(account.key);
    path = `/api/environments/${account.environment.id}/query/`;
    await insertEvents(db, account.environment.id, [{ event: '$pageview', distinct_id: 'alice', timestamp: '2024-01-15T10:00:00Z', properties: {} }]);
  });

  after(async () => {
    await server.close();
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const response = await client.post(path, { query: { kind: 'HogQLQuery', query: c.query } });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.results).to.deep.equal(c.rows);
    });
  }
});
