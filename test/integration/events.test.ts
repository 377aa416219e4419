/**
 * The deprecated event listing: every parameter and operator, each error, CSV, events_retrieve,
 * events_values_retrieve, the environment twins and the statement timeout. (Paging through `next` over many equal
 * timestamps is in events-paging.test.ts; person filters over many persons, relative dates, big integers and
 * persons after a merge in events-edge-cases.test.ts.)
 */
import { expect } from 'chai';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson, upsertGroup, type PersonRow } from '../helpers/seed-persons.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { specOperations } from '../helpers/spec-sync.js';

function qs(params: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value) && key === 'event_name') value.forEach((item) => search.append(key, String(item)));
    else search.set(key, typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value));
  }
  return search.toString();
}

const labels = (body: { results: { properties: { label?: string } }[] }) => body.results.map((event) => event.properties.label);

const CHAIN = 'button.cta.primary:attr__data-attr="buy"nth-child="2"nth-of-type="1"text="Buy now";form:attr_id="checkout";body';

/** Four events a few days apart; e4 is the newest. */
const EVENTS: NewEvent[] = [
  {
    uuid: '0190f1c4-0000-7000-8000-000000000001',
    event: 'pageview',
    distinct_id: 'ada',
    timestamp: '2026-01-10T10:00:00Z',
    properties: {
      label: 'e1',
      $browser: 'Chrome',
      price: 10,
      url: 'https://shop.example.com/SALE/50%_off',
      flag: true,
      date_prop: '2026-01-15T10:00:00Z',
    },
  },
  {
    uuid: '0190f1c4-0000-7000-8000-000000000002',
    event: 'pageview',
    distinct_id: 'bob',
    timestamp: '2026-01-11T10:00:00Z',
    properties: { label: 'e2', $browser: 'Firefox', price: 25.5, url: 'https://example.com/about', flag: false, date_prop: '2026-02-01' },
    groups: { 0: 'acme' },
  },
  {
    uuid: '0190f1c4-0000-7000-8000-000000000003',
    event: 'signup',
    distinct_id: 'ada',
    timestamp: '2026-01-12T10:00:00.123456Z',
    properties: { label: 'e3', $browser: 'Safari', price: '100', note: null, 'key with spaces': 'yes' },
  },
  {
    uuid: '0190f1c4-0000-7000-8000-000000000004',
    event: 'purchase',
    distinct_id: 'carol',
    timestamp: '2026-01-13T10:00:00Z',
    properties: { label: 'e4' },
    elements_chain: CHAIN,
  },
];

describe('events (deprecated listing)', function () {
  this.timeout(60_000);
  let server: TestServer;
  let account: Account;
  let client: HttpClient;
  let ada: PersonRow;
  let base: string;

  const list = (params: Record<string, unknown> = {}, path = base) => client.get(`${path}?${qs(params)}`);

  before(async () => {
    server = await startTestServer();
    account = await newAccount(testDb(), { scopes: ['query:read'] });
    client = server.http.withKey(account.key);
    base = `/api/projects/${account.environment.id}/events/`;
    const team = account.environment.id;
    ada = await insertPerson(testDb(), team, {
      distinctIds: ['ada'],
      properties: { email: 'ada@example.com', plan: 'pro', name: 'Ada', secret: 's' },
      isIdentified: true,
    });
    await insertPerson(testDb(), team, { distinctIds: ['bob'], properties: { plan: 'free' } });
    await upsertGroup(testDb(), team, { groupType: 'company', groupTypeIndex: 0, groupKey: 'acme', properties: { industry: 'retail' } });
    await insertEvents(testDb(), team, EVENTS);
  });
  after(() => server.close());

  describe('events_list', () => {
    it('lists the project’s events newest first, each as PostHog’s serializer shapes it', async () => {
      const other = await newAccount(testDb());
      await insertEvents(testDb(), other.environment.id, [{ event: 'elsewhere', distinct_id: 'x', timestamp: new Date() }]);
      const res = await list();
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body)).to.deep.equal(['next', 'results']);
      expect(res.body.next).to.equal(null);
      expect(labels(res.body)).to.deep.equal(['e4', 'e3', 'e2', 'e1']);
      const [e4, e3] = res.body.results;
      expect(e4).to.deep.equal({
        id: '0190f1c4-0000-7000-8000-000000000004',
        distinct_id: 'carol',
        properties: { label: 'e4' },
        event: 'purchase',
        timestamp: '2026-01-13T10:00:00.000Z',
        person: null,
        elements: [
          {
            event: null,
            text: 'Buy now',
            tag_name: 'button',
            attr_class: ['cta', 'primary'],
            href: null,
            attr_id: null,
            nth_child: 2,
            nth_of_type: 1,
            attributes: { 'attr__data-attr': 'buy' },
            order: 0,
          },
          {
            event: null,
            text: null,
            tag_name: 'form',
            attr_class: null,
            href: null,
            attr_id: 'checkout',
            nth_child: null,
            nth_of_type: null,
            attributes: {},
            order: 1,
          },
          {
            event: null,
            text: null,
            tag_name: 'body',
            attr_class: null,
            href: null,
            attr_id: null,
            nth_child: null,
            nth_of_type: null,
            attributes: {},
            order: 2,
          },
        ],
        elements_chain: CHAIN,
      });
      expect(e3.timestamp).to.equal('2026-01-12T10:00:00.123456Z');
      expect(e3.properties).to.deep.equal({ label: 'e3', $browser: 'Safari', price: '100', note: null, 'key with spaces': 'yes' });
      expect(e3.person).to.deep.equal({
        is_identified: true,
        distinct_ids: ['ada'],
        properties: { email: 'ada@example.com', name: 'Ada' },
      });
    });

    it('shows the person’s email, name and username as stored (a JSON null included) and no other property', async () => {
      const other = await newAccount(testDb(), { scopes: ['query:read'] });
      const team = other.environment.id;
      await insertPerson(testDb(), team, {
        distinctIds: ['cyd'],
        properties: { username: null, name: 'Cyd "the first" ✓', plan: 'pro' },
        isIdentified: false,
      });
      await insertEvents(testDb(), team, [{ event: 'seen', distinct_id: 'cyd', timestamp: new Date('2026-01-01T00:00:00Z') }]);
      const res = await server.http.withKey(other.key).get(`/api/projects/${team}/events/`);
      expect(res.status).to.equal(200);
      expect(res.body.results.map((event: { person: unknown; timestamp: string }) => [event.person, event.timestamp])).to.deep.equal([
        [{ is_identified: false, distinct_ids: ['cyd'], properties: { username: null, name: 'Cyd "the first" ✓' } }, '2026-01-01T00:00:00.000Z'],
      ]);
    });

    it('answers for @current too', async () => {
      const res = await list({ event: 'signup' }, '/api/projects/@current/events/');
      expect(res.status).to.equal(200);
      expect(labels(res.body)).to.deep.equal(['e3']);
    });

    describe('filters by time (after and before are exclusive)', () => {
      const cases: [Record<string, string>, string[]][] = [
        [{ after: '2026-01-11T10:00:00Z' }, ['e4', 'e3']],
        [{ before: '2026-01-12T10:00:00.123456Z' }, ['e2', 'e1']],
        [{ after: '2026-01-10', before: '2026-01-12' }, ['e2', 'e1']],
        [{ after: '2026-01-11T11:00:00+01:00' }, ['e4', 'e3']],
        [{ after: '2026-01-11T10:00' }, ['e4', 'e3']],
        [{ after: '-7d' }, []],
        [{ before: '-1h' }, ['e4', 'e3', 'e2', 'e1']],
      ];
      for (const [given, want] of cases) {
        it(JSON.stringify(given), async () => expect(labels((await list(given)).body)).to.deep.equal(want));
      }
    });

    it('filters by event, distinct_id, and person_id (by id or UUID)', async () => {
      expect(labels((await list({ event: 'pageview' })).body)).to.deep.equal(['e2', 'e1']);
      expect(labels((await list({ distinct_id: 'ada' })).body)).to.deep.equal(['e3', 'e1']);
      expect(labels((await list({ person_id: ada.id })).body)).to.deep.equal(['e3', 'e1']);
      expect(labels((await list({ person_id: ada.uuid })).body)).to.deep.equal(['e3', 'e1']);
      expect(labels((await list({ person_id: '999999' })).body)).to.deep.equal([]);
      expect(labels((await list({ person_id: ada.id, event: 'signup' })).body)).to.deep.equal(['e3']);
    });

    describe('properties: every operator', () => {
      const cases: [string, unknown, string[]][] = [
        ['exact (default operator and type)', [{ key: '$browser', value: 'Chrome' }], ['e1']],
        ['exact with a list is any of', [{ key: '$browser', value: ['Chrome', 'Safari'], operator: 'exact' }], ['e3', 'e1']],
        ['is_not holds without the property', [{ key: '$browser', value: 'Chrome', operator: 'is_not' }], ['e4', 'e3', 'e2']],
        ['is_not with a list is none of', [{ key: '$browser', value: ['Chrome', 'Firefox'], operator: 'is_not' }], ['e4', 'e3']],
        ['icontains ignores case', [{ key: 'url', value: 'example.com/sale', operator: 'icontains' }], ['e1']],
        ['icontains takes % and _ literally', [{ key: 'url', value: '50%_', operator: 'icontains' }], ['e1']],
        ['not_icontains', [{ key: 'url', value: 'sale', operator: 'not_icontains' }], ['e4', 'e3', 'e2']],
        ['regex', [{ key: 'url', value: '^https://example', operator: 'regex' }], ['e2']],
        ['not_regex', [{ key: 'url', value: '^https://example', operator: 'not_regex' }], ['e4', 'e3', 'e1']],
        ['regex with re2’s word boundary', [{ key: '$browser', value: '\\bSaf', operator: 'regex' }], ['e3']],
        ['regex with re2’s leading flags', [{ key: '$browser', value: '(?i)^chrome$', operator: 'regex' }], ['e1']],
        ['gt reads numeric strings as numbers', [{ key: 'price', value: 10, operator: 'gt' }], ['e3', 'e2']],
        ['gte', [{ key: 'price', value: '10', operator: 'gte' }], ['e3', 'e2', 'e1']],
        ['lt', [{ key: 'price', value: 25.5, operator: 'lt' }], ['e1']],
        ['lte', [{ key: 'price', value: 25.5, operator: 'lte' }], ['e2', 'e1']],
        ['is_set', [{ key: 'price', operator: 'is_set' }], ['e3', 'e2', 'e1']],
        ['is_set counts a JSON null as not set', [{ key: 'note', operator: 'is_set' }], []],
        ['is_not_set', [{ key: 'price', operator: 'is_not_set' }], ['e4']],
        ['is_date_exact with a day', [{ key: 'date_prop', value: '2026-01-15', operator: 'is_date_exact' }], ['e1']],
        ['is_date_exact with a date-time', [{ key: 'date_prop', value: '2026-01-15T10:00:00Z', operator: 'is_date_exact' }], ['e1']],
        ['is_date_exact with another time', [{ key: 'date_prop', value: '2026-01-15T11:00:00Z', operator: 'is_date_exact' }], []],
        ['is_date_before', [{ key: 'date_prop', value: '2026-01-20', operator: 'is_date_before' }], ['e1']],
        ['is_date_after', [{ key: 'date_prop', value: '2026-01-20T00:00:00Z', operator: 'is_date_after' }], ['e2']],
        ['in', [{ key: '$browser', value: ['Firefox'], operator: 'in' }], ['e2']],
        ['not_in', [{ key: '$browser', value: ['Firefox'], operator: 'not_in' }], ['e4', 'e3', 'e1']],
        ['exact on a boolean', [{ key: 'flag', value: true }], ['e1']],
        ['exact on a boolean given as text', [{ key: 'flag', value: 'false' }], ['e2']],
        ['a key with spaces', [{ key: 'key with spaces', value: 'yes' }], ['e3']],
      ];
      for (const [name, filters, want] of cases) {
        it(name, async () => {
          const res = await list({ properties: filters });
          expect(res.status, res.text).to.equal(200);
          expect(labels(res.body)).to.deep.equal(want);
        });
      }
    });

    describe('properties: every filter type and nested groups', () => {
      const cases: [string, unknown, string[]][] = [
        ['person', [{ key: 'plan', value: 'pro', type: 'person' }], ['e3', 'e1']],
        ['person is_not holds for events without a person', [{ key: 'plan', value: 'pro', operator: 'is_not', type: 'person' }], ['e4', 'e2']],
        ['element tag_name', [{ key: 'tag_name', value: 'button', type: 'element' }], ['e4']],
        ['element text', [{ key: 'text', value: 'Buy now', type: 'element' }], ['e4']],
        ['element text icontains', [{ key: 'text', value: 'BUY', operator: 'icontains', type: 'element' }], ['e4']],
        ['element text is_not', [{ key: 'text', value: 'Buy now', operator: 'is_not', type: 'element' }], ['e3', 'e2', 'e1']],
        ['element href is_set', [{ key: 'href', operator: 'is_set', type: 'element' }], []],
        ['element text is_set', [{ key: 'text', operator: 'is_set', type: 'element' }], ['e4']],
        ['element text is_not_set', [{ key: 'text', operator: 'is_not_set', type: 'element' }], ['e3', 'e2', 'e1']],
        ['element selector with descendant', [{ key: 'selector', value: 'form#checkout button.cta', type: 'element' }], ['e4']],
        ['element selector with attribute', [{ key: 'selector', value: '[data-attr="buy"]', type: 'element' }], ['e4']],
        ['element selector that does not match', [{ key: 'selector', value: 'nav button', type: 'element' }], []],
        ['group', [{ key: 'industry', value: 'retail', type: 'group', group_type_index: 0 }], ['e2']],
        ['group is_not', [{ key: 'industry', value: 'retail', operator: 'is_not', type: 'group', group_type_index: 0 }], ['e4', 'e3', 'e1']],
        ['hogql', [{ key: 'properties.price * 2 > 30', type: 'hogql' }], ['e3', 'e2']],
        ['event_metadata', [{ key: 'distinct_id', value: 'ada', type: 'event_metadata' }], ['e3', 'e1']],
        [
          'an OR group',
          { type: 'OR', values: [{ key: '$browser', value: 'Chrome' }, { key: 'event', value: 'purchase', type: 'event_metadata' }] },
          ['e4', 'e1'],
        ],
        [
          'groups nested three deep',
          {
            type: 'AND',
            values: [
              { type: 'OR', values: [{ key: 'plan', value: 'pro', type: 'person' }, { type: 'AND', values: [{ key: 'flag', value: false }] }] },
              { key: 'price', value: 20, operator: 'lt' },
            ],
          },
          ['e1'],
        ],
        ['an empty list', [], ['e4', 'e3', 'e2', 'e1']],
      ];
      for (const [name, filters, want] of cases) {
        it(name, async () => {
          const res = await list({ properties: filters });
          expect(res.status, res.text).to.equal(200);
          expect(labels(res.body)).to.deep.equal(want);
        });
      }
    });

    describe('where (HogQL conditions, all of which must hold)', () => {
      const cases: [string[], string[]][] = [
        [["event = 'pageview'", 'properties.price > 20'], ['e2']],
        [["person.properties.plan = 'pro'"], ['e3', 'e1']],
        [["toDate(timestamp) = '2026-01-11'"], ['e2']],
        [["properties.$browser ilike 'c%' or distinct_id = 'carol'"], ['e4', 'e1']],
        [["properties['key with spaces'] = 'yes'"], ['e3']],
        [['properties.note is null and properties.label is not null'], ['e4', 'e3', 'e2', 'e1']],
        [["elements_chain like '%checkout%'"], ['e4']],
        [["uuid in ('0190f1c4-0000-7000-8000-000000000002', '0190f1c4-0000-7000-8000-000000000003')"], ['e3', 'e2']],
        [["dateDiff('day', timestamp, toDateTime('2026-01-14T00:00:00Z')) >= 3"], ['e2', 'e1']],
        [["if(properties.flag, 'yes', 'no') = 'no'"], ['e4', 'e3', 'e2']],
        [["multiIf(price_missing = 1, 1, 0) = 0"], []],
        // e3's price is the text '100', read as a number; e4 has none.
        [["multiIf(properties.price > 20, 'high', properties.price > 0, 'low', 'none') = 'low'"], ['e1']],
        [["multiIf(properties.price > 20, 'high', properties.price > 0, 'low', 'none') = 'high'"], ['e3', 'e2']],
        [["multiIf(properties.price > 20, 'high', properties.price > 0, 'low', 'none') = 'none'"], ['e4']],
        // A backslash before other than a quote or a known escape stays, as in PostHog: \\_ is a literal underscore.
        [["event like 'pagevie_'"], ['e2', 'e1']],
        // An event without the property is neither between nor not between (e4 has no price).
        [['properties.price not between 11 and 25'], ['e3', 'e2', 'e1']],
        [['properties.price between 11 and 25.5'], ['e2']],
        // An event without a group has '' as its $group_N, as in PostHog (e2 is acme's).
        [["$group_0 = ''"], ['e4', 'e3', 'e1']],
        [["$group_0 != ''", "$group_1 = ''"], ['e2']],
        [["event like 'pagevie\\_'"], []],
        // re2's \\b, \\w, \\d and \\s are ASCII only: é is no word character, ٣ (Arabic-Indic three) no digit.
        [["match('café', 'caf\\\\b') and match('é', '^\\\\W$') and not match('٣', '\\\\d') and match('a b', 'a\\\\sb')"], ['e4', 'e3', 'e2', 'e1']],
        [["match('café', 'caf\\\\B') or match('é', '\\\\w') or match('\u00a0', '\\\\s')"], []],
      ];
      for (const [given, want] of cases) {
        it(JSON.stringify(given), async () => {
          const res = await list({ where: given });
          if (given[0]!.includes('price_missing')) {
            expect(res.status).to.equal(400);
            expect(res.body).to.deep.equal({
              type: 'validation_error',
              code: 'invalid_input',
              detail: 'Unknown field "price_missing".',
              attr: 'where',
            });
            return;
          }
          expect(res.status, res.text).to.equal(200);
          expect(labels(res.body)).to.deep.equal(want);
        });
      }
    });

    describe('select', () => {
      it('returns rows of the values asked for, in order, with the column names', async () => {
        const res = await list({
          select: ['event', 'properties.price', 'person.properties.email AS email', 'toDate(timestamp)', 'timestamp'],
          orderBy: ['timestamp'],
        });
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.deep.equal({
          columns: ['event', 'properties.price', 'email', 'toDate(timestamp)', 'timestamp'],
          next: null,
          results: [
            ['pageview', 10, 'ada@example.com', '2026-01-10', '2026-01-10T10:00:00.000Z'],
            ['pageview', 25.5, null, '2026-01-11', '2026-01-11T10:00:00.000Z'],
            ['signup', '100', 'ada@example.com', '2026-01-12', '2026-01-12T10:00:00.123456Z'],
            ['purchase', null, null, '2026-01-13', '2026-01-13T10:00:00.000Z'],
          ],
        });
      });

      it('reads comments in select and where as white space, and echoes the select entries as written', async () => {
        const res = await list({
          select: ['event -- the name', 'count() /* + 1 */ AS n', "'a -- b' AS `c -- d`"],
          where: ["event != 'signup' -- not signups\n", "properties.price /* or */ IS NOT NULL"],
        });
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.deep.equal({
          columns: ['event -- the name', 'n', 'c -- d'],
          next: null,
          results: [['pageview', 2, 'a -- b']],
        });
      });

      it('groups by the expressions that are not aggregates, largest first', async () => {
        const res = await list({ select: ['event', 'count() AS n', 'sum(properties.price)'] });
        expect(res.body).to.deep.equal({
          columns: ['event', 'n', 'sum(properties.price)'],
          next: null,
          results: [
            ['pageview', 2, 35.5],
            ['purchase', 1, 0],
            ['signup', 1, 100],
          ],
        });
      });

      it('groups by the other expressions when an aggregate is only in a condition of if or multiIf', async () => {
        const res = await list({
          select: ['event', "if(count() > 1, 'many', 'one') AS how_many", "multiIf(sum(properties.price) > 50, 'big', count() > 1, 'busy', 'small')"],
        });
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.deep.equal({
          columns: ['event', 'how_many', "multiIf(sum(properties.price) > 50, 'big', count() > 1, 'busy', 'small')"],
          next: null,
          results: [
            ['purchase', 'one', 'small'],
            ['signup', 'one', 'big'],
            ['pageview', 'many', 'busy'],
          ],
        });
      });

      it('truncates dates and changes case with toStartOfDay, toStartOfWeek, toStartOfMonth, today and upper', async () => {
        const res = await list({
          select: ['upper(event)', 'toStartOfDay(timestamp)', 'toStartOfWeek(timestamp)', 'toStartOfMonth(timestamp)', 'today() > toDate(timestamp)'],
          orderBy: ['timestamp'],
        });
        expect(res.status, res.text).to.equal(200);
        // 2026-01-10 is a Saturday: its week, as ClickHouse's default, starts on Sunday the 4th.
        expect(res.body.results).to.deep.equal([
          ['PAGEVIEW', '2026-01-10T00:00:00.000Z', '2026-01-04', '2026-01-01', true],
          ['PAGEVIEW', '2026-01-11T00:00:00.000Z', '2026-01-11', '2026-01-01', true],
          ['SIGNUP', '2026-01-12T00:00:00.000Z', '2026-01-11', '2026-01-01', true],
          ['PURCHASE', '2026-01-13T00:00:00.000Z', '2026-01-11', '2026-01-01', true],
        ]);
      });

      it('aggregates the whole window without a group', async () => {
        const res = await list({
          select: ['count()', 'uniq(distinct_id)', 'avg(properties.price)', 'min(timestamp)', "countIf(event = 'pageview')"],
          where: ["event != 'nothing'"],
        });
        expect(res.body.results).to.deep.equal([[4, 3, 45.166666666666664, '2026-01-10T10:00:00.000Z', 2]]);
      });

      it('adds seconds to a datetime, as ClickHouse does', async () => {
        const res = await list({ select: ['timestamp + 1', 'timestamp - 0.5', '60 + timestamp', 'timestamp + properties.price'], where: ["event = 'signup'"] });
        expect(res.body.results).to.deep.equal([
          ['2026-01-12T10:00:01.123456Z', '2026-01-12T09:59:59.623456Z', '2026-01-12T10:01:00.123456Z', '2026-01-12T10:01:40.123456Z'],
        ]);
      });

      it('keeps a property as stored beside a literal in ifNull, coalesce and if', async () => {
        const res = await list({
          select: ['properties.label', 'ifNull(properties.price, 0)', 'coalesce(properties.$browser, 0)', "if(properties.price > 20, properties.$browser, 'cheap')"],
          orderBy: ['timestamp'],
        });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.results).to.deep.equal([
          ['e1', 10, 'Chrome', 'cheap'],
          ['e2', 25.5, 'Firefox', 'Firefox'],
          ['e3', '100', 'Safari', 'Safari'],
          ['e4', 0, 0, 'cheap'],
        ]);
      });

      it('orders two JSON values as numbers when both read as numbers, as text otherwise', async () => {
        const res = await list({
          select: [
            'properties.label',
            'properties.price > ifNull(properties.nothing, 20)',
            "ifNull(properties.$browser, 'Chrome') >= ifNull(properties.nothing, 'Firefox')",
          ],
          orderBy: ['timestamp'],
        });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.results).to.deep.equal([
          ['e1', false, false],
          ['e2', true, true],
          ['e3', true, true],
          ['e4', false, false],
        ]);
      });

      it('matches an object or array property with the compact JSON text clients send', async () => {
        const other = await newAccount(testDb(), { scopes: ['query:read'] });
        await insertEvents(testDb(), other.environment.id, [
          { uuid: '0190f1c4-0000-7000-8000-0000000000b1', event: 'e', distinct_id: 'x', timestamp: '2026-01-10T10:00:00Z', properties: { arr: [1, 2], obj: { a: { b: 1 } } } },
          { uuid: '0190f1c4-0000-7000-8000-0000000000b2', event: 'f', distinct_id: 'x', timestamp: '2026-01-11T10:00:00Z', properties: { arr: [2, 1], obj: { a: 1 } } },
        ]);
        const otherList = (params: Record<string, unknown>) =>
          server.http.withKey(other.key).get(`/api/projects/${other.environment.id}/events/?${qs(params)}`);
        const names = async (params: Record<string, unknown>) => ((await otherList(params)).body.results as { event: string }[]).map((event) => event.event);
        expect(await names({ where: ["properties.arr = '[1,2]'"] })).to.deep.equal(['e']);
        expect(await names({ where: ['properties.obj = \'{"a":{"b":1}}\''] })).to.deep.equal(['e']);
        expect(await names({ where: ["properties.arr != '[1,2]'"] })).to.deep.equal(['f']);
        expect(await names({ where: ["properties.arr in ('[2,1]', '[3]')"] })).to.deep.equal(['f']);
        expect(await names({ properties: [{ key: 'obj', value: '{"a": 1}' }] })).to.deep.equal(['f']);
        expect(await names({ properties: [{ key: 'arr', value: '[1,2]', operator: 'is_not' }] })).to.deep.equal(['f']);
      });

      it('takes min and max of a property as numbers when every value reads as one, as text otherwise', async () => {
        const res = await list({
          select: ['min(properties.$browser)', 'max(properties.$browser)', 'min(properties.price)', 'max(properties.price)', 'max(properties.nothing)'],
          where: ["event != 'nothing'"],
        });
        expect(res.status, res.text).to.equal(200);
        expect(res.body.results).to.deep.equal([['Chrome', 'Safari', 10, 100, null]]);
      });

      it('reads Unix seconds beyond the range of dates as no date, so that one such event fails no date filter', async () => {
        const other = await newAccount(testDb(), { scopes: ['query:read'] });
        // West of UTC: a time just inside PostgreSQL's range would leave it on the way to the wall clock.
        await testDb()('environments').where({ id: other.environment.id }).update({ timezone: 'America/Los_Angeles' });
        await insertEvents(testDb(), other.environment.id, [
          { uuid: '0190f1c4-0000-7000-8000-0000000000a0', event: 'edge', distinct_id: 'x', timestamp: '2026-01-09T10:00:00Z', properties: { ts: -210866800000 } },
          { uuid: '0190f1c4-0000-7000-8000-0000000000a1', event: 'far', distinct_id: 'x', timestamp: '2026-01-10T10:00:00Z', properties: { ts: -999999999999 } },
          { uuid: '0190f1c4-0000-7000-8000-0000000000a2', event: 'near', distinct_id: 'x', timestamp: '2026-01-11T10:00:00Z', properties: { ts: 1795255200 } },
        ]);
        const otherList = (params: Record<string, unknown>) =>
          server.http.withKey(other.key).get(`/api/projects/${other.environment.id}/events/?${qs(params)}`);
        const filtered = await otherList({ properties: [{ key: 'ts', value: '2020-01-01', operator: 'is_date_after' }] });
        expect([filtered.status, filtered.body.results?.map((event: { event: string }) => event.event)]).to.deep.equal([200, ['near']]);
        const selected = await otherList({
          select: ['event', 'toDateTime(properties.ts)', 'toDateTime(toInt(properties.ts))', 'toDate(properties.ts)'],
          orderBy: ['timestamp'],
        });
        expect([selected.status, selected.body.results]).to.deep.equal([
          200,
          [
            ['edge', null, null, null],
            ['far', null, null, null],
            ['near', '2026-11-21T10:00:00.000Z', '2026-11-21T10:00:00.000Z', '2026-11-21'],
          ],
        ]);
      });

      it('pages rows by keyset and groups by offset through next', async () => {
        const first = await list({ select: ['properties.label'], limit: 3 });
        expect(first.body.results).to.deep.equal([['e4'], ['e3'], ['e2']]);
        const second = await client.get(pathOf(first.body.next));
        expect(second.body).to.deep.equal({ columns: ['properties.label'], next: null, results: [['e1']] });

        const grouped = await list({ select: ['event', 'count()'], limit: 2 });
        expect(grouped.body.results).to.deep.equal([['pageview', 2], ['purchase', 1]]);
        const rest = await client.get(pathOf(grouped.body.next));
        expect(rest.body).to.deep.equal({ columns: ['event', 'count()'], next: null, results: [['signup', 1]] });
      });
    });

    it('pages with limit, next keeping every other parameter and dropping offset', async () => {
      const res = await list({ event: 'pageview', limit: 1, offset: 0 });
      expect(labels(res.body)).to.deep.equal(['e2']);
      const next = new URL(res.body.next);
      expect(next.pathname).to.equal(base);
      expect(next.searchParams.get('event')).to.equal('pageview');
      expect(next.searchParams.get('limit')).to.equal('1');
      expect(next.searchParams.has('offset')).to.equal(false);
      expect(next.searchParams.get('cursor')).to.be.a('string');
      const second = await client.get(pathOf(res.body.next));
      expect(labels(second.body)).to.deep.equal(['e1']);
      expect(second.body.next).to.equal(null);
    });

    it('skips with offset and orders oldest first with orderBy ["timestamp"]', async () => {
      expect(labels((await list({ offset: 1, limit: 2 })).body)).to.deep.equal(['e3', 'e2']);
      expect(labels((await list({ orderBy: ['timestamp'] })).body)).to.deep.equal(['e1', 'e2', 'e3', 'e4']);
      expect(labels((await list({ orderBy: ['-timestamp'] })).body)).to.deep.equal(['e4', 'e3', 'e2', 'e1']);
    });

    it('defaults to 100 events a page and lowers a limit above 1,000 to 1,000', async () => {
      const many = await newAccount(testDb());
      const start = Date.parse('2026-02-01T00:00:00Z');
      await insertEvents(
        testDb(),
        many.environment.id,
        Array.from({ length: 1001 }, (_, index) => ({ event: 'e', distinct_id: 'd', timestamp: new Date(start + index * 1000) })),
      );
      const manyClient = server.http.withKey(many.key);
      const path = `/api/projects/${many.environment.id}/events/`;
      const byDefault = await manyClient.get(path);
      expect(byDefault.body.results).to.have.length(100);
      expect(byDefault.body.next).to.be.a('string');
      const capped = await manyClient.get(`${path}?limit=5000`);
      expect(capped.status).to.equal(200);
      expect(capped.body.results).to.have.length(1000);
      const last = await manyClient.get(pathOf(capped.body.next));
      expect(last.body.results).to.have.length(1);
      expect(last.body.next).to.equal(null);
    });

    describe('format=csv', () => {
      it('answers text/csv with a header row and nested objects flattened to dotted columns, without next', async () => {
        const res = await list({ format: 'csv', event: 'signup' });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
        expect(res.text).to.equal(
          'id,distinct_id,properties.$browser,properties.key with spaces,properties.label,properties.note,properties.price,event,timestamp,' +
            'person.distinct_ids.0,person.is_identified,person.properties.email,person.properties.name,elements_chain\r\n' +
            '0190f1c4-0000-7000-8000-000000000003,ada,Safari,yes,e3,,100,signup,2026-01-12T10:00:00.123456Z,ada,true,ada@example.com,Ada,\r\n',
        );
      });

      it('flattens elements and writes select rows under their column names', async () => {
        const events = await list({ format: 'csv', event: 'purchase' });
        const [header, row] = events.text.split('\r\n');
        expect(header).to.include('elements.0.tag_name');
        expect(header).to.include('elements.1.attr_id');
        expect(row).to.include('"button.cta.primary:attr__data-attr=""buy""');
        const rows = await list({ format: 'csv', select: ['event', 'count() as n'] });
        expect(rows.text).to.equal('event,n\r\npageview,2\r\npurchase,1\r\nsignup,1\r\n');
      });
    });

    describe('refuses what it cannot read, naming the parameter', () => {
      const cases: [Record<string, unknown>, string, string | RegExp][] = [
        [{ properties: '{not json' }, 'properties', 'Properties are unparsable!'],
        [{ properties: [{ key: 'a', value: 1, operator: 'nearly' }] }, 'properties', '"nearly" is not a valid operator.'],
        [{ properties: [{ key: 'a', value: 1, type: 'cohort' }] }, 'properties', 'Property filters of type "cohort" are not supported.'],
        [{ properties: [{ key: 'a', value: 1, type: 'bogus' }] }, 'properties', 'Invalid property type: bogus.'],
        [{ properties: [{ key: 'a', value: '(', operator: 'regex' }] }, 'properties', /not a valid regular expression/],
        [{ properties: [{ key: 'a', value: '\\p{L}', operator: 'regex' }] }, 'properties', /no Unicode classes/],
        [{ properties: [{ key: 'text', value: 'x{1000}', operator: 'regex', type: 'element' }] }, 'properties', /at most 255 times/],
        [{ where: ["match(event, 'x{1000}')"] }, 'where', /at most 255 times/],
        [{ where: ["event like '%\\\\'"] }, 'where', /cannot end with a backslash/],
        // (A datetime moved beyond the range by an interval is null instead: query-hogql-dates.test.ts.)
        [{ select: ['9007199254740991 * 9007199254740991'] }, 'select', 'A number or date in the query is out of range.'],
        [{ where: ['9007199254740991 * 9007199254740991 > 0'] }, 'where', 'A number or date in the query is out of range.'],
        [{ select: 'event' }, 'select', /JSON list of HogQL expressions/],
        [{ select: [] }, 'select', 'select must name at least one expression.'],
        [{ select: ['version()'] }, 'select', 'Unknown function "version".'],
        [{ select: ['event +'] }, 'select', /Expected an expression/],
        [{ select: ['concat(event, toString(count()))'] }, 'select', /grouped by/],
        [{ where: ['count() > 1'] }, 'where', 'Aggregate functions such as count() are not allowed in where.'],
        [{ where: ["event = 'x'; delete from events"] }, 'where', 'Unexpected character ";" at position 12.'],
        [{ where: ['team_id = 1'] }, 'where', 'Unknown field "team_id".'],
        [{ where: [1] }, 'where', /JSON list of HogQL expressions/],
        [{ after: 'yesterday' }, 'after', '"yesterday" is not an ISO 8601 date-time or a relative date such as -7d.'],
        [{ after: '-2027y' }, 'after', '"-2027y" is not an ISO 8601 date-time or a relative date such as -7d.'],
        [{ before: '0000-06-01' }, 'before', '"0000-06-01" is not an ISO 8601 date-time or a relative date such as -7d.'],
        [{ before: '2026-13-01' }, 'before', /not an ISO 8601 date-time/],
        [{ orderBy: ['event'] }, 'orderBy', 'orderBy must be ["timestamp"] or ["-timestamp"].'],
        [{ cursor: 'abc' }, 'cursor', 'The cursor is not valid; use the next link of a previous page.'],
        [
          { cursor: Buffer.from(JSON.stringify({ o: 2 ** 40 + 1 })).toString('base64url') },
          'cursor',
          'The cursor is not valid; use the next link of a previous page.',
        ],
        [{ person_id: 'nobody' }, 'person_id', 'person_id must be a person’s id or UUID.'],
        [{ limit: 0 }, 'limit', 'Ensure this value is greater than or equal to 1.'],
        [{ limit: 'many' }, 'limit', 'A valid integer is required.'],
        [{ offset: 100001 }, 'offset', 'Ensure this value is less than or equal to 100000.'],
        [{ format: 'xml' }, 'format', '"xml" is not a valid choice.'],
      ];
      for (const [given, attr, detail] of cases) {
        it(`${JSON.stringify(given)} → 400 (${attr})`, async () => {
          const res = await list(given);
          expect(res.status).to.equal(400);
          expect(res.body.type).to.equal('validation_error');
          expect(res.body.attr).to.equal(attr);
          if (typeof detail === 'string') expect(res.body.detail).to.equal(detail);
          else expect(res.body.detail).to.match(detail);
        });
      }
    });

    it('cancels a query that runs past the statement timeout (504)', async () => {
      const impatient = await startTestServer({ config: { queryTimeoutMs: 200 } });
      try {
        await testDb().transaction(async (trx) => {
          await trx.raw('lock table events in access exclusive mode');
          const res = await impatient.http.withKey(account.key).get(base);
          expect(res.status).to.equal(504);
          expect(res.body).to.deep.equal({
            type: 'server_error',
            code: 'query_timeout',
            detail: 'The query ran longer than 200 ms and was cancelled. Narrow it with after and before, or more selective filters.',
            attr: null,
          });
        });
      } finally {
        await impatient.close();
      }
    });
  });

  describe('events_retrieve', () => {
    it('returns the event, also as CSV', async () => {
      const res = await client.get(`${base}0190f1c4-0000-7000-8000-000000000001/`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({
        id: '0190f1c4-0000-7000-8000-000000000001',
        event: 'pageview',
        distinct_id: 'ada',
        timestamp: '2026-01-10T10:00:00.000Z',
        elements: [],
        elements_chain: '',
      });
      expect(res.body.person).to.deep.equal({ is_identified: true, distinct_ids: ['ada'], properties: { email: 'ada@example.com', name: 'Ada' } });
      const csv = await client.get(`${base}0190F1C4-0000-7000-8000-000000000002/?format=csv`);
      expect(csv.status).to.equal(200);
      expect(csv.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(csv.text.split('\r\n')[1]).to.match(/^0190f1c4-0000-7000-8000-000000000002,bob,Firefox,/);
    });

    it('takes a UUID without its hyphens, and answers CSV when the Accept header asks for it as DRF negotiates', async () => {
      const plain = await client.get(`${base}0190f1c4000070008000000000000002/`);
      expect([plain.status, plain.body.id]).to.deep.equal([200, '0190f1c4-0000-7000-8000-000000000002']);
      const asked = await client.get(`${base}0190f1c4-0000-7000-8000-000000000002/`, { headers: { accept: 'text/csv' } });
      expect([asked.status, asked.headers.get('content-type'), asked.text.split('\r\n')[1]?.slice(0, 36)]).to.deep.equal([
        200,
        'text/csv; charset=utf-8',
        '0190f1c4-0000-7000-8000-000000000002',
      ]);
      expect(asked.headers.get('vary')).to.include('Accept');
      // The most specific ranges first, JSON winning a tie, quality values not read (Django REST framework).
      const negotiated: Array<[accept: string, type: string]> = [
        ['text/csv, application/json;q=0.5', 'application/json'],
        ['*/*, text/csv', 'text/csv'],
        ['text/*', 'text/csv'],
        ['*/*', 'application/json'],
        ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/json'],
      ];
      for (const [accept, type] of negotiated) {
        const answer = await client.get(`${base}?${qs({ event: 'signup' })}`, { headers: { accept } });
        expect(answer.headers.get('content-type'), accept).to.equal(`${type}; charset=utf-8`);
      }
      const listed = await client.get(`${base}?${qs({ event: 'signup' })}`, { headers: { accept: 'text/csv' } });
      expect([listed.headers.get('content-type'), listed.text.split('\r\n').length]).to.deep.equal(['text/csv; charset=utf-8', 3]);
      const json = await client.get(`${base}?${qs({ event: 'signup', format: 'json' })}`, { headers: { accept: 'text/csv' } });
      expect(json.body.results).to.have.length(1);
      const values = await client.get(`${base}values/?key=$browser`, { headers: { accept: 'text/csv' } });
      expect(values.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    });

    it('answers 400 for an id that is not a UUID', async () => {
      const res = await client.get(`${base}not-a-uuid/`);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ type: 'validation_error', code: 'invalid', detail: 'Invalid UUID', attr: 'id' });
    });

    it('answers 404 for a missing event and for another project’s event', async () => {
      const missing = await client.get(`${base}0190f1c4-0000-7000-8000-0000000000ff/`);
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({
        type: 'invalid_request',
        code: 'not_found',
        detail: 'No events exist for event UUID 0190f1c4-0000-7000-8000-0000000000ff',
        attr: null,
      });
      const other = await newAccount(testDb());
      const [uuid] = await insertEvents(testDb(), other.environment.id, [{ event: 'x', distinct_id: 'x', timestamp: new Date() }]);
      expect((await client.get(`${base}${uuid}/`)).status).to.equal(404);
    });
  });

  describe('events_values_retrieve', () => {
    let valuesClient: HttpClient;
    let path: string;
    before(async () => {
      const recent = await newAccount(testDb());
      valuesClient = server.http.withKey(recent.key);
      path = `/api/projects/${recent.environment.id}/events/values/`;
      const now = Date.now();
      const at = (minutes: number) => new Date(now - minutes * 60_000);
      await insertEvents(testDb(), recent.environment.id, [
        { event: '$pageview', distinct_id: 'a', timestamp: at(1), properties: { $browser: 'Chrome' } },
        { event: '$pageview', distinct_id: 'a', timestamp: at(2), properties: { $browser: 'Chrome' } },
        { event: 'signup', distinct_id: 'a', timestamp: at(3), properties: { $browser: 'Firefox', plan: 3 } },
        { event: '$pageview', distinct_id: 'b', timestamp: at(4), properties: { $browser: 'Chromium' } },
        { event: '$pageview', distinct_id: 'b', timestamp: at(5), properties: { $browser: null } },
        { event: 'old', distinct_id: 'b', timestamp: at(8 * 24 * 60), properties: { $browser: 'Netscape' } },
      ]);
    });

    const cases: [Record<string, unknown>, unknown[]][] = [
      [{ key: '$browser' }, [{ name: 'Chrome' }, { name: 'Chromium' }, { name: 'Firefox' }]],
      [{ key: '$browser', value: 'CHROM' }, [{ name: 'Chrome' }, { name: 'Chromium' }]],
      [{ key: '$browser', event_name: ['signup'] }, [{ name: 'Firefox' }]],
      [{ key: '$browser', event_name: ['signup', '$pageview'], value: 'fire' }, [{ name: 'Firefox' }]],
      [{ key: 'plan' }, [{ name: 3 }]],
      [{ key: 'event', is_column: true }, [{ name: '$pageview' }, { name: 'signup' }]],
      [{ key: 'custom_event' }, [{ name: 'signup' }]],
      [{ key: 'nothing' }, []],
    ];
    for (const [given, want] of cases) {
      it(`${JSON.stringify(given)} → the recent values`, async () => {
        const res = await valuesClient.get(`${path}?${qs(given)}`);
        expect(res.status, res.text).to.equal(200);
        expect(res.body).to.deep.equal(want);
      });
    }

    it('answers CSV with format=csv', async () => {
      const res = await valuesClient.get(`${path}?${qs({ key: '$browser', format: 'csv' })}`);
      expect(res.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(res.text).to.equal('name\r\nChrome\r\nChromium\r\nFirefox\r\n');
    });

    it('needs a key', async () => {
      const res = await valuesClient.get(path);
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ type: 'validation_error', code: 'required', detail: 'This field is required.', attr: 'key' });
      const empty = await valuesClient.get(`${path}?key=`);
      expect([empty.status, empty.body]).to.deep.equal([
        400,
        { type: 'validation_error', code: 'invalid_input', detail: 'You must provide a key', attr: null },
      ]);
      const column = await valuesClient.get(`${path}?${qs({ key: 'properties', is_column: true })}`);
      expect(column.status).to.equal(400);
      expect(column.body.attr).to.equal('key');
    });
  });

  describe('the spec’s examples', () => {
    it('are what the server answers for the event they show, as JSON, as a page and as CSV', async () => {
      const example = (operationId: string, type: string, name: string) =>
        specOperations().find((operation) => operation.operationId === operationId)!.responses['200']!.content![type]!.examples![name]!.value;
      const shown = await newAccount(testDb(), { scopes: ['query:read'] });
      await insertPerson(testDb(), shown.environment.id, { distinctIds: ['user-1'], properties: { email: 'ada@example.com' }, isIdentified: true });
      await insertEvents(testDb(), shown.environment.id, [
        {
          uuid: '0190f1c4-aaaa-7bbb-8ccc-dddddddddddd',
          event: '$pageview',
          distinct_id: 'user-1',
          timestamp: '2026-11-21T10:00:00Z',
          properties: { $current_url: 'https://example.com/' },
        },
      ]);
      const shownClient = server.http.withKey(shown.key);
      const path = `/api/projects/${shown.environment.id}/events/`;
      const one = await shownClient.get(`${path}0190f1c4-aaaa-7bbb-8ccc-dddddddddddd/`);
      expect(one.body).to.deep.equal(example('events_retrieve', 'application/json', 'pageview'));
      expect((await shownClient.get(path)).body).to.deep.equal(example('events_list', 'application/json', 'one_page'));
      const csv = await shownClient.get(`${path}?format=csv`);
      expect(csv.text).to.equal((example('events_list', 'text/csv', 'csv') as string).replace(/\n/g, '\r\n'));
    });
  });

  // The environment twins of the deprecated listing answer as the project paths do.
  describe('environments_events_list', () => {
    it('answers as events_list: the same rows, a next link under /api/environments/, and CSV', async () => {
      const environmentBase = `/api/environments/${account.environment.id}/events/`;
      const params = { properties: [{ key: 'plan', value: 'pro', type: 'person' }], limit: 1 };
      const project = await list(params);
      const environment = await list(params, environmentBase);
      expect(environment.status).to.equal(200);
      expect(environment.body.results).to.deep.equal(project.body.results);
      expect(new URL(environment.body.next).pathname).to.equal(environmentBase);
      const csv = await client.get(`${environmentBase}?${qs({ format: 'csv', select: ['count()'] })}`);
      expect(csv.text).to.equal('count()\r\n4\r\n');
    });
  });

  describe('environments_events_retrieve', () => {
    it('returns the event as events_retrieve does', async () => {
      const event = await client.get(`/api/environments/${account.environment.id}/events/0190f1c4-0000-7000-8000-000000000004/`);
      expect(event.body.event).to.equal('purchase');
    });
  });

  describe('environments_events_values_retrieve', () => {
    it('answers as events_values_retrieve', async () => {
      // values/ reads the last 7 days: a project with recent events, asked both ways.
      const recent = await newAccount(testDb());
      await insertEvents(testDb(), recent.environment.id, [
        { event: '$pageview', distinct_id: 'a', timestamp: new Date(), properties: { $browser: 'Chrome' } },
      ]);
      const recentClient = server.http.withKey(recent.key);
      for (const resource of ['projects', 'environments']) {
        const values = await recentClient.get(`/api/${resource}/${recent.environment.id}/events/values/?key=$browser`);
        expect([resource, values.status, values.body]).to.deep.equal([resource, 200, [{ name: 'Chrome' }]]);
      }
    });
  });
});

/** The path and query of an absolute `next` link, to send through the test client. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
