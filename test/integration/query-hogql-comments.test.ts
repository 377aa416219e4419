/**
 * Comments in a HogQLQuery through POST …/query/: each query with comments answers exactly what the same query
 * without them answers (rows, columns, types and the `hogql` that ran), and the rows asserted here are the data
 * set's. Comment markers inside strings and quoted identifiers are text; an unterminated block comment is a 400.
 */
import { expect } from 'chai';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const EVENTS: NewEvent[] = [
  { event: '$pageview', distinct_id: 'alice', timestamp: '2024-01-01T10:00:00Z', properties: { price: 10 } },
  { event: '$pageview', distinct_id: 'bob', timestamp: '2024-01-02T10:00:00Z', properties: { price: 20 } },
  { event: 'a--b', distinct_id: 'bob', timestamp: '2024-01-03T10:00:00Z', properties: { 'x -- y': 'dashes' } },
  { event: 'a/*b*/', distinct_id: 'carol', timestamp: '2024-01-04T10:00:00Z', properties: {} },
];

interface Case {
  name: string;
  query: string;
  /** The same query without its comments. */
  plain: string;
  rows: unknown[][];
  columns: string[];
}

const CASES: Case[] = [
  {
    name: 'a -- comment holding "1" after the count, FROM on the next line',
    query: 'SELECT count() -- 1\nFROM events',
    plain: 'SELECT count() FROM events',
    rows: [[4]],
    columns: ['count()'],
  },
  {
    name: 'a -- comment holding "10 events" after the count',
    query: 'SELECT count() -- 10 events\nFROM events',
    plain: 'SELECT count() FROM events',
    rows: [[4]],
    columns: ['count()'],
  },
  {
    name: '-- immediately followed by a number, and // as PostHog reads it',
    query: 'SELECT count()--1\n, sum(properties.price) // + 100\nFROM events',
    plain: 'SELECT count(), sum(properties.price) FROM events',
    rows: [[4, 30]],
    columns: ['count()', 'sum(properties.price)'],
  },
  {
    name: 'block comments between every clause, one over several lines, one at the end without a newline',
    query:
      "/* leading */ SELECT /* items */ event, count() AS n /* + 1\n over lines */ FROM /* t */ events /* w */ WHERE event != 'nothing' /* g */ GROUP BY event /* h */ HAVING count() >= 1 /* o */ ORDER BY n DESC, event /* l */ LIMIT 10 /* end */",
    plain: "SELECT event, count() AS n FROM events WHERE event != 'nothing' GROUP BY event HAVING count() >= 1 ORDER BY n DESC, event LIMIT 10",
    rows: [['$pageview', 2], ['a--b', 1], ['a/*b*/', 1]],
    columns: ['event', 'n'],
  },
  {
    name: '-- comments ending every line, the last one without a newline, and a ; before it',
    query: "SELECT distinct_id -- who\nFROM events -- all\nWHERE event = '$pageview' -- views\nORDER BY distinct_id; -- done",
    plain: "SELECT distinct_id FROM events WHERE event = '$pageview' ORDER BY distinct_id",
    rows: [['alice'], ['bob']],
    columns: ['distinct_id'],
  },
  {
    name: 'comment markers inside strings and quoted identifiers are text',
    query:
      "SELECT event AS \"e -- f\", properties.`x -- y` AS `g /* h */` FROM events WHERE event IN ('a--b', 'a/*b*/') -- only those\nORDER BY event",
    plain: "SELECT event AS \"e -- f\", properties.`x -- y` AS `g /* h */` FROM events WHERE event IN ('a--b', 'a/*b*/') ORDER BY event",
    rows: [['a--b', 'dashes'], ['a/*b*/', null]],
    columns: ['e -- f', 'g /* h */'],
  },
  {
    name: 'a comment in a nested query and after a placeholder',
    query: "SELECT count() FROM (SELECT event -- inner\n FROM events WHERE distinct_id = {who} /* {missing} */)",
    plain: 'SELECT count() FROM (SELECT event FROM events WHERE distinct_id = {who})',
    rows: [[2]],
    columns: ['count()'],
  },
];

describe('query: HogQL comments', function () {
  this.timeout(60_000);
  let server: TestServer;
  let client: HttpClient;
  let path: string;

  before(async () => {
    server = await startTestServer();
    const account = await newAccount(testDb(), { scopes: ['query:read'] });
    client = server.http.withKey(account.key);
    path = `/api/environments/${account.environment.id}/query/`;
    await insertEvents(testDb(), account.environment.id, EVENTS);
  });

  after(async () => {
    await server.close();
  });

  const run = (query: string) => client.post(path, { query: { kind: 'HogQLQuery', query, values: { who: 'bob' } } });

  for (const c of CASES) {
    it(c.name, async () => {
      const commented = await run(c.query);
      expect(commented.status, JSON.stringify(commented.body)).to.equal(200);
      expect(commented.body.results).to.deep.equal(c.rows);
      expect(commented.body.columns).to.deep.equal(c.columns);
      const plain = await run(c.plain);
      expect(plain.status, JSON.stringify(plain.body)).to.equal(200);
      const { results, columns, types, hogql } = commented.body;
      expect({ results, columns, types, hogql }).to.deep.equal({ results: plain.body.results, columns: plain.body.columns, types: plain.body.types, hogql: plain.body.hogql });
      expect(commented.body.query).to.equal(c.query);
    });
  }

  it('the hogql that ran has no comments', async () => {
    const response = await run('SELECT count() -- 10 events\nFROM events /* all */');
    expect(response.body.hogql).to.equal('SELECT count() FROM events LIMIT 100');
  });

  const refused: [string, string, string][] = [
    ['an unterminated block comment', 'SELECT count() FROM events /* never closed', 'Unterminated comment starting at position 28.'],
    ['a nested block comment (the first */ closes it)', 'SELECT count() /* a /* b */ c */ FROM events', 'Expected the end of the query but found "*" at position 31.'],
    ['# (not a comment in HogQL)', 'SELECT count() # 1\nFROM events', 'Unexpected character "#" at position 16.'],
    ['nothing but a comment', '-- SELECT 1', 'The query is empty.'],
  ];
  for (const [name, query, detail] of refused) {
    it(`400 for ${name}`, async () => {
      const response = await run(query);
      expect(response.status, JSON.stringify(response.body)).to.equal(400);
      expect(response.body).to.deep.equal({ type: 'validation_error', code: 'invalid_input', detail, attr: null });
    });
  }
});
