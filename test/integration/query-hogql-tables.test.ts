/**
 * The tables PostHog's queries read, through POST …/query/ on a fixed data set: the sessions table with PostHog's
 * fields (bounces, multi-page sessions, UTM parameters) and events' `session.…`, person_distinct_ids and events'
 * `pdi.…`, and `poe.…` (the person's properties as stored on each event at capture, which differ from the
 * person's properties of today). A second environment holds persons, distinct ids and sessions of the same names,
 * whose rows must never show. Then the refusals: 400s naming what is not available.
 */
import { expect } from 'chai';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';
import { hogqlQueryServer, itAnswersRows, newQueryAccount, type RefusalCase, type RowsCase } from '../helpers/hogql-query-cases.js';

const ALICE = '0190c9a0-0000-7000-8000-00000000a11c';
const BOB = '0190c9a0-0000-7000-8000-000000000b0b';
const MALLORY = '0190c9a0-0000-7000-8000-0000000e5115';

const OLD_ALICE = { email: 'a@old.example' };
const NEW_ALICE = { email: 'a@new.example', plan: 'pro' };

const EVENTS: NewEvent[] = [
  // S1: alice lands from a Google ad, clicks out, views a second page two minutes later (not a bounce).
  {
    event: '$pageview',
    distinct_id: 'alice',
    timestamp: '2024-01-01T10:00:00Z',
    person_id: ALICE,
    person_properties: OLD_ALICE,
    properties: {
      $session_id: 'S1',
      $current_url: 'https://shop.test/home?x=1',
      utm_source: 'google',
      utm_medium: 'cpc',
      gclid: 'g-1',
      $referring_domain: 'www.google.com',
    },
  },
  {
    event: '$autocapture',
    distinct_id: 'alice',
    timestamp: '2024-01-01T10:00:05Z',
    person_id: ALICE,
    person_properties: OLD_ALICE,
    properties: { $session_id: 'S1', $current_url: 'https://shop.test/home?x=1', $external_click_url: 'https://out.test/' },
    elements_chain: 'a.nav:attr__href="/pricing"href="/pricing"nth-child="1"text="Pricing";div:attr_id="menu"nth-child="2";button:text="Go";a:href="/home"text="Pricing"',
  },
  {
    event: '$pageview',
    distinct_id: 'alice',
    timestamp: '2024-01-01T10:02:00.5Z',
    person_id: ALICE,
    person_properties: NEW_ALICE,
    properties: { $session_id: 'S1', $current_url: 'https://shop.test/cart#top', utm_source: 'bing' },
  },
  // S2: bob sees one page and leaves (a bounce).
  {
    event: '$pageview',
    distinct_id: 'bob',
    timestamp: '2024-01-02T12:00:00Z',
    person_id: BOB,
    properties: { $session_id: 'S2', $current_url: 'https://shop.test/' },
  },
  // S3: no pageview at all: neither a bounce nor not one.
  { event: 'signup', distinct_id: 'bob', timestamp: '2024-01-02T12:30:00Z', person_id: BOB, properties: { $session_id: 'S3' } },
  { event: 'purchase', distinct_id: 'bob', timestamp: '2024-01-02T12:45:00Z', person_id: BOB, properties: { $session_id: 'S3', $web_vitals_LCP_value: 'x' } },
  // S4: alice on her phone, the same page twice within three seconds (two pageviews: not a bounce).
  {
    event: '$pageview',
    distinct_id: 'alice-phone',
    timestamp: '2024-01-03T09:00:00Z',
    person_id: ALICE,
    properties: { $session_id: 'S4', $current_url: 'https://m.shop.test:8080/p/1', $web_vitals_LCP_value: 1250.5 },
  },
  {
    event: '$pageview',
    distinct_id: 'alice-phone',
    timestamp: '2024-01-03T09:00:03Z',
    person_id: ALICE,
    properties: { $session_id: 'S4', $current_url: 'https://m.shop.test:8080/p/1' },
  },
  // Without a session and without a person.
  { event: 'ping', distinct_id: 'carol', timestamp: '2024-01-04T00:00:00Z', properties: {} },
];

/** The other environment: the same session ids and distinct ids, each of which would change a row. */
const OTHER_EVENTS: NewEvent[] = [
  { event: '$pageview', distinct_id: 'mallory', timestamp: '2024-01-01T09:00:00Z', person_id: MALLORY, properties: { $session_id: 'S1', $current_url: 'https://evil.test/' } },
  { event: '$pageview', distinct_id: 'alice', timestamp: '2024-01-02T12:00:01Z', person_id: MALLORY, properties: { $session_id: 'S2', $current_url: 'https://evil.test/2' } },
];

const CASES: RowsCase[] = [
  {
    name: 'sessions: times, duration (second boundaries crossed), counts and bounces',
    query:
      'select session_id, distinct_id, $start_timestamp, $end_timestamp, $session_duration, $pageview_count, $autocapture_count, $screen_count, $is_bounce from sessions order by session_id',
    rows: [
      ['S1', 'alice', '2024-01-01T10:00:00.000Z', '2024-01-01T10:02:00.500Z', 120, 2, 1, 0, false],
      ['S2', 'bob', '2024-01-02T12:00:00.000Z', '2024-01-02T12:00:00.000Z', 0, 1, 0, 0, true],
      ['S3', 'bob', '2024-01-02T12:30:00.000Z', '2024-01-02T12:45:00.000Z', 900, 0, 0, 0, null],
      ['S4', 'alice-phone', '2024-01-03T09:00:00.000Z', '2024-01-03T09:00:03.000Z', 3, 2, 0, 0, false],
    ],
  },
  {
    name: 'sessions: entry and end URLs, their paths (without query or fragment) and hosts (without port)',
    query:
      'select session_id, $entry_current_url, $entry_pathname, $entry_hostname, $end_current_url, $end_pathname, $end_hostname, $exit_pathname from sessions order by session_id',
    rows: [
      ['S1', 'https://shop.test/home?x=1', '/home', 'shop.test', 'https://shop.test/cart#top', '/cart', 'shop.test', '/cart'],
      ['S2', 'https://shop.test/', '/', 'shop.test', 'https://shop.test/', '/', 'shop.test', '/'],
      ['S3', null, null, null, null, null, null, null],
      ['S4', 'https://m.shop.test:8080/p/1', '/p/1', 'm.shop.test', 'https://m.shop.test:8080/p/1', '/p/1', 'm.shop.test', '/p/1'],
    ],
  },
  {
    name: "sessions: the first event's attribution (a later utm_source changes nothing), the last external click, LCP",
    query:
      'select session_id, $entry_utm_source, $entry_utm_medium, $entry_utm_campaign, $entry_gclid, $entry_referring_domain, $last_external_click_url, $vitals_lcp from sessions order by session_id',
    rows: [
      ['S1', 'google', 'cpc', null, 'g-1', 'www.google.com', 'https://out.test/', null],
      ['S2', null, null, null, null, null, null, null],
      ['S3', null, null, null, null, null, null, null],
      ['S4', null, null, null, null, null, null, 1250.5],
    ],
  },
  {
    name: 'sessions: $urls (distinct, in the order first visited) and $num_uniq_urls',
    query: 'select session_id, $urls, $num_uniq_urls from sessions order by session_id',
    rows: [
      ['S1', ['https://shop.test/home?x=1', 'https://shop.test/cart#top'], 2],
      ['S2', ['https://shop.test/'], 1],
      ['S3', [], 0],
      ['S4', ['https://m.shop.test:8080/p/1'], 1],
    ],
  },
  {
    name: '$urls[n]: counted from 1, negative from the end, out of range an empty string',
    query: "select $urls[1], $urls[2], $urls[-1], $urls[3], $urls[-3] from sessions where session_id = 'S1'",
    rows: [['https://shop.test/home?x=1', 'https://shop.test/cart#top', 'https://shop.test/cart#top', '', '']],
  },
  {
    name: 'the bounce rate as PostHog computes it (sessions without a pageview count in neither part)',
    query: 'select countIf($is_bounce), count($is_bounce), count() from sessions',
    rows: [[1, 3, 4]],
  },
  {
    name: "events' session.* and $session_id (the other environment's S1 and S2 change nothing)",
    query: 'select event, $session_id, session.id, session.$entry_pathname, session.$is_bounce, session.$session_duration from events order by timestamp',
    rows: [
      ['$pageview', 'S1', 'S1', '/home', false, 120],
      ['$autocapture', 'S1', 'S1', '/home', false, 120],
      ['$pageview', 'S1', 'S1', '/home', false, 120],
      ['$pageview', 'S2', 'S2', '/', true, 0],
      ['signup', 'S3', 'S3', null, null, 900],
      ['purchase', 'S3', 'S3', null, null, 900],
      ['$pageview', 'S4', 'S4', '/p/1', false, 3],
      ['$pageview', 'S4', 'S4', '/p/1', false, 3],
      ['ping', null, null, null, null, null],
    ],
  },
  {
    name: 'an explicit JOIN of events and sessions',
    query: "select e.event, s.$entry_utm_source, s.$num_uniq_urls from events e join sessions s on s.session_id = e.$session_id where e.event = '$autocapture'",
    rows: [['$autocapture', 'google', 2]],
  },
  {
    name: "person_distinct_ids: the environment's distinct ids and their persons (mallory and the other alice are not here)",
    query: 'select distinct_id, person_id from person_distinct_ids order by distinct_id',
    rows: [['alice', ALICE], ['alice-phone', ALICE], ['bob', BOB]],
  },
  {
    name: 'person_distinct_ids.person.* through the table name, and SELECT *',
    query: 'select person_distinct_ids.distinct_id, person_distinct_ids.person.properties.email, person.is_identified from person_distinct_ids order by distinct_id',
    rows: [['alice', 'a@new.example', true], ['alice-phone', 'a@new.example', true], ['bob', 'b@example.com', false]],
  },
  {
    name: 'SELECT * FROM person_distinct_ids',
    query: "select * from person_distinct_ids where distinct_id = 'bob'",
    rows: [['bob', BOB]],
  },
  {
    name: 'person_distinct_ids joined to events',
    query: "select e.event, d.person_id from events e join person_distinct_ids d on d.distinct_id = e.distinct_id where e.event = 'signup'",
    rows: [['signup', BOB]],
  },
  {
    name: "events' pdi.* and pdi.person.*",
    query: 'select distinct_id, pdi.distinct_id, pdi.person_id, pdi.person.id, pdi.person.properties.email, pdi.person.created_at from events order by timestamp limit 1 by distinct_id',
    rows: [
      ['alice', 'alice', ALICE, ALICE, 'a@new.example', '2023-12-01T00:00:00.000Z'],
      ['bob', 'bob', BOB, BOB, 'b@example.com', '2023-12-02T00:00:00.000Z'],
      ['alice-phone', 'alice-phone', ALICE, ALICE, 'a@new.example', '2023-12-01T00:00:00.000Z'],
      ['carol', null, null, null, null, null],
    ],
  },
  {
    name: "poe.* is the person as stored on the event at capture; person.* is the person of today",
    query: 'select event, poe.id, poe.properties.email, poe.properties.plan, person.properties.email, poe.created_at from events where distinct_id in (\'alice\', \'carol\') order by timestamp',
    rows: [
      ['$pageview', ALICE, 'a@old.example', null, 'a@new.example', '2023-12-01T00:00:00.000Z'],
      ['$autocapture', ALICE, 'a@old.example', null, 'a@new.example', '2023-12-01T00:00:00.000Z'],
      ['$pageview', ALICE, 'a@new.example', 'pro', 'a@new.example', '2023-12-01T00:00:00.000Z'],
      ['ping', null, null, null, null, null],
    ],
  },
  {
    name: 'grouped by a property as it was at capture',
    query: 'select poe.properties.email as email, count() from events where poe.id is not null group by email order by email',
    rows: [['a@new.example', 3], ['a@old.example', 2], ['b@example.com', 3]],
  },
  {
    name: "PostHog's columns of elements_chain: the first link, the distinct texts, ids and tags in order; empty without a chain",
    query: "select event, elements_chain_href, elements_chain_texts, elements_chain_ids, elements_chain_elements from events where distinct_id = 'alice' order by timestamp limit 2",
    rows: [
      ['$pageview', '', [], [], []],
      ['$autocapture', '/pricing', ['Pricing', 'Go'], ['menu'], ['a', 'button']],
    ],
  },
  {
    name: 'event_person_id is the person the event was stored with',
    query: "select event_person_id from events where event = 'signup'",
    rows: [[BOB]],
  },
];

const REFUSALS: RefusalCase[] = [
  {
    name: '$channel_type',
    query: 'select $channel_type from sessions',
    detail:
      "The field \"$channel_type\" of sessions is not available: PostHog's channel type follows its own table of rules (referring domains, UTM values, ad ids, custom rules per project) that Hedgerow does not hold; group by $entry_utm_source, $entry_utm_medium or $entry_referring_domain instead.",
  },
  {
    name: 'session.$channel_type from events',
    query: 'select session.$channel_type from events',
    detail:
      "The field \"$channel_type\" of sessions is not available: PostHog's channel type follows its own table of rules (referring domains, UTM values, ad ids, custom rules per project) that Hedgerow does not hold; group by $entry_utm_source, $entry_utm_medium or $entry_referring_domain instead.",
  },
  {
    name: 'goe_0',
    query: 'select goe_0.properties.name from events',
    detail: "The field \"goe_0\" of events is not available: groups' properties are not stored on events; group_0 … group_4 read them as they are now.",
  },
  {
    name: '$session_id_uuid',
    query: 'select $session_id_uuid from events',
    detail: 'The field "$session_id_uuid" of events is not available: session ids are kept as the text of $session_id, not as a UUID; use $session_id.',
  },
  {
    name: "a group's updated_at",
    query: 'select updated_at from groups',
    detail: 'The field "updated_at" of groups is not available: when a group last changed is not kept; created_at is.',
  },
  {
    name: "a person's pdi",
    query: 'select pdi.distinct_id from persons',
    detail: 'The field "pdi" of persons is not available: a person has several distinct ids; read them from person_distinct_ids.',
  },
  { name: 'an unknown field of poe', query: 'select poe.email from events', detail: 'Unknown field "poe.email": poe has id, created_at, properties.' },
  { name: 'an unknown field of pdi', query: 'select pdi.secret from events', detail: 'Unknown field "pdi.secret": pdi has distinct_id, person_id, person.' },
  {
    name: 'an unknown field of person_distinct_ids',
    query: 'select team_id from person_distinct_ids',
    detail: 'Unknown field "team_id": person_distinct_ids has distinct_id, person_id, person.',
  },
  {
    name: 'an unknown field of the person of a distinct id',
    query: 'select pdi.person.secret from events',
    detail: 'Unknown field "pdi.person.secret": a person has id, created_at, is_identified, properties.',
  },
];

describe('query: HogQL, the tables PostHog queries read (sessions, person_distinct_ids, pdi, poe)', function () {
  this.timeout(60_000);
  const queries = hogqlQueryServer(async ({ db, account }) => {
    const team = account.environment.id;
    await insertPerson(db, team, { uuid: ALICE, distinctIds: ['alice', 'alice-phone'], properties: NEW_ALICE, isIdentified: true });
    await insertPerson(db, team, { uuid: BOB, distinctIds: ['bob'], properties: { email: 'b@example.com' } });
    await db('persons').where({ team_id: team, uuid: ALICE }).update({ created_at: '2023-12-01T00:00:00Z' });
    await db('persons').where({ team_id: team, uuid: BOB }).update({ created_at: '2023-12-02T00:00:00Z' });
    await insertEvents(db, team, EVENTS);

    const other = await newQueryAccount(db);
    await insertPerson(db, other.environment.id, { uuid: MALLORY, distinctIds: ['alice', 'mallory'], properties: { email: 'evil@example.com' } });
    await insertEvents(db, other.environment.id, OTHER_EVENTS);
  });

  itAnswersRows(CASES, queries);

  for (const c of REFUSALS) {
    it(`400 for ${c.name}`, async () => {
      const response = await queries.post(c.query);
      expect(response.status, JSON.stringify(response.body)).to.equal(400);
      expect(response.body.detail).to.equal(c.detail);
    });
  }

  it('SELECT * FROM sessions: the fields of PostHog\'s sessions table but its aliases', async () => {
    const response = await queries.post("select * from sessions where session_id = 'S2'");
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const columns = response.body.columns as string[];
    expect(columns.slice(0, 7)).to.deep.equal(['session_id', 'distinct_id', '$start_timestamp', '$end_timestamp', '$session_duration', '$urls', '$num_uniq_urls']);
    expect(columns).to.include.members(['$entry_pathname', '$entry_utm_source', '$is_bounce', '$vitals_lcp']);
    expect(columns).to.not.include.members(['id', 'duration', '$exit_current_url', '$exit_pathname']);
    const row = Object.fromEntries(columns.map((name, index) => [name, response.body.results[0][index]]));
    expect([row.session_id, row.$urls, row.$entry_pathname, row.$is_bounce]).to.deep.equal(['S2', ['https://shop.test/'], '/', true]);
  });

  it("counts none of another environment's sessions, distinct ids or persons", async () => {
    const counts: Array<[string, number]> = [
      ['select count() from sessions', 4],
      ["select count() from sessions where $entry_hostname = 'evil.test' or distinct_id = 'mallory'", 0],
      ['select count() from person_distinct_ids', 3],
      ["select count() from person_distinct_ids where distinct_id = 'mallory' or person.properties.email = 'evil@example.com'", 0],
      ["select count() from events where pdi.person.properties.email = 'evil@example.com' or poe.id = '" + MALLORY + "'", 0],
    ];
    for (const [query, count] of counts) {
      const response = await queries.post(query);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.results, query).to.deep.equal([[count]]);
    }
  });
});
