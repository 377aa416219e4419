/**
 * The corpus: HogQL queries as PostHog writes them (its SQL docs and tutorials, the HogQL tests of its repository,
 * the HogQL its insight runners build, the examples its AI is given; they and their rows are in
 * test/helpers/hogql-corpus.ts), each posted to POST …/query/ over a fixed month of events
 * (test/helpers/corpus-data.ts) and compared with the rows PostHog answers on that data.
 *
 * Expected rows are computed from the fixture arrays with plain TypeScript (or written out by hand for constant
 * queries, from ClickHouse's documentation and PostHog's own assertions), never from what our compiler prints.
 * Where a PostHog query's order is not fixed by it (no ORDER BY, or ties), its rows are compared as a set
 * (`order: 'set'`); otherwise in order. Numbers compare within 1e-9 (Float64 sums); true/false equal 1/0, since
 * ClickHouse answers comparisons as UInt8 and PostHog's own tests do not tell the two apart. Numeric and boolean
 * properties (price, duration_ms, $screen_height, enabled …) are read as numbers and booleans, as PostHog reads
 * them once ingestion has typed their property definitions Numeric and Boolean; other properties are text.
 *
 * A source "after <page>" marks a query we composed around an expression, function or clause that page documents
 * (the docs give many as expressions only); the others are PostHog's own text, and where one was adapted (names of
 * events and properties of this data set, a runner's placeholders filled with concrete dates, a LIMIT without
 * ORDER BY made deterministic) its source says so.
 * A second environment holds rows under the same distinct ids, session ids and group keys, and a third one (in
 * America/New_York) the same events as the first: any of them leaking changes a result.
 */
import { expect } from 'chai';
import { EVENTS, GROUPS, OTHER_EVENTS, PERSONS } from '../helpers/corpus-data.js';
import { CORPUS, type Rows } from '../helpers/hogql-corpus.js';
import { insertEvents } from '../helpers/seed-events.js';
import { insertPersons, upsertGroup } from '../helpers/seed-persons.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

// Each query's rows are compared after normalising what JSON cannot tell apart the same way in both systems.
function same(actual: unknown, expected: unknown): boolean {
  if (typeof expected === 'number' && typeof actual === 'number') return Math.abs(actual - expected) <= 1e-9 * Math.max(1, Math.abs(expected));
  if (typeof expected === 'boolean' && typeof actual === 'number') return actual === (expected ? 1 : 0);
  if (typeof expected === 'number' && typeof actual === 'boolean') return expected === (actual ? 1 : 0);
  if (Array.isArray(expected) && Array.isArray(actual)) return expected.length === actual.length && expected.every((item, index) => same(actual[index], item));
  return expected === actual;
}

function sameSet(actual: Rows, expected: Rows): boolean {
  if (actual.length !== expected.length) return false;
  const left = [...actual];
  for (const row of expected) {
    const index = left.findIndex((candidate) => same(candidate, row));
    if (index < 0) return false;
    left.splice(index, 1);
  }
  return true;
}

describe('query: HogQL corpus of real PostHog queries, with PostHog’s results', function () {
  this.timeout(120_000);
  let server: TestServer;
  let client: HttpClient;
  let path: string;
  let newYorkPath: string;
  let newYorkClient: HttpClient;
  const outcomes: { source: string; query: string; ok: boolean; detail: string }[] = [];

  before(async () => {
    server = await startTestServer();
    const db = testDb();
    // Person uuids are unique across environments: the New York copy's persons get uuids of their own.
    const seed = async (team: number, uuid: (personUuid: string) => string) => {
      await insertPersons(
        db,
        team,
        PERSONS.map((p) => ({ distinctIds: p.distinctIds, properties: p.properties, uuid: uuid(p.uuid), isIdentified: p.identifiedOn !== null })),
      );
      await insertEvents(db, team, EVENTS.map(({ person, time: _time, ...event }) => ({ ...event, person_id: uuid(person.uuid) })));
      // A person is created when its first event arrives (the lifecycle's "new" reads it).
      for (const person of PERSONS) {
        const first = EVENTS.find((e) => e.person === person)!;
        await db('persons').where({ team_id: team, uuid: uuid(person.uuid) }).update({ created_at: first.timestamp });
      }
      for (const group of GROUPS) {
        await upsertGroup(db, team, { groupType: group.type, groupTypeIndex: group.index, groupKey: group.key, properties: group.properties });
        await db('groups').where({ team_id: team, group_type_index: group.index, group_key: group.key }).update({ created_at: group.created_at });
      }
    };
    const account = await newAccount(db, { scopes: ['query:read'] });
    client = server.http.withKey(account.key);
    path = `/api/environments/${account.environment.id}/query/`;
    await seed(account.environment.id, (id) => id);

    // The same rows in an environment of another organization, in New York: queries marked newYork run there.
    const newYork = await newAccount(db, { scopes: ['query:read'] });
    await db('environments').where({ id: newYork.environment.id }).update({ timezone: 'America/New_York' });
    await seed(newYork.environment.id, (id) => id.replace(/^01800000/, '01900000'));
    newYorkPath = `/api/environments/${newYork.environment.id}/query/`;
    newYorkClient = server.http.withKey(newYork.key);

    // Another environment whose distinct ids, sessions and group keys share the first one's names.
    const other = await newAccount(db, { scopes: ['query:read'] });
    const otherTeam = other.environment.id;
    await insertPersons(db, otherTeam, [
      { distinctIds: ['ana', 'anon-hal', 'mallory'], properties: { email: 'evil@other.test', plan: 'pro', company: 'acme' } },
      { distinctIds: ['ben'], properties: { email: 'ben@other.test', plan: 'enterprise' } },
    ]);
    await insertEvents(db, otherTeam, OTHER_EVENTS);
    await upsertGroup(db, otherTeam, { groupType: 'organization', groupTypeIndex: 0, groupKey: 'acme', properties: { name: 'Evil Corp', industry: 'crime' } });
    await upsertGroup(db, otherTeam, { groupType: 'project', groupTypeIndex: 1, groupKey: 'proj-web', properties: { name: 'Evil' } });
  });

  after(async () => {
    await server.close();
  });

  for (const entry of CORPUS) {
    const title = `${entry.source}: ${entry.query.replace(/\s+/g, ' ').slice(0, 110)}`;
    it(title, async () => {
      const body = {
        query: {
          kind: 'HogQLQuery',
          query: entry.query,
          ...(entry.values ? { values: entry.values } : {}),
          ...(entry.filters ? { filters: entry.filters } : {}),
          ...(entry.variables ? { variables: entry.variables } : {}),
        },
      };
      const response = await (entry.newYork ? newYorkClient : client).post(entry.newYork ? newYorkPath : path, body);
      const record = (ok: boolean, detail: string) => outcomes.push({ source: entry.source, query: entry.query, ok, detail });
      if (entry.refused !== undefined) {
        const detail = JSON.stringify(response.body);
        const ok = response.status === 400 && String((response.body as { detail?: string }).detail ?? '').includes(entry.refused);
        record(ok, `${response.status} ${detail}`);
        expect(response.status, detail).to.equal(400);
        expect((response.body as { detail: string }).detail).to.include(entry.refused);
        return;
      }
      if (entry.differs) {
        const { refused, rows } = entry.differs;
        record(false, `known difference: ${entry.differs.because}`);
        if (refused !== undefined) {
          expect(response.status, JSON.stringify(response.body)).to.equal(400);
          expect((response.body as { detail: string }).detail).to.include(refused);
        } else {
          const posthog = typeof entry.rows === 'function' ? entry.rows() : (entry.rows ?? []);
          expect(response.status, JSON.stringify(response.body)).to.equal(200);
          expect((response.body as { results: Rows }).results).to.deep.equal(rows!(posthog));
        }
        return;
      }
      if (response.status !== 200) {
        record(false, `${response.status} ${String((response.body as { detail?: string }).detail ?? JSON.stringify(response.body))}`);
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
      }
      const expected = typeof entry.rows === 'function' ? entry.rows() : (entry.rows ?? []);
      const actual = (response.body as { results: Rows }).results;
      const ok = entry.order === 'set' ? sameSet(actual, expected) : same(actual, expected);
      record(ok, ok ? '' : `rows differ: got ${JSON.stringify(actual).slice(0, 400)}, expected ${JSON.stringify(expected).slice(0, 400)}`);
      expect(ok, `got ${JSON.stringify(actual)}\nexpected ${JSON.stringify(expected)}`).to.equal(true);
    });
  }

  it('runs at least 95 % of the corpus with PostHog’s results', () => {
    const passed = outcomes.filter((outcome) => outcome.ok).length;
    const failed = outcomes.filter((outcome) => !outcome.ok);
    const share = passed / CORPUS.length;
    // eslint-disable-next-line no-console -- the share and the failures are this suite's report
    console.log(`\n  HogQL corpus: ${passed} of ${CORPUS.length} queries (${(share * 100).toFixed(1)} %) answer PostHog's result.`);
    // eslint-disable-next-line no-console -- likewise
    for (const failure of failed) console.log(`  FAIL ${failure.source}\n       ${failure.query.replace(/\s+/g, ' ').slice(0, 200)}\n       ${failure.detail.slice(0, 300)}`);
    expect(share).to.be.at.least(0.95);
  });
});

