/**
 * The SELECT compiler's newer syntax through POST …/query/, on a fixed data set: window functions, LIMIT … BY,
 * the groups table and events' implicit joins (group_N, session, pdi), and the date, text, JSON, conditional
 * aggregate and arrayJoin functions. Each case is HogQL text and the exact rows it must answer. A second
 * environment holds groups, sessions and distinct ids of the same names, whose rows must never show. Then the
 * refusals of the new syntax (format strings, regular expressions, window frames, misplaced arrayJoin): 400s
 * with their messages, never a 500.
 */
import { expect } from 'chai';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';
import { hogqlQueryServer, itAnswersRows, itRefuses, newQueryAccount, type RefusalCase, type RowsCase } from '../helpers/hogql-query-cases.js';

const EVENTS: NewEvent[] = [
  {
    event: '$pageview',
    distinct_id: 'alice',
    timestamp: '2024-01-01T10:00:00Z',
    properties: {
      $session_id: 's1',
      $current_url: 'https://x.test/a',
      tags: 'red,blue',
      url: 'https://x.test/a?utm=abc',
      payload: '{"n": 3.9, "f": 1.5, "ok": true, "inner": {"k": "v"}}',
    },
    groups: { 0: 'org-a', 1: 'proj-x' },
  },
  {
    event: '$pageview',
    distinct_id: 'alice',
    timestamp: '2024-01-01T10:05:00Z',
    properties: { $session_id: 's1', $current_url: 'https://x.test/b', tags: 'blue', meta: { n: 7, list: [1, 2] } },
    groups: { 0: 'org-a' },
  },
  { event: 'signup', distinct_id: 'bob', timestamp: '2024-01-02T12:00:00Z', properties: { $session_id: 's2', price: 5 }, groups: { 0: 'org-b' } },
  { event: 'purchase', distinct_id: 'bob', timestamp: '2024-01-03T08:30:00Z', properties: { price: 100 } },
  { event: 'purchase', distinct_id: 'alice', timestamp: '2024-01-04T23:15:00Z', properties: { price: 50, $session_id: 's3' }, groups: { 0: 'org-missing' } },
];

/** The other environment: the same group keys, session ids and a distinct id, each of which would change a row. */
const OTHER_EVENTS: NewEvent[] = [
  { event: '$pageview', distinct_id: 'mallory', timestamp: '2024-01-01T11:00:00Z', properties: { $session_id: 's1', $current_url: 'https://evil.test/' }, groups: { 0: 'org-a' } },
  { event: 'purchase', distinct_id: 'alice', timestamp: '2024-01-02T13:00:00Z', properties: { $session_id: 's2', price: 1000 }, groups: { 0: 'org-b' } },
];

const CASES: RowsCase[] = [
  // Window functions.
  {
    name: 'row_number() OVER (PARTITION BY … ORDER BY …)',
    query: 'select event, distinct_id, row_number() over (partition by distinct_id order by timestamp) as n from events order by timestamp',
    rows: [['$pageview', 'alice', 1], ['$pageview', 'alice', 2], ['signup', 'bob', 1], ['purchase', 'bob', 2], ['purchase', 'alice', 3]],
  },
  {
    name: 'rank() and dense_rank() over an aggregate of a grouped query',
    query:
      "select event, count() as c, rank() over (order by count() desc) as r, dense_rank() over (order by count() desc) from events group by event order by c desc, event",
    rows: [['$pageview', 2, 1, 1], ['purchase', 2, 1, 1], ['signup', 1, 3, 2]],
  },
  {
    name: 'lag() and lead() with an offset and a default',
    query: "select event, lag(event) over (order by timestamp), lead(event, 2, 'none') over (order by timestamp) from events order by timestamp",
    rows: [
      ['$pageview', null, 'signup'],
      ['$pageview', '$pageview', 'purchase'],
      ['signup', '$pageview', 'purchase'],
      ['purchase', 'signup', 'none'],
      ['purchase', 'purchase', 'none'],
    ],
  },
  {
    name: 'first_value() and last_value() over the whole partition, one row per distinct id (LIMIT 1 BY)',
    query:
      'select distinct_id, first_value(event) over (partition by distinct_id order by timestamp rows between unbounded preceding and unbounded following), last_value(event) over (partition by distinct_id order by timestamp rows between unbounded preceding and unbounded following) from events order by timestamp limit 1 by distinct_id',
    rows: [['alice', '$pageview', 'purchase'], ['bob', 'signup', 'purchase']],
  },
  {
    name: 'sum() over a ROWS frame of the row and the one before',
    query: 'select timestamp, sum(properties.price) over (order by timestamp rows between 1 preceding and current row) from events where properties.price is not null order by timestamp',
    rows: [['2024-01-02T12:00:00.000Z', 5], ['2024-01-03T08:30:00.000Z', 105], ['2024-01-04T23:15:00.000Z', 150]],
  },
  {
    name: 'count(), avg(), min(), max() over windows',
    query:
      "select distinct_id, count() over (partition by event), avg(properties.price) over (partition by event), min(timestamp) over (partition by event), max(properties.price) over () from events where event = 'purchase' order by timestamp",
    rows: [['bob', 2, 75, '2024-01-03T08:30:00.000Z', 100], ['alice', 2, 75, '2024-01-03T08:30:00.000Z', 100]],
  },
  {
    name: 'a window function with a placeholder in its frame',
    query: 'select count() over (order by timestamp rows between {n} preceding and current row) from events order by timestamp',
    values: { n: 2 },
    rows: [[1], [2], [3], [3], [3]],
  },
  {
    name: "a window over the whole environment counts none of another environment's rows",
    query: 'select count() over (), distinct_id from events order by timestamp limit 1',
    rows: [[5, 'alice']],
  },
  // LIMIT … BY.
  {
    name: 'LIMIT 1 BY: the latest event of each distinct id',
    query: 'select distinct_id, event from events order by timestamp desc limit 1 by distinct_id',
    rows: [['alice', 'purchase'], ['bob', 'purchase']],
  },
  {
    name: 'LIMIT 1 OFFSET 1 BY: the second event of each distinct id',
    query: 'select distinct_id, event from events order by timestamp limit 1 offset 1 by distinct_id',
    rows: [['alice', '$pageview'], ['bob', 'purchase']],
  },
  {
    name: 'LIMIT 2 BY and then LIMIT',
    query: 'select distinct_id, event from events order by timestamp limit 2 by distinct_id limit 3',
    rows: [['alice', '$pageview'], ['alice', '$pageview'], ['bob', 'signup']],
  },
  {
    name: 'LIMIT BY an expression that is not selected',
    query: 'select event, distinct_id from events order by timestamp limit 1 by event',
    rows: [['$pageview', 'alice'], ['signup', 'bob'], ['purchase', 'bob']],
  },
  {
    name: "LIMIT BY within the environment (the other environment's mallory is not a distinct id here)",
    query: 'select distinct_id from events order by distinct_id limit 1 by distinct_id',
    rows: [['alice'], ['bob']],
  },
  // The groups table and events' group_N.
  {
    name: "FROM groups (the other environment's org-a is not listed)",
    query: 'select index, key, properties.name from groups order by index, key',
    rows: [[0, 'org-a', 'Acme'], [0, 'org-b', 'Beta'], [1, 'proj-x', 'X']],
  },
  {
    name: 'SELECT * FROM groups',
    query: "select * from groups where key = 'org-b'",
    rows: [[0, 'org-b', '2024-01-02T00:00:00.000Z', '{"name": "Beta"}']],
  },
  {
    name: "events' $group_0 and the implicit group_0 and group_1 joins",
    query: 'select event, $group_0, group_0.properties.name, group_1.key, group_0.created_at from events order by timestamp',
    rows: [
      ['$pageview', 'org-a', 'Acme', 'proj-x', '2024-01-01T00:00:00.000Z'],
      ['$pageview', 'org-a', 'Acme', null, '2024-01-01T00:00:00.000Z'],
      ['signup', 'org-b', 'Beta', null, '2024-01-02T00:00:00.000Z'],
      ['purchase', '', null, null, null],
      ['purchase', 'org-missing', null, null, null],
    ],
  },
  {
    name: 'grouped by a group property',
    query: 'select group_0.properties.name as org, count() from events group by org order by org',
    rows: [['Acme', 2], ['Beta', 1], [null, 2]],
  },
  {
    name: 'an explicit JOIN of events and groups',
    query: 'select e.event, g.properties.name from events e join groups g on e.$group_0 = g.key where g.index = 0 order by e.timestamp',
    rows: [['$pageview', 'Acme'], ['$pageview', 'Acme'], ['signup', 'Beta']],
  },
  // The session of an event, and the distinct id mapping.
  {
    name: "session.* of each event (the other environment's events of s1 and s2 change no session)",
    query: 'select event, session.$session_duration, session.$entry_current_url, session.$pageview_count, session.distinct_id from events order by timestamp',
    rows: [
      ['$pageview', 300, 'https://x.test/a', 2, 'alice'],
      ['$pageview', 300, 'https://x.test/a', 2, 'alice'],
      ['signup', 0, null, 0, 'bob'],
      ['purchase', null, null, null, null],
      ['purchase', 0, null, 0, 'alice'],
    ],
  },
  {
    name: 'pdi.distinct_id and pdi.person_id',
    query: "select distinct_id, pdi.distinct_id, pdi.person_id = person_id from events where event = 'signup'",
    rows: [['bob', 'bob', true]],
  },
  // Functions.
  {
    name: 'formatDateTime with ClickHouse codes, literal text and a timezone',
    query:
      "select formatDateTime(timestamp, '%Y-%m-%d %H:%i:%S'), formatDateTime(timestamp, '%F %T %j %u %%'), formatDateTime(timestamp, '%H:%i', 'America/New_York'), formatDateTime(timestamp, 'Q%Q %b %M %W') from events where event = 'signup'",
    rows: [['2024-01-02 12:00:00', '2024-01-02 12:00:00 002 2 %', '07:00', 'Q1 Jan January Tuesday']],
  },
  // to_char reads adjacent patterns greedily (DD then DDD as DDD then DD, YY then YYYY as YYYY then YY).
  {
    name: 'formatDateTime with adjacent codes',
    query:
      "select formatDateTime(timestamp, '%d%j'), formatDateTime(timestamp, '%y%Y'), formatDateTime(timestamp, '%S%s'), formatDateTime(timestamp, '%d%d'), formatDateTime(timestamp, '%D%Y'), formatDateTime(timestamp, '%H%i%M%W') from events where event = 'signup'",
    rows: [['02002', '242024', '0000', '0202', '01/02/242024', '1200JanuaryTuesday']],
  },
  {
    name: 'a format string is text for to_char, never SQL',
    query: "select formatDateTime(timestamp, '%Y\"; select 1; --') from events where event = 'signup'",
    rows: [['2024"; select 1; --']],
  },
  {
    name: 'toTimeZone: the same instant, its wall clock read in the zone',
    query:
      "select toHour(toTimeZone(timestamp, 'Asia/Tokyo')), toDayOfWeek(toTimeZone(timestamp, 'Asia/Tokyo')), formatDateTime(toTimeZone(timestamp, 'Asia/Tokyo'), '%F %T'), toTimeZone(timestamp, 'Asia/Tokyo'), toStartOfDay(toTimeZone(timestamp, 'Asia/Tokyo')), dateTrunc('day', toTimeZone(timestamp, 'Asia/Tokyo')) from events where distinct_id = 'alice' and event = 'purchase'",
    rows: [[8, 5, '2024-01-05 08:15:00', '2024-01-04T23:15:00.000Z', '2024-01-04T15:00:00.000Z', '2024-01-04T15:00:00.000Z']],
  },
  // The project is in UTC: each value below is on the other side of a day, week or month boundary in Tokyo.
  {
    name: 'toTimeZone: dates, weeks and months start on the wall clock of the zone',
    query:
      "select toDate(toTimeZone(timestamp, 'Asia/Tokyo')), toStartOfMonth(toTimeZone(toDateTime('2024-01-31T20:00:00Z'), 'Asia/Tokyo')), toStartOfWeek(toTimeZone(toDateTime('2024-01-06T20:00:00Z'), 'Asia/Tokyo')), toStartOfMonth(toDateTime('2024-01-31T20:00:00Z')) from events where distinct_id = 'alice' and event = 'purchase'",
    rows: [['2024-01-05', '2024-02-01', '2024-01-07', '2024-01-01']],
  },
  {
    name: 'toTimeZone: dateAdd and dateSub keep the zone',
    query:
      "select toHour(dateAdd('hour', 1, toTimeZone(timestamp, 'Asia/Tokyo'))), toDate(dateSub('minute', 15, toTimeZone(timestamp, 'Asia/Tokyo'))), dateAdd('hour', 1, toTimeZone(timestamp, 'Asia/Tokyo')) from events where distinct_id = 'alice' and event = 'purchase'",
    rows: [[9, '2024-01-05', '2024-01-05T00:15:00.000Z']],
  },
  {
    name: 'toTimeZone: a subquery column keeps the zone',
    query:
      "select toHour(t), toDate(t), t from (select toTimeZone(timestamp, 'Asia/Tokyo') as t from events where distinct_id = 'alice' and event = 'purchase')",
    rows: [[8, '2024-01-05', '2024-01-04T23:15:00.000Z']],
  },
  {
    name: 'toTimeZone: a UNION ALL column whose parts share the zone keeps it',
    query:
      "select toHour(t) from (select toTimeZone(timestamp, 'Asia/Tokyo') as t from events where event = 'signup' union all select toTimeZone(timestamp, 'Asia/Tokyo') from events where event = 'purchase' and distinct_id = 'bob') order by t",
    rows: [[21], [17]],
  },
  {
    name: 'extract: the first group, the whole match, or empty',
    query: "select extract(properties.url, 'utm=([a-z]+)'), extract(properties.url, 'x\\.test'), extract(properties.url, 'zzz') from events where properties.url is not null",
    rows: [['abc', 'x.test', '']],
  },
  {
    name: 'JSONExtractInt, Float, Bool, Raw, String of JSON text, and a missing key',
    query:
      "select JSONExtractInt(properties.payload, 'n'), JSONExtractFloat(properties.payload, 'f'), JSONExtractBool(properties.payload, 'ok'), JSONExtractRaw(properties.payload, 'inner'), JSONExtractString(properties.payload, 'inner', 'k'), JSONExtractInt(properties.payload, 'missing') from events where properties.payload is not null",
    rows: [[3, 1.5, true, '{"k":"v"}', 'v', 0]],
  },
  {
    name: 'JSONExtract* of a property holding an object, with a list position',
    query: "select JSONExtractInt(properties.meta, 'n'), JSONExtractInt(properties.meta, 'list', 2), JSONExtractRaw(properties.meta, 'list') from events where properties.meta is not null",
    rows: [[7, 2, '[1,2]']],
  },
  {
    name: 'sumIf, avgIf, minIf, maxIf, uniqIf',
    query:
      "select sumIf(properties.price, event = 'purchase'), avgIf(properties.price, event = 'purchase'), minIf(properties.price, event = 'purchase'), maxIf(timestamp, event = 'signup'), uniqIf(distinct_id, event = 'purchase') from events",
    rows: [[150, 75, '50', '2024-01-02T12:00:00.000Z', 2]],
  },
  {
    name: 'arrayJoin in SELECT, grouped and ordered by its alias',
    query: "select arrayJoin(splitByChar(',', properties.tags)) as tag, count() from events group by tag order by tag",
    rows: [['blue', 2], ['red', 1]],
  },
  {
    name: 'arrayJoin: a row per element, none for a missing list',
    query: "select event, arrayJoin(splitByChar(',', properties.tags)) from events order by timestamp",
    rows: [['$pageview', 'red'], ['$pageview', 'blue'], ['$pageview', 'blue']],
  },
  {
    name: 'two arrayJoin()s, one in a nested query: every pair, as ClickHouse gives',
    query:
      "select a, arrayJoin(splitByChar(',', 'x,y')) as b from (select arrayJoin(splitByChar(',', 'a,b,c')) as a from events where event = 'signup') order by a, b",
    rows: [['a', 'x'], ['a', 'y'], ['b', 'x'], ['b', 'y'], ['c', 'x'], ['c', 'y']],
  },
  {
    name: 'arrayJoin of a property holding a list',
    query: 'select arrayJoin(properties.meta.list) as n from events',
    rows: [['1'], ['2']],
  },
];

const REFUSED: RefusalCase[] = [
  { name: 'an unknown formatDateTime code', query: "select formatDateTime(timestamp, '%Y%x') from events", detail: 'formatDateTime() does not support the code %x.' },
  { name: 'a lone % in a format', query: "select formatDateTime(timestamp, '100%') from events", detail: 'The format of formatDateTime() ends with a lone %.' },
  { name: 'a computed format', query: 'select formatDateTime(timestamp, event) from events', detail: 'The format of formatDateTime() must be a string constant.' },
  {
    name: 'SQL in a timezone',
    query: "select formatDateTime(timestamp, '%Y', 'UTC''; drop table events; --') from events",
    detail: 'Unknown timezone "UTC\'; drop table events; --" in formatDateTime().',
  },
  { name: 'an unknown timezone', query: "select toTimeZone(timestamp, 'Mars/Olympus') from events", detail: 'Unknown timezone "Mars/Olympus" in toTimeZone().' },
  // Node's zone names include a few retired ones that PostgreSQL's do not.
  { name: 'a timezone only the runtime knows', query: "select formatDateTime(timestamp, '%H', 'US/Pacific-New') from events", detail: 'Unknown timezone "US/Pacific-New".' },
  { name: 'a regular expression that does not parse', query: "select extract(event, '(') from events", detail: '"(" is not a valid regular expression.' },
  {
    name: 'a regular expression PostgreSQL cannot run',
    query: "select extract(event, '\\p{L}') from events",
    detail: '"\\p{L}" cannot be run: PostgreSQL has no Unicode classes such as \\p{L}.',
  },
  { name: 'a computed pattern', query: 'select extract(event, distinct_id) from events', detail: 'The pattern of extract() must be a string constant.' },
  { name: 'SQL in a window frame', query: 'select count() over (rows between 1; drop table events preceding and current row) from events', detail: 'Unexpected character ";" at position 36.' },
  {
    name: 'a frame bound that is not a number',
    query: 'select count() over (rows between {n} preceding and current row) from events',
    values: { n: '1 preceding) from pg_class --' },
    detail: 'A frame bound must be a non-negative integer.',
  },
  { name: 'a frame that ends before it starts', query: 'select count() over (rows between current row and 1 preceding) from events', detail: 'The frame of a window must start before it ends.' },
  {
    name: 'a RANGE frame of rows',
    query: 'select count() over (order by timestamp range between 1 preceding and current row) from events',
    detail: 'A RANGE frame may only be bounded by UNBOUNDED PRECEDING, CURRENT ROW or UNBOUNDED FOLLOWING; use ROWS for a number of rows.',
  },
  { name: 'a named window', query: 'select rank() over w from events', detail: 'Unknown window "w": define it in a WINDOW clause.' },
  { name: 'a window function in WHERE', query: 'select event from events where row_number() over () > 1', detail: 'Window functions such as row_number() OVER (…) are not allowed in WHERE.' },
  {
    name: 'an aggregate PostgreSQL cannot compute over a window',
    query: 'select uniq(event) over () from events',
    detail: 'uniq() cannot be computed over a window: PostgreSQL cannot count distinct values over a window.',
  },
  { name: 'a negative lag', query: 'select lag(event, -1) over () from events', detail: 'The offset of lag() must be a non-negative integer constant.' },
  { name: 'a lead beyond an int', query: 'select lead(event, 9999999999) over () from events', detail: 'The offset of lead() must be a non-negative integer constant.' },
  { name: 'LIMIT BY beyond the largest integer', query: 'select event from events limit 9007199254740991 offset 9007199254740991 by event', detail: 'With LIMIT BY, the sum of its count and offset must be at most 9007199254740991.' },
  { name: 'a window function inside an aggregate', query: 'select sum(row_number() over ()) from events', detail: 'A window function such as row_number() OVER (…) cannot be inside an aggregate function.' },
  { name: 'window functions nested', query: 'select sum(row_number() over ()) over () from events', detail: 'Window functions cannot be nested: row_number() OVER (…) inside another.' },
  { name: 'LIMIT BY with DISTINCT', query: 'select distinct event from events limit 1 by event', detail: 'LIMIT BY is not supported with DISTINCT.' },
  { name: 'a LIMIT BY count that is not an integer', query: "select event from events limit 'a' by event", detail: 'LIMIT must be a non-negative integer.' },
  { name: 'two LIMIT BY', query: 'select event from events limit 1 by event limit 2 by event', detail: 'Only one LIMIT … BY is supported.' },
  {
    name: 'arrayJoin inside an expression',
    query: "select length(arrayJoin(splitByChar(',', event))) from events",
    detail: 'arrayJoin() must be a whole column of SELECT (which GROUP BY and ORDER BY may name), not inside another expression.',
  },
  { name: 'arrayJoin in WHERE', query: "select 1 from events where arrayJoin(splitByChar(',', event)) = 'a'", detail: 'arrayJoin() is not allowed in WHERE.' },
  { name: 'arrayJoin of text', query: 'select arrayJoin(event) from events', detail: 'arrayJoin() needs an array (such as splitByChar(), groupArray() or a property holding a list).' },
  {
    name: 'two arrayJoin() columns (ClickHouse multiplies their rows)',
    query: "select arrayJoin(splitByChar(',', 'a,b,c')) as a, arrayJoin(splitByChar(',', 'x,y')) as b from events order by a, b",
    detail: 'Only one arrayJoin() per SELECT is supported: "arrayJoin(splitByChar(\',\', \'x,y\'))" is a second one; join the other in a nested query.',
  },
  { name: 'arrayJoin with LIMIT BY', query: "select arrayJoin(splitByChar(',', event)) from events limit 1 by event", detail: 'arrayJoin() is not supported with LIMIT BY.' },
  { name: 'an unknown field of groups', query: 'select secret from groups', detail: 'Unknown field "secret" of the table groups.' },
  {
    name: 'an unknown field of the session',
    query: 'select session.secret from events',
    detail: 'Unknown field "session.secret": sessions have session_id, id, distinct_id, $start_timestamp, $end_timestamp, max_inserted_at, $session_duration, duration, $urls, $num_uniq_urls, $entry_current_url, $entry_pathname, $entry_hostname, $end_current_url, $end_pathname, $end_hostname, $exit_current_url, $exit_pathname, $last_external_click_url, $entry_referring_domain, $entry_referrer, $entry_utm_source, $entry_utm_campaign, $entry_utm_medium, $entry_utm_term, $entry_utm_content, $entry_gclid, $entry_gad_source, $entry_gclsrc, $entry_dclid, $entry_gbraid, $entry_wbraid, $entry_fbclid, $entry_msclkid, $entry_twclid, $entry_li_fat_id, $entry_mc_cid, $entry_igshid, $entry_ttclid, $entry__kx, $entry_irclid, $pageview_count, $autocapture_count, $screen_count, $page_screen_autocapture_count_up_to, $is_bounce, $vitals_lcp.',
  },
  {
    name: 'an array function that is not supported',
    query: "select arrayFold((acc, x) -> acc, splitByChar(',', event), '') from events",
    detail: 'The function arrayFold() is not available: it runs a lambda over an accumulator element after element, which a query over the elements as a set of rows cannot do exactly.',
  },
  { name: 'an unknown function, named', query: 'select toStartOfFortnight(timestamp) from events', detail: 'Unknown function "toStartOfFortnight".' },
  { name: 'a field named as a plain object\'s inherited property', query: 'select constructor from events', detail: 'Unknown field "constructor".' },
  { name: 'a function named as a plain object\'s inherited property', query: 'select __proto__(event) from events', detail: 'Unknown function "__proto__".' },
];

describe('query: HogQL SELECT, table of newer syntax', function () {
  this.timeout(60_000);
  const queries = hogqlQueryServer(async ({ db, account }) => {
    const team = account.environment.id;
    await insertPerson(db, team, { distinctIds: ['alice'], properties: { email: 'a@example.com' } });
    await insertPerson(db, team, { distinctIds: ['bob'], properties: { email: 'b@example.com' } });
    await insertEvents(db, team, EVENTS);
    await db('groups').insert([
      { team_id: team, group_type_index: 0, group_key: 'org-a', group_properties: JSON.stringify({ name: 'Acme' }), created_at: '2024-01-01T00:00:00Z' },
      { team_id: team, group_type_index: 0, group_key: 'org-b', group_properties: JSON.stringify({ name: 'Beta' }), created_at: '2024-01-02T00:00:00Z' },
      { team_id: team, group_type_index: 1, group_key: 'proj-x', group_properties: JSON.stringify({ name: 'X' }), created_at: '2024-01-03T00:00:00Z' },
    ]);

    const other = await newQueryAccount(db);
    const otherTeam = other.environment.id;
    await insertPerson(db, otherTeam, { distinctIds: ['alice', 'mallory'], properties: { email: 'evil@example.com' } });
    await insertEvents(db, otherTeam, OTHER_EVENTS);
    await db('groups').insert([
      { team_id: otherTeam, group_type_index: 0, group_key: 'org-a', group_properties: JSON.stringify({ name: 'Evil' }), created_at: '2023-01-01T00:00:00Z' },
      { team_id: otherTeam, group_type_index: 0, group_key: 'org-missing', group_properties: JSON.stringify({ name: 'Evil too' }) },
    ]);
  });

  itAnswersRows(CASES, queries);

  it('types of window, group, JSON and date columns', async () => {
    const query =
      "select row_number() over (partition by distinct_id order by timestamp desc rows between 1 preceding and current row), group_0.properties.name, JSONExtractInt(properties.payload, 'n'), formatDateTime(timestamp, '%Y') from events order by timestamp limit 1 by distinct_id";
    const response = await queries.post(query);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    // Bob's events have no payload: JSONExtractInt of a NULL document is NULL, as in PostHog.
    expect(response.body.results).to.deep.equal([[3, 'Acme', 3, '2024'], [2, 'Beta', null, '2024']]);
    expect(response.body.types).to.deep.equal([
      ['row_number() OVER (PARTITION BY distinct_id ORDER BY timestamp DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)', 'Int64'],
      ['group_0.properties.name', 'Nullable(String)'],
      ["JSONExtractInt(properties.payload, 'n')", 'Nullable(Int64)'],
      ["formatDateTime(timestamp, '%Y')", 'String'],
    ]);
    expect(response.body.hogql).to.equal(`${query.replace('select', 'SELECT').replace(' from events order by timestamp limit 1 by distinct_id', '')} FROM events ORDER BY timestamp ASC LIMIT 1 BY distinct_id LIMIT 100`.replace(
      'row_number() over (partition by distinct_id order by timestamp desc rows between 1 preceding and current row)',
      'row_number() OVER (PARTITION BY distinct_id ORDER BY timestamp DESC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)',
    ));
  });

  itRefuses(REFUSED, queries);
});
