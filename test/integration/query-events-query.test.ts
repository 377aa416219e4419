/**
 * POST …/query/ and …/query/<Kind>/ with EventsQuery: a fixed data set in one environment (and a second one whose
 * rows must never appear), a table of nodes and the rows they must answer, the exact response of one, the time
 * window's defaults, pagination, and the request's validation (kind mismatch, unknown kinds and fields).
 */
import { expect } from 'chai';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ALICE = '0190a3f2-5b6c-7d8e-9f01-000000000001';
const BOB = '0190a3f2-5b6c-7d8e-9f01-000000000002';
const FIRST_UUID = '0190a3f2-0000-7000-8000-000000000001';

const EVENTS: NewEvent[] = [
  {
    uuid: FIRST_UUID,
    event: '$pageview',
    distinct_id: 'alice',
    timestamp: '2024-01-01T10:00:00Z',
    properties: { $browser: 'Chrome', price: 10 },
    elements_chain: 'a:href="/x"',
  },
  { event: '$pageview', distinct_id: 'alice2', timestamp: '2024-01-02T11:00:00Z', properties: { $browser: 'Firefox', price: 20 } },
  { event: '$pageview', distinct_id: 'bob', timestamp: '2024-01-03T12:30:00Z', properties: { $browser: 'Chrome', price: 30 } },
  { event: 'signup', distinct_id: 'bob', timestamp: '2024-01-06T09:00:00Z', properties: { plan: 'free', price: 5 } },
  { event: 'purchase', distinct_id: 'carol', timestamp: '2024-01-07T23:59:59Z', properties: { price: 100 } },
];

/** The whole data set's window. */
const WINDOW = { after: '2024-01-01', before: '2024-01-08' };

interface Case {
  name: string;
  query: Record<string, unknown>;
  rows: unknown[][];
  columns?: string[];
  types?: string[];
}

const CASES: Case[] = [
  {
    name: 'plain columns: timestamp selected → newest first',
    query: { select: ['event', 'distinct_id', 'timestamp'] },
    rows: [
      ['purchase', 'carol', '2024-01-07T23:59:59.000Z'],
      ['signup', 'bob', '2024-01-06T09:00:00.000Z'],
      ['$pageview', 'bob', '2024-01-03T12:30:00.000Z'],
      ['$pageview', 'alice2', '2024-01-02T11:00:00.000Z'],
      ['$pageview', 'alice', '2024-01-01T10:00:00.000Z'],
    ],
    types: ['String', 'String', "DateTime64(6, 'UTC')"],
  },
  {
    name: 'no timestamp, no aggregate → the first column ascending',
    query: { select: ['distinct_id'], event: '$pageview' },
    rows: [['alice'], ['alice2'], ['bob']],
  },
  {
    name: 'an aggregate groups by the other columns; count() descending first',
    query: { select: ['event', 'count()'] },
    rows: [['$pageview', 3], ['purchase', 1], ['signup', 1]].sort((a, b) => (b[1] as number) - (a[1] as number)),
    columns: ['event', 'count()'],
    types: ['String', 'Int64'],
  },
  {
    name: 'without count(), the first aggregate descending',
    query: { select: ['distinct_id', 'sum(properties.price) as total'] },
    rows: [['carol', 100], ['bob', 35], ['alice2', 20], ['alice', 10]],
    columns: ['distinct_id', 'total'],
  },
  {
    name: 'where: an aggregate goes to HAVING, the rest to WHERE',
    query: { select: ['distinct_id', 'count()'], where: ['count() > 1', "event != 'purchase'"] },
    rows: [['bob', 2]],
  },
  {
    name: 'orderBy with a direction',
    query: { select: ['distinct_id'], orderBy: ['properties.price DESC'], where: ['properties.price > 15'] },
    rows: [['carol'], ['bob'], ['alice2']],
  },
  {
    name: 'events: any of the names',
    query: { select: ['event'], events: ['signup', 'purchase'], orderBy: ['event'] },
    rows: [['purchase'], ['signup']],
  },
  {
    name: 'properties: the listing filter format',
    query: { select: ['distinct_id'], properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }], orderBy: ['timestamp'] },
    rows: [['alice'], ['bob']],
  },
  {
    name: 'properties: a person filter joins the person',
    query: { select: ['distinct_id'], properties: [{ key: 'email', value: 'a@example.com', type: 'person' }], orderBy: ['timestamp'] },
    rows: [['alice'], ['alice2']],
  },
  {
    name: 'personId: every distinct id of that person',
    query: { select: ['distinct_id', 'event'], personId: ALICE, orderBy: ['timestamp'] },
    rows: [['alice', '$pageview'], ['alice2', '$pageview']],
  },
  {
    name: 'person: the person as an object, or only its distinct id',
    query: { select: ['person'], events: ['purchase', 'signup'] },
    rows: [[{ uuid: BOB, created_at: '2023-12-01T08:00:00.123456Z', properties: { email: 'b@example.com' }, distinct_id: 'bob' }], [{ distinct_id: 'carol' }]],
  },
  {
    name: '-- comment suffixes: ignored, and echoed in columns; -- inside quotes is text',
    query: { select: ["concat(event, '--x') -- labelled", 'count() -- how many'], event: 'signup' },
    rows: [['signup--x', 1]],
    columns: ["concat(event, '--x') -- labelled", 'count() -- how many'],
  },
  {
    name: 'comments anywhere in select, where and orderBy are white space; a select entry is echoed as written',
    query: {
      select: ['distinct_id /* who */', 'sum(properties.price) -- spent\n', "'/*' AS `--`"],
      where: ["event = '$pageview' -- views\nOR event = 'signup'", 'properties.price /* the price */ >= 10 // or more'],
      orderBy: ['sum(properties.price) DESC -- the biggest spender first'],
    },
    rows: [['bob', 30, '/*'], ['alice2', 20, '/*'], ['alice', 10, '/*']],
    columns: ['distinct_id /* who */', 'sum(properties.price) -- spent\n', '--'],
  },
  {
    name: 'the window: after and before are exclusive',
    query: { select: ['event'], after: '2024-01-06T09:00:00Z', before: '2024-01-07T23:59:59Z' },
    rows: [],
  },
  {
    name: 'the window: a date without a time is midnight in the timezone',
    query: { select: ['event'], after: '2024-01-06', before: '2024-01-07' },
    rows: [['signup']],
  },
];

describe('query: EventsQuery', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: HttpClient;
  let team: number;
  let path: string;

  before(async () => {
    server = await startTestServer();
    const account = await newAccount(testDb(), { scopes: ['query:read'] });
    team = account.environment.id;
    client = server.http.withKey(account.key);
    path = `/api/environments/${team}/query/`;
    await insertPerson(testDb(), team, { distinctIds: ['alice', 'alice2'], properties: { email: 'a@example.com' }, uuid: ALICE });
    await insertPerson(testDb(), team, { distinctIds: ['bob'], properties: { email: 'b@example.com' }, uuid: BOB });
    await insertEvents(testDb(), team, EVENTS);
    // Fixed, so that the answers showing them are known.
    await testDb()('persons').where({ uuid: BOB }).update({ created_at: '2023-12-01T08:00:00.123456Z' });
    await testDb()('events').where({ uuid: FIRST_UUID }).update({ inserted_at: '2024-01-01T10:00:01.5Z' });

    const other = await newAccount(testDb(), { scopes: ['query:read'] });
    await insertPerson(testDb(), other.environment.id, { distinctIds: ['carol'], properties: { email: 'evil@example.com' } });
    await insertEvents(testDb(), other.environment.id, [
      { event: 'secret', distinct_id: 'mallory', timestamp: '2024-01-02T00:00:00Z', properties: { $browser: 'Chrome' } },
      { event: 'purchase', distinct_id: 'carol', timestamp: '2024-01-03T00:00:00Z', properties: { price: 1 } },
    ]);
  });

  after(async () => {
    await server.close();
  });

  const run = (query: Record<string, unknown>, at?: string) => client.post(at ?? path, { query: { kind: 'EventsQuery', ...query } });

  for (const testCase of CASES) {
    it(testCase.name, async () => {
      const response = await run({ ...WINDOW, ...testCase.query });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const body = response.body as { results: unknown[][]; columns: string[]; types: string[] };
      expect(body.results).to.deep.equal(testCase.rows);
      if (testCase.columns) expect(body.columns).to.deep.equal(testCase.columns);
      if (testCase.types) expect(body.types).to.deep.equal(testCase.types);
    });
  }

  it('answers the whole response: columns as sent, types as strings, the HogQL that ran, the page', async () => {
    const response = await run({ select: ['event', 'count()  as n'], where: ["properties.$browser = 'Chrome'"], ...WINDOW });
    expect(response.status).to.equal(200);
    const body = response.body as Record<string, unknown>;
    expect((body.timings as { k: string }[]).map((timing) => timing.k)).to.deep.equal(['./compile', './execute', '.']);
    expect({ ...body, timings: null }).to.deep.equal({
      results: [['$pageview', 2]],
      columns: ['event', 'n'],
      types: ['String', 'Int64'],
      hogql:
        "SELECT event, count() AS n FROM events WHERE (properties.$browser = 'Chrome') AND (timestamp > '2024-01-01') AND (timestamp < '2024-01-08') GROUP BY event ORDER BY count() DESC LIMIT 100",
      timings: null,
      hasMore: false,
      limit: 100,
      offset: 0,
      query_status: null,
    });
  });

  it('* comes back as the event, with its properties as an object', async () => {
    const response = await run({ select: ['*', 'event'], where: [`uuid = '${FIRST_UUID}'`], ...WINDOW });
    expect(response.status).to.equal(200);
    const body = response.body as { results: [Record<string, unknown>, string][]; types: string[] };
    expect(body.results).to.deep.equal([
      [
        {
          uuid: FIRST_UUID,
          event: '$pageview',
          properties: { $browser: 'Chrome', price: 10 },
          timestamp: '2024-01-01T10:00:00.000Z',
          team_id: team,
          distinct_id: 'alice',
          elements_chain: 'a:href="/x"',
          created_at: '2024-01-01T10:00:01.500Z',
        },
        '$pageview',
      ],
    ]);
    expect(body.types).to.deep.equal(["Tuple(UUID, String, String, DateTime64(6, 'UTC'), String, String, DateTime64(6, 'UTC'))", 'String']);
  });

  it("never sees another environment's rows", async () => {
    const response = await run({ select: ['event', 'distinct_id'], after: 'all', orderBy: ['timestamp'], properties: [{ key: '$browser', value: 'Chrome' }] });
    expect(response.status).to.equal(200);
    expect((response.body as { results: unknown[][] }).results).to.deep.equal([
      ['$pageview', 'alice'],
      ['$pageview', 'bob'],
    ]);
    const carol = await run({ select: ['count()'], after: 'all', where: ["distinct_id = 'carol'"] });
    expect((carol.body as { results: unknown[][] }).results).to.deep.equal([[1]]);
  });

  it('pages: limit, offset and hasMore', async () => {
    const pages: unknown[] = [];
    for (const offset of [0, 2, 4]) {
      const response = await run({ select: ['distinct_id'], orderBy: ['timestamp'], limit: 2, offset, ...WINDOW });
      expect(response.status).to.equal(200);
      const body = response.body as { results: unknown[][]; hasMore: boolean; limit: number; offset: number };
      pages.push({ results: body.results, hasMore: body.hasMore, limit: body.limit, offset: body.offset });
    }
    expect(pages).to.deep.equal([
      { results: [['alice'], ['alice2']], hasMore: true, limit: 2, offset: 0 },
      { results: [['bob'], ['bob']], hasMore: true, limit: 2, offset: 2 },
      { results: [['carol']], hasMore: false, limit: 2, offset: 4 },
    ]);
    const zero = await run({ select: ['distinct_id'], limit: 0, ...WINDOW });
    expect(zero.body).to.include({ limit: 100, hasMore: false });
    const huge = await run({ select: ['distinct_id'], limit: 60_000, ...WINDOW });
    expect(huge.body).to.include({ limit: 50_000, hasMore: false });
  });

  it('`*` and `person` keep the digits of integers past 2^53 in their properties', async () => {
    const account = await newAccount(testDb(), { scopes: ['query:read'] });
    const environment = account.environment.id;
    await insertPerson(testDb(), environment, { distinctIds: ['big'] });
    const [uuid] = await insertEvents(testDb(), environment, [{ event: 'order', distinct_id: 'big', timestamp: '2024-01-01T00:00:00Z' }]);
    // Written as SQL text: capture stores them so, JavaScript numbers cannot.
    await testDb().raw(`update events set properties = '{"order_id": 1234567890123456789}' where uuid = ?`, [uuid!]);
    await testDb().raw(`update persons set properties = '{"name": 12345678901234567891}' where team_id = ?`, [environment]);
    // The answer's text, straight from the server (a proxy in between could parse and round it).
    const response = await fetch(new URL(`/api/environments/${environment}/query/`, server.directUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: { kind: 'EventsQuery', select: ['*', 'person'], after: 'all' } }),
    });
    expect(response.status).to.equal(200);
    const text = await response.text();
    expect(text).to.include('"order_id":1234567890123456789').and.include('"name":12345678901234567891');
  });

  describe('the time window defaults', () => {
    let recent: HttpClient;
    let recentPath: string;

    before(async () => {
      const account = await newAccount(testDb(), { scopes: ['query:read'] });
      recent = server.http.withKey(account.key);
      recentPath = `/api/environments/${account.environment.id}/query/`;
      const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
      await insertEvents(testDb(), account.environment.id, [
        { event: 'an hour ago', distinct_id: 'd', timestamp: hoursAgo(1) },
        { event: 'a day and an hour ago', distinct_id: 'd', timestamp: hoursAgo(25) },
        { event: 'three days ago', distinct_id: 'd', timestamp: hoursAgo(72) },
        { event: 'in a minute', distinct_id: 'd', timestamp: hoursAgo(-1 / 60) },
      ]);
    });

    const events = async (query: Record<string, unknown>) => {
      const response = await recent.post(recentPath, { query: { kind: 'EventsQuery', select: ['event'], orderBy: ['timestamp'], ...query } });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      return (response.body as { results: string[][] }).results.map((row) => row[0]);
    };

    it('after defaults to -24h and before to a few seconds from now', async () => {
      expect(await events({})).to.deep.equal(['an hour ago']);
    });

    it('a relative after, and "all"', async () => {
      expect(await events({ after: '-2d' })).to.deep.equal(['a day and an hour ago', 'an hour ago']);
      expect(await events({ after: 'all' })).to.deep.equal(['three days ago', 'a day and an hour ago', 'an hour ago']);
      expect(await events({ after: 'all', before: '-2h' })).to.deep.equal(['three days ago', 'a day and an hour ago']);
    });

    it('a bound that is not a date is a 400', async () => {
      const response = await recent.post(recentPath, { query: { kind: 'EventsQuery', select: ['event'], after: 'yesterday-ish' } });
      expect(response.status).to.equal(400);
      expect(response.body).to.deep.equal({
        type: 'validation_error',
        code: 'invalid_input',
        detail: '"yesterday-ish" is not a date: write an ISO 8601 date or time, a relative one such as -7d, or "all" (after only).',
        attr: 'query__after',
      });
    });
  });

  describe('the request', () => {
    describe('environments_query_with_kind_create', () => {
      it('POST …/query/EventsQuery/ answers as POST …/query/', async () => {
        const query = { kind: 'EventsQuery', select: ['event', 'count()'], ...WINDOW };
        const plain = await client.post(path, { query });
        const response = await client.post(`${path}EventsQuery/`, { query });
        expect(response.status).to.equal(200);
        expect((response.body as { results: unknown }).results).to.deep.equal((plain.body as { results: unknown }).results);
      });

      it('a path kind other than the body kind is a 400', async () => {
        const response = await client.post(`${path}HogQLQuery/`, { query: { kind: 'EventsQuery', select: ['event'] } });
        expect(response.status).to.equal(400);
        expect(response.body).to.deep.equal({
          type: 'validation_error',
          code: 'invalid_input',
          detail: 'Query kind mismatch: path kind "HogQLQuery" does not match body kind "EventsQuery".',
          attr: null,
        });
      });

      it('a path kind that is not a kind name is a 400', async () => {
        const response = await client.post(`${path}events_query/`, { query: { kind: 'EventsQuery', select: ['event'] } });
        expect(response.status).to.equal(400);
        expect(response.body).to.deep.equal({ type: 'validation_error', code: 'invalid_input', detail: 'id must match pattern "^[A-Z][A-Za-z]*$".', attr: 'id' });
      });
    });

    describe('query_with_kind_create', () => {
      it('the /api/projects/ twin answers the same, for an EventsQuery and a HogQLQuery', async () => {
        const query = { kind: 'EventsQuery', select: ['event', 'count()'], ...WINDOW };
        const plain = await client.post(path, { query });
        const projects = await client.post(`/api/projects/${team}/query/EventsQuery/`, { query });
        expect(projects.status).to.equal(200);
        expect((projects.body as { results: unknown }).results).to.deep.equal((plain.body as { results: unknown }).results);
        const hogql = await client.post(`/api/projects/${team}/query/HogQLQuery/`, { query: { kind: 'HogQLQuery', query: 'select count() from events' } });
        expect(hogql.status).to.equal(200);
        expect((hogql.body as { results: unknown }).results).to.deep.equal([[5]]);
      });
    });

    it('a kind that does not run is a 400 naming the kinds that do', async () => {
      const response = await client.post(path, { query: { kind: 'TrendsQuery', series: [] } });
      expect(response.status).to.equal(400);
      expect(response.body).to.deep.equal({
        type: 'validation_error',
        code: 'invalid_choice',
        detail: '"TrendsQuery" is not a supported kind. Supported: HogQLQuery, EventsQuery.',
        attr: 'query__kind',
      });
      const missing = await client.post(path, { query: { select: ['event'] } });
      expect(missing.body).to.deep.equal({ type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'query__kind' });
    });

    it('unknown fields are a 400 naming them, at the top and in the node', async () => {
      const top = await client.post(path, { query: { kind: 'EventsQuery', select: ['event'] }, refresh_everything: true });
      expect(top.body).to.deep.equal({ type: 'validation_error', code: 'unknown_field', detail: 'Unknown field "refresh_everything".', attr: 'refresh_everything' });
      const node = await client.post(path, { query: { kind: 'EventsQuery', select: ['event'], fixedProperties: [] } });
      expect(node.body).to.deep.equal({ type: 'validation_error', code: 'unknown_field', detail: 'Unknown field "fixedProperties".', attr: 'query__fixedProperties' });
    });

    it('a query that is not an object is a 400 naming it, on …/query/ and on …/query/<Kind>/', async () => {
      for (const query of [null, 'select 1', [], 5, true]) {
        for (const target of [path, `/api/environments/${team}/query/HogQLQuery/`]) {
          const response = await client.post(target, { query });
          expect(response.body, `${JSON.stringify(query)} to ${target}`).to.deep.equal({
            type: 'validation_error',
            code: 'invalid_input',
            detail: 'Expected a dictionary of items.',
            attr: 'query',
          });
        }
      }
    });

    it("PostHog's other QueryRequest fields are accepted", async () => {
      const response = await client.post(path, {
        query: { kind: 'EventsQuery', select: ['count()'], ...WINDOW },
        client_query_id: 'abc',
        refresh: 'force_blocking',
        async: false,
        filters_override: null,
        variables_override: {},
        name: 'a name',
        limit_context: 'posthog_ai',
      });
      expect(response.status).to.equal(200);
      expect((response.body as { results: unknown }).results).to.deep.equal([[5]]);
      const refused = await client.post(path, { query: { kind: 'EventsQuery', select: ['count()'] }, limit_context: 'export' });
      expect(refused.body).to.deep.equal({ type: 'validation_error', code: 'invalid_choice', detail: '"export" is not a valid choice.', attr: 'limit_context' });
    });

    it('a select entry that does not parse is a 400 naming it', async () => {
      const response = await run({ select: ['event', 'count(('] });
      expect(response.status).to.equal(400);
      expect(response.body).to.include({ type: 'validation_error', code: 'invalid_input', attr: 'query__select__1' });
    });

    it('* and person followed by a comment are still the event and the person', async () => {
      const response = await run({ select: ['* /* the event */', 'person -- who'], event: 'purchase', ...WINDOW });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      const body = response.body as { results: [Record<string, unknown>, unknown][]; columns: string[] };
      expect(body.columns).to.deep.equal(['* /* the event */', 'person -- who']);
      expect(body.results).to.have.length(1);
      expect(body.results[0]![0]).to.include({ event: 'purchase', distinct_id: 'carol' });
      expect(body.results[0]![1]).to.deep.equal({ distinct_id: 'carol' });
    });

    it('an unterminated comment is a 400 naming the entry', async () => {
      const response = await run({ select: ['event', 'count() /* never closed'] });
      expect(response.body).to.deep.equal({
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'Unterminated comment starting at position 9.',
        attr: 'query__select__1',
      });
      const order = await run({ select: ['event'], orderBy: ['event /* DESC'] });
      expect(order.body).to.deep.equal({ type: 'validation_error', code: 'invalid_input', detail: 'Unterminated comment starting at position 7.', attr: 'query__orderBy__0' });
    });

    it('an alias that would change what the window filters is a 400', async () => {
      const response = await run({ select: ['event as timestamp'] });
      expect(response.body).to.deep.equal({
        type: 'validation_error',
        code: 'invalid_input',
        detail: 'The alias "timestamp" is the name of a field that the query filters on; choose another.',
        attr: 'query__select__0',
      });
    });

    it('a where entry naming an unknown field is a 400', async () => {
      const response = await run({ select: ['event'], where: ['team_id = 1'] });
      expect(response.status).to.equal(400);
      expect(response.body).to.deep.equal({ type: 'validation_error', code: 'invalid_input', detail: 'Unknown field "team_id".', attr: null });
    });
  });
});
