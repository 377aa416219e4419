/**
 * GET …/query/draft_sql/ (deterministic drafts from the prompt's words and the project's own event names and
 * property keys: given prompt and data → the exact query, and that it runs) and POST …/query/check_auth_for_async/.
 */
import { expect } from 'chai';
import { insertEvents } from '../helpers/seed-events.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const DRAFTS: { prompt: string; sql: string; rows: unknown[][] }[] = [
  {
    prompt: 'How many pageviews per day in the last 7 days?',
    sql: "SELECT toStartOfDay(timestamp) AS day, count() FROM events WHERE (event = '$pageview') AND (timestamp >= (now() - (INTERVAL 7 day))) GROUP BY day ORDER BY day ASC LIMIT 100",
    rows: [],
  },
  {
    prompt: 'unique users of sign up completed by plan',
    sql: "SELECT properties.plan, uniq(distinct_id) FROM events WHERE event = 'sign up completed' GROUP BY properties.plan ORDER BY uniq(distinct_id) DESC, properties.plan ASC LIMIT 100",
    rows: [['pro', 1]],
  },
  {
    prompt: 'count purchases and pageviews by browser',
    sql: "SELECT properties.$browser, count() FROM events WHERE event IN ('$pageview', 'purchase') GROUP BY properties.$browser ORDER BY count() DESC, properties.$browser ASC LIMIT 100",
    rows: [['Chrome', 2], ['Firefox', 1], [null, 1]],
  },
  {
    prompt: 'show me the sign ups',
    sql: "SELECT event, distinct_id, timestamp FROM events WHERE event = 'sign up' ORDER BY timestamp DESC LIMIT 100",
    rows: [['sign up', 'bob', '2024-01-02T09:00:00.000Z']],
  },
  {
    prompt: 'monthly events',
    sql: 'SELECT toStartOfMonth(timestamp) AS month, count() FROM events GROUP BY month ORDER BY month ASC LIMIT 100',
    rows: [['2024-01-01', 6]],
  },
  {
    prompt: 'purchases per hour today',
    sql: "SELECT toStartOfHour(timestamp) AS hour, count() FROM events WHERE (event = 'purchase') AND (timestamp >= toStartOfDay(now())) GROUP BY hour ORDER BY hour ASC LIMIT 100",
    rows: [],
  },
];

describe('query: draft_sql and check_auth_for_async', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: HttpClient;
  let team: number;
  let draftPath: string;

  before(async () => {
    server = await startTestServer();
    const account = await newAccount(testDb(), { scopes: ['query:read'] });
    team = account.environment.id;
    client = server.http.withKey(account.key);
    draftPath = `/api/environments/${team}/query/draft_sql/`;
    await insertEvents(testDb(), team, [
      { event: '$pageview', distinct_id: 'alice', timestamp: '2024-01-01T10:00:00Z', properties: { $browser: 'Chrome' } },
      { event: '$pageview', distinct_id: 'bob', timestamp: '2024-01-01T11:00:00Z', properties: { $browser: 'Chrome' } },
      { event: '$pageview', distinct_id: 'bob', timestamp: '2024-01-01T12:00:00Z', properties: { $browser: 'Firefox' } },
      { event: 'sign up', distinct_id: 'bob', timestamp: '2024-01-02T09:00:00Z' },
      { event: 'sign up completed', distinct_id: 'bob', timestamp: '2024-01-02T09:01:00Z', properties: { plan: 'pro' } },
      { event: 'purchase', distinct_id: 'carol', timestamp: '2024-01-03T09:00:00Z', properties: { price: 10 } },
    ]);
    const other = await newAccount(testDb(), { scopes: ['query:read'] });
    await insertEvents(testDb(), other.environment.id, [
      { event: 'secret launch', distinct_id: 'mallory', timestamp: '2024-01-01T00:00:00Z', properties: { codename: 'x' } },
    ]);
  });

  after(async () => {
    await server.close();
  });

  const draft = (prompt: string) => client.get(`${draftPath}?${new URLSearchParams({ prompt })}`);

  describe('environments_query_draft_sql_retrieve', () => {
    for (const { prompt, sql, rows } of DRAFTS) {
      it(`"${prompt}" drafts the same query every time, and it runs`, async () => {
        const first = await draft(prompt);
        expect(first.status, JSON.stringify(first.body)).to.equal(200);
        expect(first.body).to.deep.equal({ sql });
        expect((await draft(prompt)).body).to.deep.equal({ sql });
        const ran = await client.post(`/api/environments/${team}/query/`, { query: { kind: 'HogQLQuery', query: sql } });
        expect(ran.status, JSON.stringify(ran.body)).to.equal(200);
        expect((ran.body as { results: unknown[][] }).results).to.deep.equal(rows);
      });
    }

    it("a prompt no rule understands is a 400 'unclear'; another project's names are not understood", async () => {
      for (const prompt of ['hello there', 'secret launch', 'tell me about codename']) {
        const response = await draft(prompt);
        expect(response.status, prompt).to.equal(400);
        expect(response.body).to.deep.equal({
          type: 'validation_error',
          code: 'unclear',
          detail: 'The prompt names no event, property, count, time bucket or period of this project that a query can be drafted from. Please rephrase.',
          attr: 'prompt',
        });
      }
      // Counting is understood; the other project's property is not a breakdown.
      expect((await draft('count by codename')).body).to.deep.equal({ sql: 'SELECT count() FROM events ORDER BY count() DESC LIMIT 100' });
    });

    it('prompt is required and at most 400 characters; current_query is accepted', async () => {
      const missing = await client.get(draftPath);
      expect(missing.status).to.equal(400);
      expect(missing.body).to.deep.equal({ type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'prompt' });
      const long = await draft(`count ${'x'.repeat(395)}`);
      expect(long.status).to.equal(400);
      expect(long.body).to.deep.equal({ type: 'validation_error', code: 'too_long', detail: 'This field is too long.', attr: 'prompt' });
      const withCurrent = await client.get(`${draftPath}?${new URLSearchParams({ prompt: 'monthly events', current_query: 'select 1 from events' })}`);
      expect(withCurrent.body).to.deep.equal({ sql: DRAFTS[4]!.sql });
    });
  });

  describe('environments_query_check_auth_for_async_create', () => {
    it('200 and no body for a key with query:read in its project', async () => {
      const response = await client.post(`/api/environments/${team}/query/check_auth_for_async/`, {});
      expect(response.status).to.equal(200);
      expect(response.text).to.equal('');
    });

    it('403 for a key without query:read, 404 for a project the key cannot see', async () => {
      const account = await newAccount(testDb(), { scopes: ['organization:read'] });
      const noScope = await server.http.withKey(account.key).post(`/api/environments/${account.environment.id}/query/check_auth_for_async/`, {});
      expect(noScope.status).to.equal(403);
      expect(noScope.body).to.deep.equal({
        type: 'authentication_error',
        code: 'permission_denied',
        detail: "API key missing required scope 'query:read'",
        attr: null,
      });
      const elsewhere = await client.post(`/api/environments/${account.environment.id}/query/check_auth_for_async/`, {});
      expect(elsewhere.status).to.equal(404);
    });
  });
});
