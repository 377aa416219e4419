/**
 * The deprecated events listing at its edges: person filters matching few or many persons, relative dates with
 * Start or End, integers beyond 2^53, and persons after an alias merge. (The listing itself: events.test.ts.)
 */
import { expect } from 'chai';
import { insertEvents } from '../helpers/seed-events.js';
import { insertPerson, insertPersons, mergePersonInto } from '../helpers/seed-persons.js';
import { testDb } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

function qs(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value) && key === 'event_name') value.forEach((item) => search.append(key, String(item)));
    else search.set(key, typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value));
  }
  return search.toString();
}

describe('events (deprecated listing): edge cases', function () {
  this.timeout(60_000);
  let server: TestServer;

  // Each test makes its own account and data.
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  describe('person filters matching few or many persons', () => {
    it('answers the same whether the persons’ distinct ids are looked up first (at most 1,000) or persons are joined', async () => {
      const crowd = await newAccount(testDb());
      const team = crowd.environment.id;
      // 1,001 persons on the "team" plan (too many to look up first), one on "solo", the rest on "free".
      await insertPersons(
        testDb(),
        team,
        Array.from({ length: 1003 }, (_, index) => ({
          distinctIds: [`p${index}`],
          properties: { plan: index < 1001 ? 'team' : index === 1001 ? 'solo' : 'free' },
        })),
      );
      await insertEvents(
        testDb(),
        team,
        [0, 500, 1000, 1001, 1002, 1003].map((index, order) => ({
          event: `by p${index}`,
          distinct_id: `p${index}`,
          timestamp: new Date(Date.parse('2026-04-01T00:00:00Z') + order * 60_000),
        })),
      );
      const crowdClient = server.http.withKey(crowd.key);
      const names = async (filters: unknown) => {
        const res = await crowdClient.get(`/api/projects/${team}/events/?${qs({ properties: filters })}`);
        expect(res.status, res.text).to.equal(200);
        return res.body.results.map((event: { event: string }) => event.event);
      };
      expect(await names([{ key: 'plan', value: 'team', type: 'person' }])).to.deep.equal(['by p1000', 'by p500', 'by p0']);
      expect(await names([{ key: 'plan', value: 'solo', type: 'person' }])).to.deep.equal(['by p1001']);
      expect(await names([{ key: 'plan', value: 'nobody', type: 'person' }])).to.deep.equal([]);
      expect(await names([{ key: 'plan', value: ['solo', 'free'], type: 'person' }, { key: 'plan', operator: 'is_set', type: 'person' }])).to.deep.equal([
        'by p1002',
        'by p1001',
      ]);
      expect(await names([{ key: 'plan', value: 'team', operator: 'is_not', type: 'person' }])).to.deep.equal([
        'by p1003',
        'by p1002',
        'by p1001',
      ]);
    });
  });

  describe('relative dates with Start or End (PostHog’s -1dStart)', () => {
    it('reads after and before on the project’s day', async () => {
      const relative = await newAccount(testDb());
      const team = relative.environment.id;
      const day = 24 * 3600 * 1000;
      await insertEvents(testDb(), team, [
        { event: 'now', distinct_id: 'r', timestamp: new Date() },
        { event: 'three days ago', distinct_id: 'r', timestamp: new Date(Date.now() - 3 * day) },
      ]);
      const names = async (params: Record<string, string>) =>
        ((await server.http.withKey(relative.key).get(`/api/projects/${team}/events/?${qs(params)}`)).body.results as Array<{ event: string }>).map(
          (event) => event.event,
        );
      expect(await names({ after: '-1dStart' })).to.deep.equal(['now']);
      expect(await names({ before: '-1dEnd' })).to.deep.equal(['three days ago']);
      expect(await names({ after: '-4dStart', before: 'dEnd' })).to.deep.equal(['now', 'three days ago']);
    });
  });

  describe('integers beyond 2^53', () => {
    it('shows them as stored, in every listing, one event, csv, select and values', async () => {
      const exact = await newAccount(testDb());
      const team = exact.environment.id;
      await insertPerson(testDb(), team, { distinctIds: ['big'], isIdentified: true });
      const [uuid] = await insertEvents(testDb(), team, [{ event: 'order', distinct_id: 'big', timestamp: new Date() }]);
      // Written as SQL text: capture stores them so (test/integration/capture-persons.test.ts), JavaScript numbers cannot.
      await testDb().raw(`update events set properties = '{"order_id": 1234567890123456789, "ids": [-9007199254740993]}' where uuid = ?`, [uuid!]);
      await testDb().raw(`update persons set properties = '{"name": 12345678901234567891}' where team_id = ?`, [team]);
      /** The answer's text, straight from the server (a proxy in between could parse and round it). */
      const text = async (path: string) => {
        const response = await fetch(new URL(`/api/projects/${team}/events/${path}`, server.directUrl), {
          headers: { authorization: `Bearer ${exact.key}` },
        });
        expect(response.status).to.equal(200);
        return response.text();
      };
      const listed = await text('');
      expect(listed).to.include('"order_id": 1234567890123456789').and.include('"ids": [-9007199254740993]');
      expect(listed).to.include('"name":12345678901234567891');
      const one = await text(`${uuid}/`);
      expect(one).to.include('"order_id":1234567890123456789').and.include('"ids":[-9007199254740993]');
      expect(one).to.include('"name":12345678901234567891');
      const [header, row] = (await text('?format=csv')).split('\r\n').map((line) => line.split(','));
      const column = (name: string) => row![header!.indexOf(name)];
      expect([column('properties.order_id'), column('properties.ids.0'), column('person.properties.name')]).to.deep.equal([
        '1234567890123456789',
        '-9007199254740993',
        '12345678901234567891',
      ]);
      const selected = JSON.parse(
        (await text(`?${qs({ select: ['properties.order_id', 'toInt(properties.order_id)', 'properties.ids'] })}`)).replace(
          /(-?\d{16,})/g,
          '"$1"',
        ),
      ) as { results: unknown[][] };
      expect(selected.results).to.deep.equal([['1234567890123456789', '1234567890123456789', ['-9007199254740993']]]);
      // A filter's value is read exactly too, so that it matches the stored number (and `is_not` does not).
      const filtered = async (filters: string) =>
        (JSON.parse(await text(`?properties=${encodeURIComponent(filters)}`)) as { results: unknown[] }).results.length;
      expect(await filtered('[{"key":"order_id","value":1234567890123456789}]')).to.equal(1);
      expect(await filtered('[{"key":"order_id","value":[1234567890123456788,1234567890123456789],"operator":"in"}]')).to.equal(1);
      expect(await filtered('[{"key":"order_id","value":1234567890123456788}]')).to.equal(0);
      expect(await filtered('[{"key":"order_id","value":1234567890123456789,"operator":"is_not"}]')).to.equal(0);
      expect(await filtered('[{"key":"name","value":12345678901234567891,"type":"person"}]')).to.equal(1);
      const values = await fetch(new URL(`/api/projects/${team}/events/values/?key=order_id`, server.directUrl), {
        headers: { authorization: `Bearer ${exact.key}` },
      });
      expect(await values.text()).to.equal('[{"name":1234567890123456789}]');
    });
  });

  describe('persons after an alias merge', () => {
    it("shows the person's first distinct id, which a merge keeps, whatever their alphabetical order", async () => {
      const account = await newAccount(testDb());
      const team = account.environment.id;
      const anonymous = await insertPerson(testDb(), team, { distinctIds: ['zed-anon', 'yak-device'] });
      const known = await insertPerson(testDb(), team, { distinctIds: ['alpha-user'], isIdentified: true });
      await insertEvents(testDb(), team, [
        { event: 'seen', distinct_id: 'yak-device', timestamp: '2026-03-01T10:00:00Z' },
        { event: 'signed up', distinct_id: 'alpha-user', timestamp: '2026-03-01T11:00:00Z' },
      ]);
      const accountClient = server.http.withKey(account.key);
      const persons = async () =>
        (await accountClient.get(`/api/projects/${team}/events/`)).body.results.map(
          (event: { event: string; person: { distinct_ids: string[] } }) => [event.event, event.person.distinct_ids],
        );
      expect(await persons()).to.deep.equal([
        ['signed up', ['alpha-user']],
        ['seen', ['zed-anon']],
      ]);
      await mergePersonInto(testDb(), team, anonymous.id, known.id);
      expect(await persons()).to.deep.equal([
        ['signed up', ['zed-anon']],
        ['seen', ['zed-anon']],
      ]);
    });

    it('shows every distinct id of the merged person as one person, and person_id finds them all', async () => {
      const merged = await newAccount(testDb());
      const team = merged.environment.id;
      const anonymous = await insertPerson(testDb(), team, { distinctIds: ['anon-1'], properties: { name: 'Anonymous' } });
      const known = await insertPerson(testDb(), team, {
        distinctIds: ['user-1'],
        properties: { email: 'user@example.com' },
        isIdentified: true,
      });
      await insertEvents(testDb(), team, [
        { event: 'before login', distinct_id: 'anon-1', timestamp: '2026-03-01T10:00:00Z', person_id: anonymous.uuid },
        { event: 'after login', distinct_id: 'user-1', timestamp: '2026-03-01T11:00:00Z', person_id: known.uuid },
        { event: 'someone else', distinct_id: 'other', timestamp: '2026-03-01T12:00:00Z' },
      ]);
      await mergePersonInto(testDb(), team, anonymous.id, known.id);

      const mergedClient = server.http.withKey(merged.key);
      const path = `/api/projects/${team}/events/`;
      const byPerson = await mergedClient.get(`${path}?${qs({ person_id: known.id })}`);
      expect(byPerson.body.results.map((event: { event: string }) => event.event)).to.deep.equal(['after login', 'before login']);
      const person = { is_identified: true, distinct_ids: ['anon-1'], properties: { email: 'user@example.com' } };
      expect(byPerson.body.results.map((event: { person: unknown }) => event.person)).to.deep.equal([person, person]);
      const gone = await mergedClient.get(`${path}?${qs({ person_id: anonymous.uuid })}`);
      expect(gone.body.results).to.deep.equal([]);
      const byWhere = await mergedClient.get(`${path}?${qs({ where: [`person_id = '${known.uuid}'`] })}`);
      expect(byWhere.body.results).to.have.length(2);
      const byPersonProperty = await mergedClient.get(
        `${path}?${qs({ properties: [{ key: 'email', value: 'user@example.com', type: 'person' }] })}`,
      );
      expect(byPersonProperty.body.results).to.have.length(2);
    });
  });
});
