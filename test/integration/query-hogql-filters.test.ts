/**
 * A HogQLQuery's `{filters}` and `{variables.name}` through POST …/query/, on a fixed data set: filled as PostHog
 * fills them (the date range on the timestamp, the property filters, `true` without filters, the variables'
 * values), each case with the exact rows it must answer; then the operators written as functions and HogQL's own
 * operators over the same events. A second environment holds an event that every filter here would match, which
 * must never show. Values with quotes stay values; a missing variable, a misplaced `{filters}` and malformed
 * filters are 400s with their messages, never a 500.
 */
import { expect } from 'chai';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';
import { hogqlQueryServer, itAnswersRows, itRefuses, newQueryAccount, type RefusalCase, type RowsCase } from '../helpers/hogql-query-cases.js';

const EVENTS: NewEvent[] = [
  { event: '$pageview', distinct_id: 'alice', timestamp: '2024-01-01T10:00:00Z', properties: { $browser: 'Chrome', $current_url: 'https://x.test/a', $session_id: 's1' } },
  { event: '$pageview', distinct_id: 'bob', timestamp: '2024-01-02T11:00:00Z', properties: { $browser: 'Firefox', $current_url: 'https://x.test/Blog/1' } },
  { event: 'signup', distinct_id: 'bob', timestamp: '2024-01-03T12:00:00Z', properties: { plan: 'pro', price: 5, $session_id: 's2' } },
  { event: 'purchase', distinct_id: 'alice', timestamp: '2024-01-04T08:00:00Z', properties: { $browser: 'Chrome', price: 100 } },
  { event: '$pageview', distinct_id: 'carol', timestamp: '2024-01-05T09:00:00Z', properties: { $current_url: 'https://x.test/c' } },
];

/** The other environment: an event every filter below matches. */
const OTHER_EVENTS: NewEvent[] = [
  { event: '$pageview', distinct_id: 'alice', timestamp: '2024-01-03T10:00:00Z', properties: { $browser: 'Chrome', plan: 'pro', price: 1000, $current_url: 'https://x.test/blog/evil', $session_id: 's3' } },
];

const variable = (code_name: string, value: unknown, extra: Record<string, unknown> = {}) => ({
  [`id-${code_name}`]: { variableId: `id-${code_name}`, code_name, value, ...extra },
});

const COUNT = 'select count() from events where {filters}';
const EVENTS_IN_ORDER = 'select event, distinct_id from events where {filters} order by timestamp';

const CASES: RowsCase[] = [
  // {filters}: none given is `true`.
  { name: 'no filters: {filters} holds for every event of the environment', query: COUNT, rows: [[5]] },
  { name: 'empty filters', query: COUNT, filters: {}, rows: [[5]] },
  { name: 'filterTestAccounts: no test-account filters are set, so none apply', query: COUNT, filters: { filterTestAccounts: true }, rows: [[5]] },
  // The date range: timestamp >= date_from, timestamp < date_to.
  {
    name: 'a date range of days (from midnight, to before midnight)',
    query: EVENTS_IN_ORDER,
    filters: { dateRange: { date_from: '2024-01-02', date_to: '2024-01-04' } },
    rows: [['$pageview', 'bob'], ['signup', 'bob']],
  },
  { name: 'date_from only', query: COUNT, filters: { dateRange: { date_from: '2024-01-04' } }, rows: [[2]] },
  { name: 'date_from "all"', query: COUNT, filters: { dateRange: { date_from: 'all', date_to: null } }, rows: [[5]] },
  { name: 'date_to is exclusive', query: COUNT, filters: { dateRange: { date_to: '2024-01-02T11:00:00' } }, rows: [[1]] },
  { name: 'date_to with an offset', query: COUNT, filters: { dateRange: { date_to: '2024-01-02T12:00:00+01:00' } }, rows: [[1]] },
  { name: 'a relative date_from (the events are years before it)', query: COUNT, filters: { dateRange: { date_from: '-7d' } }, rows: [[0]] },
  // Property filters.
  {
    name: 'an event property filter',
    query: EVENTS_IN_ORDER,
    filters: { properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }] },
    rows: [['$pageview', 'alice'], ['purchase', 'alice']],
  },
  {
    name: 'a person property filter',
    query: EVENTS_IN_ORDER,
    filters: { properties: [{ key: 'tier', value: ['gold'], operator: 'exact', type: 'person' }] },
    rows: [['$pageview', 'alice'], ['purchase', 'alice']],
  },
  {
    name: 'properties and a date range together',
    query: EVENTS_IN_ORDER,
    filters: { properties: [{ key: '$browser', value: 'Chrome' }], dateRange: { date_from: '2024-01-02' } },
    rows: [['purchase', 'alice']],
  },
  {
    name: 'an OR group of filters',
    query: EVENTS_IN_ORDER,
    filters: { properties: { type: 'OR', values: [{ key: '$browser', value: 'Firefox' }, { key: 'plan', value: 'pro' }] } },
    rows: [['$pageview', 'bob'], ['signup', 'bob']],
  },
  {
    name: 'icontains',
    query: EVENTS_IN_ORDER,
    filters: { properties: [{ key: '$current_url', value: 'blog', operator: 'icontains' }] },
    rows: [['$pageview', 'bob']],
  },
  {
    name: 'is_not_set',
    query: EVENTS_IN_ORDER,
    filters: { properties: [{ key: '$browser', operator: 'is_not_set' }] },
    rows: [['signup', 'bob'], ['$pageview', 'carol']],
  },
  {
    name: 'is_not (a missing property is not the value)',
    query: EVENTS_IN_ORDER,
    filters: { properties: [{ key: '$browser', value: 'Chrome', operator: 'is_not' }] },
    rows: [['$pageview', 'bob'], ['signup', 'bob'], ['$pageview', 'carol']],
  },
  { name: 'gt on a number', query: EVENTS_IN_ORDER, filters: { properties: [{ key: 'price', value: 10, operator: 'gt' }] }, rows: [['purchase', 'alice']] },
  {
    name: 'regex and not_regex',
    query: EVENTS_IN_ORDER,
    filters: { properties: [{ key: '$current_url', value: '/[ab]$', operator: 'regex' }, { key: '$browser', value: '^F', operator: 'not_regex' }] },
    rows: [['$pageview', 'alice']],
  },
  {
    name: 'is_date_before on the event_metadata timestamp',
    query: EVENTS_IN_ORDER,
    filters: { properties: [{ key: 'timestamp', value: '2024-01-02', operator: 'is_date_before', type: 'event_metadata' }] },
    rows: [['$pageview', 'alice']],
  },
  { name: 'a hogql filter', query: EVENTS_IN_ORDER, filters: { properties: [{ key: "event = 'signup'", type: 'hogql' }] }, rows: [['signup', 'bob']] },
  {
    name: "a value with quotes stays a value (no event has it; the other environment's never shows)",
    query: COUNT,
    filters: { properties: [{ key: '$browser', value: "Chrome' or '1'='1" }] },
    rows: [[0]],
  },
  // Where {filters} stands.
  {
    name: '{filters} inside a nested query reads the events of that query',
    query: 'select count() from (select event from events where {filters})',
    filters: { properties: [{ key: '$browser', value: 'Chrome' }] },
    rows: [[2]],
  },
  {
    name: '{filters} in IN (SELECT …) and in the outer query, each for its own SELECT',
    query: "select distinct distinct_id from events where {filters} and distinct_id in (select distinct_id from events where {filters} and event = 'purchase') order by distinct_id",
    filters: { dateRange: { date_from: '2024-01-01', date_to: '2024-01-05' } },
    rows: [['alice']],
  },
  {
    name: '{filters} in the select list',
    query: 'select countIf({filters}), count() from events',
    filters: { properties: [{ key: '$browser', value: 'Chrome' }] },
    rows: [[2, 5]],
  },
  {
    name: '{filters} of a groups query: created_at and the group properties',
    query: 'select key from groups where {filters} order by key',
    filters: { dateRange: { date_from: '2024-01-02' }, properties: [{ key: 'name', value: 'Beta', type: 'group', group_type_index: 0 }] },
    rows: [['org-b']],
  },
  {
    name: '{filters} of a sessions query: the date range on $start_timestamp',
    query: 'select session_id from sessions where {filters} order by session_id',
    filters: { dateRange: { date_from: '2024-01-02' } },
    rows: [['s2']],
  },
  {
    name: '{filters} of events joined to their sessions: the events\' timestamp and properties',
    query: 'select e.event, s.session_id from events e join sessions s on e.properties.$session_id = s.session_id where {filters} order by e.timestamp',
    filters: { properties: [{ key: '$browser', value: 'Chrome' }], dateRange: { date_to: '2024-01-03' } },
    rows: [['$pageview', 's1']],
  },
  {
    name: '{filters} of a sessions query: a session property filter reads the sessions\' column',
    query: 'select session_id from sessions where {filters} order by session_id',
    filters: { properties: [{ key: '$entry_current_url', value: 'https://x.test/a', type: 'session' }] },
    rows: [['s1']],
  },
  {
    name: '{filters} of an events query: a session property filter reads the event\'s session',
    query: 'select event, distinct_id from events where {filters} order by timestamp',
    filters: { properties: [{ key: '$entry_current_url', operator: 'icontains', value: 'X.TEST/A', type: 'session' }] },
    rows: [['$pageview', 'alice']],
  },
  {
    name: '{filters} of a sessions query: a session filter that no session matches',
    query: 'select count() from sessions where {filters}',
    filters: { properties: [{ key: '$entry_current_url', operator: 'is_not', value: 'https://x.test/a', type: 'session' }], dateRange: { date_to: '2024-01-02' } },
    rows: [[0]],
  },
  // {filters.dateRange.from} / {filters.dateRange.to}.
  {
    name: '{filters.dateRange.from} and {filters.dateRange.to} as constants',
    query: 'select count() from events where timestamp >= {filters.dateRange.from} and timestamp < {filters.dateRange.to}',
    filters: { dateRange: { date_from: '2024-01-03', date_to: '2024-01-05' } },
    rows: [[2]],
  },
  {
    name: 'a comparison with a date bound that is not given always holds',
    query: 'select count() from events where timestamp >= {filters.dateRange.from} and timestamp < {filters.dateRange.to}',
    filters: { dateRange: { date_from: '2024-01-03' } },
    rows: [[3]],
  },
  // {variables.name}.
  {
    name: 'a string variable',
    query: 'select count() from events where event = {variables.event_name}',
    variables: variable('event_name', '$pageview'),
    rows: [[3]],
  },
  {
    name: 'a number variable',
    query: 'select event from events where properties.price > {variables.min_price} order by timestamp',
    variables: variable('min_price', 10),
    rows: [['purchase']],
  },
  {
    name: 'isNull makes the value null (and = null is IS NULL, as in HogQL)',
    query: 'select count() from events where properties.$browser = {variables.browser}',
    variables: variable('browser', 'Chrome', { isNull: true }),
    rows: [[2]],
  },
  {
    name: "a variable's value with quotes stays a value",
    query: 'select count() from events where event = {variables.name}',
    variables: variable('name', "x' or 1=1 --"),
    rows: [[0]],
  },
  {
    name: 'variables and filters together',
    query: 'select count() from events where {filters} and distinct_id = {variables.who}',
    filters: { dateRange: { date_from: '2024-01-02' } },
    variables: variable('who', 'alice'),
    rows: [[1]],
  },
  // Operators written as functions, and HogQL's own operators.
  {
    name: 'and(equals(…), greaterOrEquals(timestamp, …)), as PostHog insights write it',
    query: "select event from events where and(equals(distinct_id, 'bob'), greaterOrEquals(timestamp, toDateTime('2024-01-03 00:00:00'))) order by timestamp",
    rows: [['signup']],
  },
  {
    name: 'or(), like(), not(), in(), notIn()',
    query: "select event, distinct_id from events where or(like(properties.$current_url, '%/Blog/%'), and(not(equals(event, '$pageview')), notIn(distinct_id, tuple('alice')))) order by timestamp",
    rows: [['$pageview', 'bob'], ['signup', 'bob']],
  },
  {
    name: 'arithmetic functions: plus, minus, multiply, divide, modulo, negate',
    query: "select plus(properties.price, 1), minus(properties.price, 1), multiply(properties.price, 2), divide(properties.price, 4), modulo(properties.price, 3), negate(properties.price) from events where event = 'signup'",
    rows: [[6, 4, 10, 1.25, 2, -5]],
  },
  {
    name: '?? and the ternary',
    query: "select properties.$browser ?? 'none', event = 'purchase' ? 'buy' : event = 'signup' ? 'join' : 'view' from events order by timestamp",
    rows: [['Chrome', 'view'], ['Firefox', 'view'], ['none', 'join'], ['Chrome', 'buy'], ['none', 'view']],
  },
  {
    name: 'regular expression operators: =~, !~, =~* (ignoring case)',
    query: "select countIf(properties.$current_url =~ '/[Bb]log/'), countIf(properties.$current_url !~ 'blog'), countIf(properties.$current_url =~* '/BLOG/') from events",
    // The third event has no URL: it does not match, so it counts for !~.
    rows: [[1, 5, 1]],
  },
  {
    name: 'NULL in LIKE, ILIKE and the regex operators, as PostHog prints them: two NULLs match, one matches nothing',
    query:
      "select null like null, '2' like null, null not like '2', null not ilike null, null =~ null, null !~ '2', null !~* null, ifNull(10, true), 10 ?? true ? 20 : 30",
    rows: [[true, false, true, false, true, true, false, 10, 20]],
  },
  {
    name: 'LIKE between two missing properties: a match, as = between them is',
    // Only the sign-up has a plan; no event has "nothing".
    query: "select countIf(properties.plan like properties.nothing), countIf(properties.plan not like properties.nothing), countIf(properties.plan ilike 'PR%') from events",
    rows: [[4, 1, 1]],
  },
];

const REFUSED: RefusalCase[] = [
  { name: 'a variable the request does not give', query: 'select {variables.nope} from events', detail: 'Variable nope is missing from query.' },
  {
    name: 'a variable of another code name',
    query: 'select {variables.nope} from events',
    variables: variable('other', 1),
    detail: 'Variable nope is missing from query.',
  },
  {
    name: 'an object as a variable value',
    query: 'select {variables.x} from events',
    variables: variable('x', { a: 1 }),
    detail: 'The value of the variable x must be a string, a number, a boolean, null or a list of at most 1000 of them.',
  },
  {
    name: '{filters} in a SELECT from persons',
    query: 'select count() from persons where {filters}',
    detail: 'Cannot use the {filters} placeholder in a SELECT that does not select from the events, sessions or groups table.',
  },
  {
    name: '{filters} in a SELECT from a nested query',
    query: 'select count() from (select event from events) where {filters}',
    detail: 'Cannot use the {filters} placeholder in a SELECT that does not select from the events, sessions or groups table.',
  },
  {
    name: 'an unknown filters placeholder',
    query: 'select count() from events where {filters.properties}',
    detail: 'Unsupported filters placeholder {filters.properties}. Supported filters placeholders are: {filters}, {filters.dateRange.from}, {filters.dateRange.to}.',
  },
  {
    name: 'an unknown dotted placeholder',
    query: 'select {a.b} from events',
    detail: 'Unknown placeholder {a.b}: write {name} (from values), {filters} or {variables.name}.',
  },
  {
    name: 'a date bound that is not given, not in a comparison',
    query: 'select count() from events where timestamp between {filters.dateRange.from} and now()',
    detail:
      'A {filters.dateRange.from} or {filters.dateRange.to} placeholder must be used directly in a comparison (such as timestamp >= {filters.dateRange.from}) when the date range does not set it.',
  },
  {
    name: 'a date that is not one',
    query: COUNT,
    filters: { dateRange: { date_from: 'last tuesday' } },
    detail: 'date_from "last tuesday" is not a date: write an ISO 8601 date or time or a relative one such as -7d.',
  },
  {
    name: 'an element filter',
    query: COUNT,
    filters: { properties: [{ key: 'tag_name', value: 'a', type: 'element' }] },
    detail: 'Element filters are not supported in {filters}; write the condition on elements_chain in the query.',
  },
  {
    name: 'a property filter type that is not supported',
    query: COUNT,
    filters: { properties: [{ key: 'x', value: 'a', type: 'cohort' }] },
    detail: 'Property filters of type "cohort" are not supported.',
  },
  {
    name: 'property filters over sessions alone',
    query: 'select count() from sessions where {filters}',
    filters: { properties: [{ key: '$browser', value: 'Chrome' }] },
    detail: 'Can only use session properties in a filter when selecting from only the sessions table.',
  },
  {
    name: 'a session property filter where no sessions table is read',
    query: 'select key from groups where {filters}',
    filters: { properties: [{ key: '$entry_current_url', value: 'https://x.test/a', type: 'session' }] },
    detail: 'In {filters} over the groups table only group property filters apply, not "session".',
  },
  { name: 'equals() with one argument', query: 'select equals(event) from events', detail: 'equals() takes 2 arguments, got 1.' },
  { name: 'a ternary without its else', query: "select event = 'a' ? 1 from events", detail: 'Expected ":" but found "from" at position 24.' },
];

describe('query: HogQL {filters}, {variables.name} and operators', function () {
  this.timeout(60_000);
  const queries = hogqlQueryServer(async ({ db, account }) => {
    const team = account.environment.id;
    await insertPerson(db, team, { distinctIds: ['alice'], properties: { email: 'a@example.com', tier: 'gold' } });
    await insertPerson(db, team, { distinctIds: ['bob'], properties: { email: 'b@example.com', tier: 'silver' } });
    await insertEvents(db, team, EVENTS);
    await db('groups').insert([
      { team_id: team, group_type_index: 0, group_key: 'org-a', group_properties: JSON.stringify({ name: 'Acme' }), created_at: '2024-01-01T00:00:00Z' },
      { team_id: team, group_type_index: 0, group_key: 'org-b', group_properties: JSON.stringify({ name: 'Beta' }), created_at: '2024-01-02T00:00:00Z' },
      { team_id: team, group_type_index: 0, group_key: 'org-c', group_properties: JSON.stringify({ name: 'Beta' }), created_at: '2023-12-31T00:00:00Z' },
    ]);

    const other = await newQueryAccount(db);
    const otherTeam = other.environment.id;
    await insertPerson(db, otherTeam, { distinctIds: ['alice'], properties: { email: 'evil@example.com', tier: 'gold' } });
    await insertEvents(db, otherTeam, OTHER_EVENTS);
    await db('groups').insert([
      { team_id: otherTeam, group_type_index: 0, group_key: 'org-evil', group_properties: JSON.stringify({ name: 'Beta' }), created_at: '2024-01-03T00:00:00Z' },
    ]);
  });

  itAnswersRows(CASES, queries);

  it("shows {filters} as the condition it stood for in the response's hogql", async () => {
    const response = await queries.post({ query: COUNT, filters: { properties: [{ key: '$browser', value: 'Chrome' }], dateRange: { date_from: '2024-01-02' } } });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.hogql).to.equal("SELECT count() FROM events WHERE (properties.$browser IN ('Chrome')) AND (timestamp >= '2024-01-02') LIMIT 100");
  });

  itRefuses(REFUSED, queries);
});
