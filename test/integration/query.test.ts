/**
 * POST /api/environments/{id}/query/ with HogQLQuery: a fixed data set in one environment (and a second
 * environment whose rows must never appear), a table of queries and the rows they must answer, the exact
 * response of one, the 400s with their messages, and the row limits.
 */
import { expect } from 'chai';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const EVENTS: NewEvent[] = [
  {
    event: '$pageview',
    distinct_id: 'alice',
    timestamp: '2024-01-01T10:00:00Z',
    properties: { $browser: 'Chrome', price: 10, $session_id: 's1', $current_url: 'https://x.test/a' },
  },
  {
    event: '$pageview',
    distinct_id: 'alice2',
    timestamp: '2024-01-02T11:00:00Z',
    properties: { $browser: 'Firefox', price: 20, $session_id: 's1', $current_url: 'https://x.test/b' },
  },
  {
    event: '$pageview',
    distinct_id: 'bob',
    timestamp: '2024-01-03T12:30:00Z',
    properties: { $browser: 'Chrome', price: 30, $session_id: 's2', $current_url: 'https://x.test/c' },
  },
  // A Saturday.
  { event: 'signup', distinct_id: 'bob', timestamp: '2024-01-06T09:00:00Z', properties: { plan: 'free', price: 5, $session_id: 's2' } },
  { event: 'purchase', distinct_id: 'carol', timestamp: '2024-01-07T23:59:59Z', properties: { price: 100, path: '/a/b' } },
];

interface Case {
  name: string;
  query: string;
  values?: Record<string, unknown>;
  rows: unknown[][];
}

const CASES: Case[] = [
  {
    name: 'GROUP BY with an aliased aggregate, ORDER BY the alias',
    query: 'select event, count() as c from events group by event order by c desc, event',
    rows: [['$pageview', 3], ['purchase', 1], ['signup', 1]],
  },
  {
    name: 'WHERE with a placeholder',
    query: 'select distinct_id from events where event = {ev} order by timestamp',
    values: { ev: '$pageview' },
    rows: [['alice'], ['alice2'], ['bob']],
  },
  {
    name: 'a placeholder value is a constant, never query text',
    query: 'select count() from events where event = {ev}',
    values: { ev: "$pageview' or 1=1 --" },
    rows: [[0]],
  },
  {
    name: 'DISTINCT over a property, shown as text',
    query: 'select distinct properties.$browser from events where properties.$browser is not null order by properties.$browser',
    rows: [['Chrome'], ['Firefox']],
  },
  {
    name: 'numbers in properties are shown as text, as PostHog',
    query: "select properties.price from events where event = 'signup'",
    rows: [['5']],
  },
  {
    name: 'HAVING',
    query: 'select distinct_id, count() from events group by distinct_id having count() > 1',
    rows: [['bob', 2]],
  },
  {
    name: 'LIMIT and OFFSET',
    query: 'select distinct_id from events order by timestamp limit 2 offset 1',
    rows: [['alice2'], ['bob']],
  },
  {
    name: 'ClickHouse LIMIT offset, count',
    query: 'select distinct_id from events order by timestamp desc limit 1, 1',
    rows: [['bob']],
  },
  {
    name: 'a table alias',
    query: "select e.event from events as e where e.distinct_id = 'carol'",
    rows: [['purchase']],
  },
  {
    name: 'the implicit person join: person.properties, grouped, missing persons last',
    query: 'select person.properties.email as email, count() from events group by email order by email',
    rows: [['a@example.com', 2], ['b@example.com', 2], [null, 1]],
  },
  {
    name: 'person_id and person.id of an event without a person',
    query: 'select count() from events where person_id is null and person.id is null',
    rows: [[1]],
  },
  {
    name: 'FROM persons',
    query: 'select properties.email, is_identified from persons order by properties.email',
    rows: [['a@example.com', true], ['b@example.com', false]],
  },
  {
    name: 'toYear, toMonth, toDayOfWeek (Monday is 1), toHour',
    query: "select toYear(timestamp), toMonth(timestamp), toDayOfWeek(timestamp), toHour(timestamp) from events where event = 'signup'",
    rows: [[2024, 1, 6, 9]],
  },
  {
    name: 'uniqExact, countDistinct, sum, median, quantile(p)(x)',
    query: 'select uniqExact(distinct_id), countDistinct(event), sum(properties.price), median(properties.price), quantile(0.5)(properties.price) from events',
    rows: [[4, 3, 165, 20, 20]],
  },
  {
    name: 'argMax and argMin',
    query: 'select argMax(event, timestamp), argMin(distinct_id, timestamp) from events',
    rows: [['purchase', 'alice']],
  },
  {
    name: 'groupArray and any',
    query: "select groupArray(event), any(distinct_id) from events where event = 'signup'",
    rows: [[['signup'], 'bob']],
  },
  {
    name: 'startsWith, endsWith, position, replaceAll, splitByChar',
    query:
      "select startsWith(properties.path, '/a'), endsWith(properties.path, '/b'), position(properties.path, 'b'), replaceAll(properties.path, '/', '-'), splitByChar('/', properties.path) from events where event = 'purchase'",
    rows: [[true, true, 4, '-a-b', ['', 'a', 'b']]],
  },
  {
    name: 'dateTrunc and dateAdd',
    query: "select dateTrunc('day', timestamp), dateAdd('day', 1, timestamp), dateSub('hour', 9, timestamp) from events where event = 'signup'",
    rows: [['2024-01-06T00:00:00.000Z', '2024-01-07T09:00:00.000Z', '2024-01-06T00:00:00.000Z']],
  },
  {
    name: 'round, floor, abs',
    query: "select round(2.345, 2), floor(properties.price / 3), abs(0 - properties.price) from events where event = 'signup'",
    rows: [[2.35, 1, 5]],
  },
  {
    name: 'a subquery in FROM',
    query: 'select count() from (select distinct distinct_id from events)',
    rows: [[4]],
  },
  {
    name: 'a subquery in FROM with an alias, filtered on its aggregate column',
    query: 'select s.event, s.c from (select event, count() as c from events group by event) as s where s.c > 1',
    rows: [['$pageview', 3]],
  },
  {
    name: 'IN (SELECT …)',
    query: "select distinct_id, event from events where distinct_id in (select distinct_id from events where event = 'signup') order by timestamp",
    rows: [['bob', '$pageview'], ['bob', 'signup']],
  },
  {
    name: 'NOT IN (SELECT …)',
    query: "select distinct_id from events where distinct_id not in (select distinct_id from events where event = '$pageview')",
    rows: [['carol']],
  },
  {
    name: 'WITH',
    query: "with buyers as (select distinct_id from events where event = 'purchase') select count(), any(distinct_id) from buyers",
    rows: [[1, 'carol']],
  },
  {
    name: 'UNION ALL whose first part selects null: the column takes the other parts’ type',
    query: "select null, 1 from events where event = 'signup' union all select event, 2 from events where event = 'purchase'",
    rows: [[null, 1], ['purchase', 2]],
  },
  {
    name: 'UNION ALL, each part with its own ORDER BY and LIMIT',
    query: "select event from events where event = 'signup' union all select distinct_id from events order by timestamp desc limit 2",
    rows: [['signup'], ['carol'], ['bob']],
  },
  {
    name: "another environment's rows never appear through a subquery, a WITH query or a UNION ALL",
    query:
      "with mine as (select distinct_id from events) select count() from (select distinct_id from mine union all select distinct_id from events where event = 'secret') where distinct_id in (select distinct_id from events where distinct_id = 'mallory') or distinct_id = 'mallory'",
    rows: [[0]],
  },
  {
    name: "IN (SELECT …) across tables, within the environment (the other environment's person of carol is not counted)",
    query: 'select count() from persons where id in (select person_id from events)',
    rows: [[2]],
  },
  {
    name: 'JOIN of events and persons on the person',
    query:
      "select e.distinct_id, p.properties.email from events e join persons as p on e.person_id = p.id where e.event = '$pageview' order by e.timestamp",
    rows: [['alice', 'a@example.com'], ['alice2', 'a@example.com'], ['bob', 'b@example.com']],
  },
  {
    name: 'LEFT JOIN of a subquery, grouped',
    query:
      'select e.event, count(), max(s.n) from events e left join (select distinct_id, count() as n from events group by distinct_id) as s on s.distinct_id = e.distinct_id group by e.event order by e.event',
    rows: [['$pageview', 3, 2], ['purchase', 1, 1], ['signup', 1, 2]],
  },
  {
    // No person joins: ClickHouse (join_use_nulls off, as in PostHog) gives the missing id its default, zeros.
    name: "JOIN within the environment only (the other environment's person of carol does not join)",
    query: "select count() from events e left join persons p on e.person_id = p.id where e.distinct_id = 'carol' and p.id = toUUID('00000000-0000-0000-0000-000000000000')",
    rows: [[1]],
  },
  {
    name: "FROM sessions (the other environment's event of session s1 is not in it)",
    query:
      'select session_id, distinct_id, $start_timestamp, $session_duration, $entry_current_url, $end_current_url, $pageview_count from sessions order by session_id',
    rows: [
      // The session's distinct id is its latest event's, as in PostHog (argMax).
      ['s1', 'alice2', '2024-01-01T10:00:00.000Z', 90_000, 'https://x.test/a', 'https://x.test/b', 2],
      ['s2', 'bob', '2024-01-03T12:30:00.000Z', 246_600, 'https://x.test/c', 'https://x.test/c', 1],
    ],
  },
  {
    name: 'JOIN of events and sessions on $session_id',
    query: "select e.event, s.$session_duration from events e join sessions s on e.$session_id = s.session_id where e.event = 'signup'",
    rows: [['signup', 246_600]],
  },
  {
    name: "another environment's rows never appear (its person of carol is not carol's person here)",
    query: "select count(), countIf(distinct_id = 'mallory'), any(person.properties.email) from events where distinct_id in ('carol', 'mallory')",
    rows: [[1, 0, null]],
  },
];

describe('query: POST …/query/ with HogQLQuery', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: HttpClient;
  let path: string;
  let projectsPath: string;
  let key: string;

  before(async () => {
    server = await startTestServer();
    const account = await newAccount(testDb(), { scopes: ['query:read'] });
    const team = account.environment.id;
    key = account.key;
    client = server.http.withKey(account.key);
    path = `/api/environments/${team}/query/`;
    projectsPath = `/api/projects/${team}/query/`;
    await insertPerson(testDb(), team, { distinctIds: ['alice', 'alice2'], properties: { email: 'a@example.com' }, isIdentified: true });
    await insertPerson(testDb(), team, { distinctIds: ['bob'], properties: { email: 'b@example.com' } });
    await insertEvents(testDb(), team, EVENTS);

    const other = await newAccount(testDb(), { scopes: ['query:read'] });
    await insertPerson(testDb(), other.environment.id, { distinctIds: ['carol', 'mallory'], properties: { email: 'evil@example.com' } });
    await insertEvents(testDb(), other.environment.id, [
      { event: 'secret', distinct_id: 'mallory', timestamp: '2024-01-01T00:00:00Z' },
      { event: 'purchase', distinct_id: 'carol', timestamp: '2024-01-01T00:00:00Z' },
      { event: '$pageview', distinct_id: 'mallory', timestamp: '2024-01-09T00:00:00Z', properties: { $session_id: 's1', $current_url: 'https://evil.test/' } },
    ]);
  });

  after(async () => {
    await server.close();
  });

  const run = (query: string, values?: Record<string, unknown>, at = path) =>
    client.post(at, { query: { kind: 'HogQLQuery', query, ...(values ? { values } : {}) } });

  describe('environments_query_create', () => {
    for (const c of CASES) {
      it(c.name, async () => {
        const response = await run(c.query, c.values);
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        expect(response.body.results).to.deep.equal(c.rows);
      });
    }

    it('answers results, columns, types, hogql, the page fields and a null query_status', async () => {
      const query = 'select event, count() as total, min(timestamp), person.properties.email from events where event = {ev} group by event, person.properties.email order by person.properties.email';
      const response = await run(query, { ev: 'signup' });
      expect(response.status).to.equal(200);
      const { timings, ...body } = response.body;
      expect(body).to.deep.equal({
        results: [['signup', 1, '2024-01-06T09:00:00.000Z', 'b@example.com']],
        columns: ['event', 'total', 'min(timestamp)', 'person.properties.email'],
        types: [
          ['event', 'String'],
          ['total', 'Int64'],
          ['min(timestamp)', "Nullable(DateTime64(6, 'UTC'))"],
          ['person.properties.email', 'Nullable(String)'],
        ],
        query,
        hogql:
          "SELECT event, count() AS total, min(timestamp), person.properties.email FROM events WHERE event = 'signup' GROUP BY event, person.properties.email ORDER BY person.properties.email ASC LIMIT 100",
        hasMore: false,
        limit: 100,
        offset: 0,
        query_status: null,
      });
      expect(timings.map((timing: { k: string }) => timing.k)).to.deep.equal(['./compile', './execute', '.']);
    });

    it('SELECT * lists the fields of the table', async () => {
      const response = await run("select * from persons where properties.email = 'b@example.com'");
      expect(response.status).to.equal(200);
      expect(response.body.columns).to.deep.equal(['id', 'created_at', 'properties', 'is_identified']);
      expect(response.body.types.map((pair: string[]) => pair[1])).to.deep.equal(['UUID', "DateTime64(6, 'UTC')", 'String', 'Bool']);
      const [[, , properties, identified]] = response.body.results;
      expect(JSON.parse(properties)).to.deep.equal({ email: 'b@example.com' });
      expect(identified).to.equal(false);
    });

    it('a refresh mode that computes now answers synchronously (asynchronous runs: query-async.test.ts)', async () => {
      const response = await client.post(path, { query: { kind: 'HogQLQuery', query: 'select 1 from events limit 1' }, async: false, refresh: 'force_blocking', client_query_id: 'abc' });
      expect(response.status).to.equal(200);
      expect(response.body.results).to.deep.equal([[1]]);
      expect(response.body.query_status).to.equal(null);
    });

    const REFUSED: { name: string; query: string; values?: Record<string, unknown>; detail: string }[] = [
      { name: 'pg_catalog', query: 'select relname from pg_catalog.pg_class', detail: 'Unknown table "pg_catalog.pg_class". Tables: events, persons, person_distinct_ids, sessions, groups.' },
      { name: 'another table', query: 'select * from raw_sessions', detail: 'Unknown table "raw_sessions". Tables: events, persons, person_distinct_ids, sessions, groups.' },
      { name: 'a PostgreSQL function', query: 'select pg_sleep(10) from events', detail: 'Unknown function "pg_sleep".' },
      { name: 'an unknown field', query: 'select team_id from events', detail: 'Unknown field "team_id".' },
      { name: 'a second statement', query: 'select 1 from events; drop table events', detail: 'Unexpected character ";" at position 21.' },
      { name: 'a missing placeholder value', query: 'select 1 from events where event = {ev}', detail: 'Placeholder {ev} is not given in values.' },
      {
        name: 'a placeholder value that is not a scalar',
        query: 'select 1 from events where event = {ev}',
        values: { ev: ['a'] },
        detail: 'The value of the placeholder {ev} must be a string, a number, a boolean or null.',
      },
      { name: 'an ungrouped column', query: 'select event, count() from events', detail: '"event" must be in GROUP BY or inside an aggregate function.' },
      {
        name: 'a field outside an aggregate that GROUP BY does not hold (found by PostgreSQL)',
        query: "select if(count() > 1, event, 'few') from events",
        detail: 'An expression outside an aggregate function uses a field that is not in GROUP BY.',
      },
      {
        name: 'DISTINCT ordered by an expression it does not select',
        query: 'select distinct event from events order by timestamp',
        detail: 'With DISTINCT, ORDER BY may only name selected expressions, or expressions of them.',
      },
      { name: 'an aggregate in WHERE', query: 'select 1 from events where count() > 1', detail: 'Aggregate functions such as count() are not allowed in WHERE.' },
      {
        name: 'a field in two joined tables',
        query: 'select distinct_id from events a join events b on a.uuid = b.uuid',
        detail: 'The field "distinct_id" is in more than one joined table; name its table, as in alias.distinct_id.',
      },
      { name: 'ASOF JOIN', query: 'select 1 from events e asof join persons p on 1 = 1', detail: 'ASOF JOIN is not supported; join on the condition and keep the closest row with argMax() or LIMIT 1 BY.' },
      { name: '* of an unknown table', query: 'select x.* from events e join persons p on e.person_id = p.id', detail: 'Unknown table "x" in x.*.' },
      { name: 'UNION without ALL or DISTINCT', query: 'select 1 from events union select 2 from events', detail: 'Write UNION ALL or UNION DISTINCT: UNION alone is ambiguous, as ClickHouse answers.' },
      {
        name: 'UNION ALL of different widths',
        query: 'select 1, 2 from events union all select 2 from events',
        detail: 'Each query of UNION ALL must select as many columns as the first (2), not 1.',
      },
      { name: 'a WITH query naming itself', query: 'with x as (select 1 from x) select 1 from x', detail: 'The WITH query "x" refers to itself.' },
      { name: 'IN a subquery of two columns', query: 'select 1 from events where event in (select event, 1 from events)', detail: 'A subquery after IN must select one column, not 2.' },
      { name: 'a field the subquery does not have', query: 'select event from (select distinct_id from events)', detail: 'Unknown field "event" of the subquery.' },
      { name: 'pg_catalog in a subquery', query: 'select 1 from events where event in (select relname from pg_catalog.pg_class)', detail: 'Unknown table "pg_catalog.pg_class". Tables: events, persons, person_distinct_ids, sessions, groups.' },
      { name: 'a non-constant LIMIT', query: 'select 1 from events limit count()', detail: 'LIMIT must be a non-negative integer.' },
      { name: 'a parameter given to a plain function', query: 'select count(1)(event) from events', detail: 'count() takes no parameters.' },
    ];
    for (const refused of REFUSED) {
      it(`400 for ${refused.name}`, async () => {
        const response = await run(refused.query, refused.values);
        expect(response.status).to.equal(400);
        expect(response.body).to.deep.equal({ type: 'validation_error', code: 'invalid_input', detail: refused.detail, attr: null });
      });
    }

    it('400 for an unknown top-level field and for a kind of query that does not run', async () => {
      const unknown = await client.post(path, { query: { kind: 'HogQLQuery', query: 'select 1 from events' }, filters: {} });
      expect(unknown.status).to.equal(400);
      expect(unknown.body).to.deep.equal({ type: 'validation_error', code: 'unknown_field', detail: 'Unknown field "filters".', attr: 'filters' });
      const kind = await client.post(path, { query: { kind: 'FunnelsQuery', series: [] } });
      expect(kind.status).to.equal(400);
      expect(kind.body).to.deep.equal({
        type: 'validation_error',
        code: 'invalid_choice',
        detail: '"FunnelsQuery" is not a supported kind. Supported: HogQLQuery, EventsQuery.',
        attr: 'query__kind',
      });
    });

    it('a query running past the statement timeout is cancelled: 504, not an outage (no Retry-After)', async () => {
      const slow = await startTestServer({ config: { queryTimeoutMs: 300 } });
      try {
        // 5^12 rows joined (the environment's five events, twelve times): minutes of work on any machine.
        const joins = 'bcdfghijklm'.split('').map((alias) => `join events ${alias} on 1 = 1`).join(' ');
        const query = `select count() from events a ${joins}`;
        const response = await slow.http.withKey(key).post(path, { query: { kind: 'HogQLQuery', query } });
        expect(response.status).to.equal(504);
        expect(response.body).to.deep.equal({
          type: 'server_error',
          code: 'query_timeout',
          detail: 'The query ran longer than 300 ms and was cancelled. Narrow it with a condition on timestamp, a LIMIT, or fewer joins.',
          attr: null,
        });
        expect(response.headers.get('retry-after')).to.equal(null);
      } finally {
        await slow.close();
      }
    });

    describe('grouping by a property', () => {
      let grouping: HttpClient;
      let groupingPath: string;

      before(async () => {
        const account = await newAccount(testDb(), { scopes: ['query:read'] });
        grouping = server.http.withKey(account.key);
        groupingPath = `/api/environments/${account.environment.id}/query/`;
        const plan: Record<string, unknown>[] = [{ plan: 1 }, { plan: '1' }, { plan: null }, {}, { plan: 'pro' }, { plan: { tier: 2 } }];
        await insertEvents(
          testDb(),
          account.environment.id,
          plan.map((properties, index) => ({ event: 'tick', distinct_id: `d${index}`, timestamp: new Date(Date.UTC(2024, 0, 1, 0, 0, index)), properties })),
        );
      });

      it('groups by its text, as PostHog reads properties: 1 and "1" are one group, a JSON null and a missing key another', async () => {
        const query = 'select properties.plan as plan, count() as n from events group by plan having plan is null or plan != {skip} order by plan';
        const response = await grouping.post(groupingPath, { query: { kind: 'HogQLQuery', query, values: { skip: 'pro' } } });
        expect(response.status).to.equal(200);
        expect(response.body.types).to.deep.equal([
          ['plan', 'Nullable(String)'],
          ['n', 'Int64'],
        ]);
        expect(response.body.results).to.deep.equal([
          ['1', 2],
          ['{"tier": 2}', 1],
          [null, 2],
        ]);
      });
    });

    describe('row limits', () => {
      let limited: HttpClient;
      let limitedPath: string;

      before(async () => {
        const account = await newAccount(testDb(), { scopes: ['query:read'] });
        limited = server.http.withKey(account.key);
        limitedPath = `/api/environments/${account.environment.id}/query/`;
        const events = Array.from({ length: 120 }, (_, index) => ({
          event: 'tick',
          distinct_id: `d${index}`,
          timestamp: new Date(Date.UTC(2024, 0, 1, 0, 0, index)),
        }));
        await insertEvents(testDb(), account.environment.id, events);
      });

      it('without a LIMIT: 100 rows and hasMore', async () => {
        const response = await limited.post(limitedPath, { query: { kind: 'HogQLQuery', query: 'select distinct_id from events order by timestamp' } });
        expect(response.status).to.equal(200);
        expect(response.body.results).to.have.length(100);
        expect(response.body.results[99]).to.deep.equal(['d99']);
        expect(response.body).to.include({ hasMore: true, limit: 100, offset: 0 });
      });

      it('a LIMIT is obeyed, without the page fields', async () => {
        const response = await limited.post(limitedPath, { query: { kind: 'HogQLQuery', query: 'select distinct_id from events order by timestamp limit 110' } });
        expect(response.status).to.equal(200);
        expect(response.body.results).to.have.length(110);
        expect(response.body).to.not.have.any.keys('hasMore', 'limit', 'offset');
      });

      it('a LIMIT above 50 000 is lowered to it', async () => {
        const response = await limited.post(limitedPath, { query: { kind: 'HogQLQuery', query: 'select count() from events limit 1000000' } });
        expect(response.status).to.equal(200);
        expect(response.body.results).to.deep.equal([[120]]);
        expect(response.body.hogql).to.equal('SELECT count() FROM events LIMIT 50000');
      });
    });
  });

  describe('query_create', () => {
    it('the /api/projects/ twin answers the same', async () => {
      const response = await run('select count() from events', undefined, projectsPath);
      expect(response.status).to.equal(200);
      expect(response.body.results).to.deep.equal([[5]]);
    });
  });
});
