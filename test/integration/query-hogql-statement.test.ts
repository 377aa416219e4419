/**
 * The SELECT statement's grammar through POST …/query/, on a fixed data set: SELECT without FROM, numbers(),
 * every join kind (CROSS, comma, RIGHT, FULL, USING, ANY/SEMI/ANTI LEFT), ARRAY JOIN, named windows and
 * aggregates over windows, positional GROUP BY / ORDER BY, `(expr AS name)`, PREWHERE, SAMPLE 1 and the set
 * operations. Each case is HogQL text and the exact rows ClickHouse answers. A second environment holds events of
 * the same distinct ids (and one more), each of which would change a row if its filter were missing. Then the
 * refusals: 400s with their messages, never a 500.
 */
import { expect } from 'chai';
import { ApiError } from '../../db/core/errors.js';
import { compileSelect, parseSelect } from '../../db/hogql/select/index.js';
import { createReadDb } from '../../db/pg/client.js';
import { runCompiledSelect } from '../../db/queries/query/execute.js';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';
import { testDb } from '../helpers/database.js';
import { hogqlQueryServer, itAnswersRows, itRefuses, newQueryAccount, type RefusalCase, type RowsCase } from '../helpers/hogql-query-cases.js';

const EVENTS: NewEvent[] = [
  { event: '$pageview', distinct_id: 'alice', timestamp: '2024-01-01T10:00:00Z', properties: { tags: 'red,blue', price: 1 } },
  { event: '$pageview', distinct_id: 'alice', timestamp: '2024-01-01T10:05:00Z', properties: { tags: 'blue' } },
  { event: 'signup', distinct_id: 'bob', timestamp: '2024-01-02T12:00:00Z', properties: { price: 5 } },
  { event: 'purchase', distinct_id: 'bob', timestamp: '2024-01-03T08:30:00Z', properties: { price: 100 } },
  { event: 'purchase', distinct_id: 'alice', timestamp: '2024-01-04T23:15:00Z', properties: { price: 50 } },
];

/** The other environment: rows that would show in every case below if its environment filter were missing. */
const OTHER_EVENTS: NewEvent[] = [
  { event: '$pageview', distinct_id: 'mallory', timestamp: '2024-01-01T11:00:00Z', properties: { tags: 'evil' } },
  { event: 'signup', distinct_id: 'alice', timestamp: '2024-01-02T13:00:00Z', properties: { price: 1000, tags: 'evil' } },
];

const CASES: RowsCase[] = [
  // SELECT without FROM: one row.
  { name: 'SELECT 1 + 1', query: 'SELECT 1 + 1', rows: [[2]] },
  { name: 'constants, named', query: "select 1 + 1 as two, 'a' as a, 7 / 2, 7 % 3", rows: [[2, 'a', 3.5, 1]] },
  { name: 'count() without FROM counts the one row', query: 'select count()', rows: [[1]] },
  { name: 'WHERE without FROM', query: 'select 1 where 1 = 2', rows: [] },
  { name: 'a nested query without FROM', query: 'select x * 2 from (select 21 as x)', rows: [[42]] },
  { name: 'a nested query inside keeps its environment filter', query: 'select 5 in (select count() from events), 7 in (select count() from events)', rows: [[true, false]] },
  // numbers().
  { name: 'numbers(n)', query: 'select number from numbers(3)', rows: [[0], [1], [2]] },
  { name: 'numbers(offset, n)', query: 'select number from numbers(5, 3)', rows: [[5], [6], [7]] },
  { name: 'numbers(0) is empty', query: 'select number from numbers(0)', rows: [] },
  {
    name: 'numbers() of an expression of constants, as PostHog trends write it',
    query: "select count(), max(number) from numbers(coalesce(dateDiff('day', toDate('2024-01-01'), toDate('2024-01-08')), 0))",
    rows: [[7, 6]],
  },
  { name: 'numbers() of a scalar subquery (with its environment filter)', query: 'select number from numbers(1, (select count() from events))', rows: [[1], [2], [3], [4], [5]] },
  { name: 'numbers(offset, n) of expressions', query: 'select number from numbers(1 + 1, 4 - 2)', rows: [[2], [3]] },
  { name: 'an aggregate over numbers()', query: 'select sum(number), count() from numbers(101)', rows: [[5050, 101]] },
  { name: 'numbers() aliased, in a nested query', query: 'select count() from (select n.number from numbers(10) as n where n.number % 2 = 0)', rows: [[5]] },
  {
    name: 'numbers() as the days of a series, LEFT JOINed to the counts',
    query:
      "select d.day, coalesce(c.n, 0) from (select toDate('2024-01-01') + number as day from numbers(5)) d left join (select toDate(timestamp) as day, count() as n from events group by day) c on c.day = d.day order by d.day",
    rows: [['2024-01-01', 2], ['2024-01-02', 1], ['2024-01-03', 1], ['2024-01-04', 1], ['2024-01-05', 0]],
  },
  // Joins: each reads only this environment's rows.
  { name: 'CROSS JOIN', query: 'select count() from events a cross join events b', rows: [[25]] },
  { name: 'comma join', query: "select count() from events a, (select number from numbers(2)) n where a.event = 'purchase'", rows: [[4]] },
  {
    name: 'CROSS JOIN of numbers() and a table',
    query: "select n.number, e.event from numbers(2) n cross join (select event from events where event = 'signup') e order by 1",
    rows: [[0, 'signup'], [1, 'signup']],
  },
  {
    name: 'RIGHT JOIN: a missing left side reads as defaults',
    query:
      "select e.event, s.distinct_id from (select distinct_id, event from events where event = 'signup') e right join (select distinct distinct_id from events) s on e.distinct_id = s.distinct_id order by s.distinct_id",
    rows: [['', 'alice'], ['signup', 'bob']],
  },
  {
    name: 'RIGHT OUTER JOIN of a table',
    query: "select s.d, count(e.uuid) from events e right outer join (select 'bob' as d) s on e.distinct_id = s.d group by s.d",
    rows: [['bob', 2]],
  },
  {
    name: 'FULL JOIN: either side may be missing',
    query:
      "select a.distinct_id, b.distinct_id from (select distinct distinct_id from events where event = 'signup') a full join (select distinct distinct_id from events where event = '$pageview') b on a.distinct_id = b.distinct_id order by 1, 2",
    rows: [['', 'alice'], ['bob', '']],
  },
  {
    name: 'LEFT JOIN: a missing number reads as 0, a missing property as null',
    query:
      "select a.distinct_id, b.n, b.p from (select distinct distinct_id from events) a left join (select distinct_id, count() as n, any(properties.price) as p from events where event = 'signup' group by distinct_id) b on a.distinct_id = b.distinct_id order by 1",
    rows: [['alice', 0, null], ['bob', 1, '5']],
  },
  {
    name: 'JOIN … USING: one column of the name',
    query:
      'select distinct_id, a.n, b.m from (select distinct_id, count() as n from events group by distinct_id) a join (select distinct_id, max(timestamp) as m from events group by distinct_id) b using (distinct_id) order by distinct_id',
    rows: [['alice', 3, '2024-01-04T23:15:00.000Z'], ['bob', 2, '2024-01-03T08:30:00.000Z']],
  },
  {
    name: 'FULL JOIN … USING: the name is whichever side has a row',
    query:
      "select distinct_id from (select distinct_id from events where event = 'signup') a full join (select distinct_id from events where event = '$pageview' limit 1) b using distinct_id order by distinct_id",
    rows: [['alice'], ['bob']],
  },
  {
    name: 'ANY LEFT JOIN: one matching row each',
    query:
      "select a.distinct_id, b.event from (select distinct distinct_id from events) a any left join (select distinct_id, event from events where event = '$pageview') b on a.distinct_id = b.distinct_id order by 1",
    rows: [['alice', '$pageview'], ['bob', '']],
  },
  {
    name: 'LEFT SEMI JOIN: the rows with a match, once',
    query:
      "select a.distinct_id from (select distinct distinct_id from events) a left semi join (select distinct_id from events where event = '$pageview') b on a.distinct_id = b.distinct_id order by 1",
    rows: [['alice']],
  },
  {
    name: 'LEFT ANTI JOIN: the rows without one',
    query:
      "select a.distinct_id, b.distinct_id from (select distinct distinct_id from events) a left anti join (select distinct_id from events where event = '$pageview') b on a.distinct_id = b.distinct_id order by 1",
    rows: [['bob', '']],
  },
  {
    name: 'three tables, INNER then LEFT',
    query:
      "select e.event, p.n, q.n from events e join (select distinct_id, count() as n from events group by distinct_id) p on p.distinct_id = e.distinct_id left join (select distinct_id, count() as n from events where event = 'signup' group by distinct_id) q on q.distinct_id = e.distinct_id where e.event = 'purchase' order by e.timestamp",
    rows: [['purchase', 2, 1], ['purchase', 3, 0]],
  },
  // ARRAY JOIN.
  {
    name: 'ARRAY JOIN: a row per element',
    query: "select event, tag from events array join splitByChar(',', properties.tags) as tag where properties.tags is not null order by timestamp, tag",
    rows: [['$pageview', 'blue'], ['$pageview', 'red'], ['$pageview', 'blue']],
  },
  {
    name: 'ARRAY JOIN, grouped by the element',
    query: "select tag, count() from events array join splitByChar(',', properties.tags) as tag where properties.tags is not null group by tag order by tag",
    rows: [['blue', 2], ['red', 1]],
  },
  {
    name: "ARRAY JOIN of events, reading the event's person",
    query: "select person.properties.email, tag from events e array join splitByChar(',', e.properties.tags) as tag where e.properties.tags is not null order by e.timestamp, tag",
    rows: [['a@example.com', 'blue'], ['a@example.com', 'red'], ['a@example.com', 'blue']],
  },
  {
    name: 'ARRAY JOIN after a JOIN',
    query:
      "select e.distinct_id, c.n, tag from events e join (select distinct_id, count() as n from events group by distinct_id) c on c.distinct_id = e.distinct_id array join splitByChar(',', e.properties.tags) as tag where e.properties.tags is not null order by e.timestamp, tag",
    rows: [['alice', 3, 'blue'], ['alice', 3, 'red'], ['alice', 3, 'blue']],
  },
  {
    name: 'ARRAY JOIN of two arrays, zipped',
    query: "select a, b from (select 1) array join splitByChar(',', 'x,y,z') as a, splitByChar(',', 'p,q,r') as b order by a",
    rows: [['x', 'p'], ['y', 'q'], ['z', 'r']],
  },
  {
    name: 'ARRAY JOIN drops an empty array; LEFT ARRAY JOIN keeps it with a default element',
    query:
      "select d, s from (select distinct_id as d, groupArray(if(event = 'signup', distinct_id, null)) as signups from events group by d) left array join signups as s order by d",
    rows: [['alice', ''], ['bob', 'bob']],
  },
  {
    name: 'ARRAY JOIN of an empty array',
    query:
      "select d, s from (select distinct_id as d, groupArray(if(event = 'signup', distinct_id, null)) as signups from events group by d) array join signups as s order by d",
    rows: [['bob', 'bob']],
  },
  {
    name: 'ARRAY JOIN of a column of a nested query, by its own name',
    query: "select d, list from (select distinct_id as d, splitByChar('-', distinct_id) as list from events where event = 'signup') array join list",
    rows: [['bob', 'bob']],
  },
  // Named windows and aggregates over windows.
  {
    name: 'a named window',
    query: 'select event, row_number() over w from events window w as (partition by distinct_id order by timestamp) order by timestamp',
    rows: [['$pageview', 1], ['$pageview', 2], ['signup', 1], ['purchase', 2], ['purchase', 3]],
  },
  {
    name: 'a named window refined with ORDER BY, and WINDOW before WHERE as HogQL writes it',
    query: "select distinct_id, count() over (w order by timestamp) from events window w as (partition by distinct_id) where event != 'signup' order by timestamp",
    rows: [['alice', 1], ['alice', 2], ['bob', 1], ['alice', 3]],
  },
  {
    name: 'groupArray() over a window',
    query: "select event, groupArray(event) over (partition by distinct_id order by timestamp rows between unbounded preceding and current row) from events where distinct_id = 'bob' order by timestamp",
    rows: [['signup', ['signup']], ['purchase', ['signup', 'purchase']]],
  },
  {
    name: 'countIf() and sumIf() over windows',
    query: "select distinct_id, countIf(event = 'purchase') over (partition by distinct_id), sumIf(properties.price, event = 'purchase') over () from events order by timestamp limit 1 by distinct_id",
    rows: [['alice', 1, 150], ['bob', 1, 150]],
  },
  // ClickHouse's window functions that look inside the frame, and the type's default where a row is not there.
  {
    name: 'lagInFrame() over the whole partition: the type\'s default before the first row',
    query: 'select distinct_id, event, lagInFrame(event) over (partition by distinct_id order by timestamp rows between unbounded preceding and unbounded following) from events order by timestamp',
    rows: [['alice', '$pageview', ''], ['alice', '$pageview', '$pageview'], ['bob', 'signup', ''], ['bob', 'purchase', 'signup'], ['alice', 'purchase', '$pageview']],
  },
  {
    name: 'lagInFrame() with an offset and a default, leadInFrame() past the end of the frame',
    query:
      "select event, lagInFrame(event, 2, 'none') over w, leadInFrame(event) over (w rows between unbounded preceding and current row), leadInFrame(event, 1) over (w rows between current row and 1 following) from events window w as (partition by distinct_id order by timestamp) where distinct_id = 'alice' order by timestamp",
    rows: [['$pageview', 'none', '', '$pageview'], ['$pageview', 'none', '', 'purchase'], ['purchase', '$pageview', '', '']],
  },
  {
    name: 'lagInFrame() with a NULL default over the default frame, as PostHog writes it for revenue changes',
    query: "select toFloat(properties.price), lagInFrame(toFloat(properties.price), 1, null) over (partition by distinct_id order by timestamp asc) from events where distinct_id = 'bob' order by timestamp",
    rows: [[5, null], [100, 5]],
  },
  {
    name: 'lagInFrame() further back than the frame reaches answers the default',
    query: "select lagInFrame(event, 2) over (partition by distinct_id order by timestamp rows between 1 preceding and current row) from events where distinct_id = 'alice' order by timestamp",
    rows: [[''], [''], ['']],
  },
  {
    name: 'first_value(), last_value() and nth_value() of a frame without that row: the type\'s default',
    query:
      "select first_value(event) over (w rows between 2 preceding and 1 preceding), last_value(event) over (w rows between 1 following and 2 following), nth_value(event, 2) over (w rows between unbounded preceding and unbounded following), nth_value(event, 3) over (w rows between unbounded preceding and current row) from events window w as (partition by distinct_id order by timestamp) where distinct_id = 'alice' order by timestamp",
    rows: [['', 'purchase', '$pageview', ''], ['$pageview', 'purchase', '$pageview', ''], ['$pageview', '', '$pageview', 'purchase']],
  },
  {
    name: 'first_value() and last_value() skip nulls as ClickHouse does; their _respect_nulls forms keep them',
    query:
      'select distinct_id, last_value(properties.price) over (w rows between unbounded preceding and current row), last_value_respect_nulls(properties.price) over (w rows between unbounded preceding and current row), first_value(properties.price) over (w rows between current row and unbounded following), first_value_respect_nulls(properties.price) over (w rows between current row and unbounded following) from events window w as (partition by distinct_id order by timestamp) order by timestamp',
    // A property reads as its text, as PostHog's properties are strings.
    rows: [['alice', '1', '1', '1', '1'], ['alice', '1', null, '50', null], ['bob', '5', '5', '5', '5'], ['bob', '100', '100', '100', '100'], ['alice', '50', '50', '50', '50']],
  },
  // Positional GROUP BY and ORDER BY.
  { name: 'GROUP BY 1 ORDER BY 2 DESC', query: 'select event, count() from events group by 1 order by 2 desc, 1', rows: [['$pageview', 2], ['purchase', 2], ['signup', 1]] },
  { name: 'ORDER BY a position of an expression', query: 'select distinct_id, max(timestamp) from events group by 1 order by 2', rows: [['bob', '2024-01-03T08:30:00.000Z'], ['alice', '2024-01-04T23:15:00.000Z']] },
  // (expr AS name) inside expressions.
  { name: '(expr AS name) used in another column', query: "select (1 + 2 as three) * 2, three + 1", rows: [[6, 4]] },
  {
    name: '(expr AS name) used in WHERE and GROUP BY',
    query: "select count() from events where (event = 'purchase' as bought) or bought",
    rows: [[2]],
  },
  {
    name: 'a column alias used by later columns, and a name a column gives itself',
    query: "select toDate(timestamp) as timestamp, count() as c, c * 2 from events group by timestamp order by timestamp",
    rows: [['2024-01-01', 2, 4], ['2024-01-02', 1, 2], ['2024-01-03', 1, 2], ['2024-01-04', 1, 2]],
  },
  // The rest of the grammar.
  { name: 'PREWHERE filters as WHERE', query: "select count() from events prewhere event = 'purchase' where distinct_id = 'bob'", rows: [[1]] },
  { name: 'SAMPLE 1 reads every row', query: 'select count() from events sample 1', rows: [[5]] },
  { name: 'FINAL is accepted', query: 'select count() from events final', rows: [[5]] },
  // ORDER BY after the last SELECT orders that SELECT alone, as in ClickHouse: the union is ordered outside it.
  { name: 'UNION DISTINCT', query: 'select distinct_id from (select distinct_id from events union distinct select distinct_id from events) order by 1', rows: [['alice'], ['bob']] },
  {
    name: 'INTERSECT keeps duplicates (ClickHouse defaults to ALL)',
    query: "select * from (select event from events intersect select event from events where event != 'signup') order by event",
    rows: [['$pageview'], ['$pageview'], ['purchase'], ['purchase']],
  },
  {
    name: 'INTERSECT DISTINCT',
    query: "select * from (select event from events intersect distinct select event from events where event != 'signup') order by event",
    rows: [['$pageview'], ['purchase']],
  },
  {
    name: 'EXCEPT keeps duplicates',
    query: "select * from (select event from events except select event from events where event = 'purchase' limit 1) order by event",
    rows: [['$pageview'], ['$pageview'], ['purchase'], ['signup']],
  },
  { name: 'EXCEPT DISTINCT', query: "select distinct_id from events except distinct select distinct_id from events where event = 'signup'", rows: [['alice']] },
  {
    name: 'ORDER BY … NULLS FIRST, and nulls last otherwise',
    query: 'select toFloat(properties.price) as p from events order by p desc nulls first, timestamp',
    rows: [[null], [100], [50], [5], [1]],
  },
  { name: 'ORDER BY ascending puts nulls last', query: "select toFloat(properties.price) from events order by toFloat(properties.price)", rows: [[1], [5], [50], [100], [null]] },
  {
    name: 'queries of UNION ALL in parentheses',
    query: "(select event from events where event = 'signup') union all (select event from events where event = 'signup')",
    rows: [['signup'], ['signup']],
  },
  { name: 'a UNION ALL in parentheses inside another', query: 'select * from (select 0 as x union all (select 1 as x union all select 2 as x)) order by x', rows: [[0], [1], [2]] },
  {
    name: 'a subquery as a value (each with its environment filter)',
    query: "select event, count() / (select count() from events) as share from events group by event order by share desc, event",
    rows: [['$pageview', 0.4], ['purchase', 0.4], ['signup', 0.2]],
  },
  { name: 'a subquery without rows is null', query: "select (select event from events where event = 'none')", rows: [[null]] },
  { name: "a column named by a string (AS 'name')", query: "select count() as 'all events', \`all events\` + 1 from events", rows: [[5, 6]] },
  {
    name: 'WITH expr AS name, and WITH (SELECT …) AS name',
    query: "with toDate('2024-01-02') as since, (select count() from events) as total select count() / total from events where toDate(timestamp) >= since",
    rows: [[0.6]],
  },
  { name: 'LIMIT 1 WITH TIES', query: 'select event from events order by event limit 1 with ties', rows: [['$pageview'], ['$pageview']] },
  { name: 'LIMIT 2 WITH TIES keeps every row tied with the second', query: 'select distinct_id from events order by distinct_id limit 2 with ties', rows: [['alice'], ['alice'], ['alice']] },
  { name: 'LIMIT … WITH TIES OFFSET', query: 'select distinct_id from events order by distinct_id limit 1 with ties offset 3', rows: [['bob'], ['bob']] },
  { name: '* of joined tables: each one\'s fields in turn', query: 'select * from (select 1 as a, 2 as b) x cross join (select 3 as c) y', rows: [[1, 2, 3]] },
  { name: 'alias.* of one joined table', query: 'select y.*, x.a from (select 1 as a, 2 as b) x cross join (select 3 as c) y', rows: [[3, 1]] },
  {
    name: '* with ARRAY JOIN: the fields of the table',
    query: "select *, t from (select 'a,b' as s) array join splitByChar(',', s) as t order by t",
    rows: [['a,b', 'a'], ['a,b', 'b']],
  },
  { name: 'TOP n', query: 'select top 2 number from numbers(5)', rows: [[0], [1]] },
  { name: 'OFFSET without LIMIT', query: 'select number from numbers(4) offset 2', rows: [[2], [3]] },
  // DISTINCT ordered by expressions of its columns (sortableSemVer(properties.$lib_version), as PostHog's examples).
  {
    name: 'DISTINCT ordered by an expression of a selected column',
    query: 'select distinct event from events order by length(event) desc, event',
    rows: [['$pageview'], ['purchase'], ['signup']],
  },
  {
    name: 'DISTINCT ordered by an expression of a selected property, limited, in this environment',
    query: 'select distinct properties.price as price from events where price is not null order by toFloat(price) desc limit 2',
    rows: [['100'], ['50']],
  },
];

const REFUSED: RefusalCase[] = [
  { name: 'DISTINCT ordered by a column it does not select', query: 'select distinct event from events order by timestamp', detail: 'With DISTINCT, ORDER BY may only name selected expressions, or expressions of them.' },
  { name: 'SQL bound to the count of numbers()', query: 'select number from numbers({n})', values: { n: '3) n; drop table events; --' }, detail: 'The count of numbers() must be a non-negative integer constant.' },
  { name: 'a count of numbers() beyond its bound, bound', query: 'select count() from numbers({n})', values: { n: 10_000_000 }, detail: 'The count of numbers() may be at most 1000000, not 10000000.' },
  { name: 'numbers() beyond its bound', query: 'select count() from numbers(1000001)', detail: 'The count of numbers() may be at most 1000000, not 1000001.' },
  { name: 'numbers() of a negative count', query: 'select number from numbers(-1)', detail: 'The count of numbers() must be a non-negative integer constant.' },
  {
    name: 'numbers() of an expression beyond the bound',
    query: 'select count() from numbers(1000 * 1000 + 1)',
    detail: 'A value in the query is not of the expected type: invalid input syntax for type bigint: "The count of numbers() must be from 0 to 1000000"',
  },
  { name: 'numbers() of a negative expression', query: 'select count() from numbers(0 - 1)', detail: 'A value in the query is not of the expected type: invalid input syntax for type bigint: "The count of numbers() must be from 0 to 1000000"' },
  { name: 'numbers() of a field', query: 'select number from numbers(event)', detail: 'The arguments of numbers() must be constants, not the field "event".' },
  { name: 'numbers() of three arguments', query: 'select number from numbers(1, 2, 3)', detail: 'numbers() takes 1 or 2 arguments (the count, or the first number and the count), got 3.' },
  { name: 'a table function that is not numbers()', query: "select * from file('/etc/passwd')", detail: 'Unknown table function "file". Table functions: numbers.' },
  { name: 'a field without FROM', query: 'select event', detail: 'Unknown field "event": a SELECT without FROM has no fields.' },
  { name: '* without FROM', query: 'select *', detail: '* needs a FROM: a SELECT without FROM has no fields.' },
  { name: 'ASOF JOIN', query: 'select 1 from events a asof join events b on a.uuid = b.uuid', detail: 'ASOF JOIN is not supported; join on the condition and keep the closest row with argMax() or LIMIT 1 BY.' },
  { name: 'SEMI INNER JOIN', query: 'select 1 from events a semi join events b on a.uuid = b.uuid', detail: 'SEMI goes with LEFT or RIGHT JOIN.' },
  { name: 'RIGHT ANTI JOIN', query: 'select 1 from events a right anti join events b on a.uuid = b.uuid', detail: 'ANTI is supported with LEFT JOIN only; write ANTI LEFT JOIN with the tables the other way round.' },
  { name: 'ANY INNER JOIN', query: 'select 1 from events a any join events b on a.uuid = b.uuid', detail: 'ANY is supported with LEFT JOIN only; write ANY LEFT JOIN with the tables the other way round.' },
  { name: 'a FULL JOIN on an inequality', query: 'select 1 from events a full join events b on a.timestamp < b.timestamp', detail: 'The ON of a FULL JOIN must be equalities joined by AND (a.x = b.y AND …), not "a.timestamp < b.timestamp".' },
  { name: 'USING a name the joined table lacks', query: 'select 1 from events a join persons p using (distinct_id)', detail: 'USING (distinct_id): the joined table has no column "distinct_id".' },
  { name: 'a join without ON', query: 'select 1 from events a join events b', detail: 'Expected ON or USING after the joined table but found end of expression at position 37.' },
  { name: 'ARRAY JOIN of text', query: 'select x from events array join event as x', detail: 'ARRAY JOIN needs an array: "event" is a String.' },
  { name: 'ARRAY JOIN of an unnamed expression', query: "select 1 from events array join splitByChar(',', event)", detail: "Name the array of ARRAY JOIN: ARRAY JOIN splitByChar(',', event) AS name." },
  { name: 'two ARRAY JOIN clauses', query: "select 1 from events array join splitByChar(',', event) as a array join splitByChar(',', event) as b", detail: 'Only one ARRAY JOIN per SELECT is supported, after its joins; list several arrays in it to zip them.' },
  { name: 'an unknown named window', query: 'select count() over w2 from events window w as ()', detail: 'Unknown window "w2": WINDOW defines w.' },
  { name: 'a window refining the order of one that has it', query: 'select count() over (w order by event) from events window w as (order by timestamp)', detail: 'The window "w" has an ORDER BY already.' },
  { name: 'uniq() over a window', query: 'select uniq(event) over () from events', detail: 'uniq() cannot be computed over a window: PostgreSQL cannot count distinct values over a window.' },
  { name: 'median() over a window', query: 'select median(properties.price) over () from events', detail: 'median() cannot be computed over a window: PostgreSQL has no window form of a quantile.' },
  {
    name: 'leadInFrame() over a frame by value, whose peers decide',
    query: 'select leadInFrame(event) over (partition by distinct_id order by timestamp) from events',
    detail: 'leadInFrame() over a RANGE frame depends on which rows are peers; give the window a ROWS frame (e.g. ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING).',
  },
  { name: 'nth_value() at a position that is not a constant', query: 'select nth_value(event, 0) over () from events', detail: 'The position of nth_value() must be a positive integer constant.' },
  { name: 'lagInFrame() with a negative offset', query: 'select lagInFrame(event, -1) over () from events', detail: 'The offset of lagInFrame() must be a non-negative integer constant.' },
  { name: 'lagInFrame() without OVER', query: 'select lagInFrame(event) from events', detail: 'Unknown function "lagInFrame".' },
  { name: 'an item past the end of an array of tuples', query: 'select g.3 from (select [(1, 2)] as g)', detail: 'The tuples have 2 items: there is no item 3.' },
  { name: 'an item of a name given to a string', query: "select ('a' as s).1, s.1", detail: 'Cannot take an element of a String; only of an array or a tuple.' },
  { name: 'a plain function over a window', query: 'select lower(event) over () from events', detail: 'lower() is not an aggregate function, so it cannot be computed over a window.' },
  { name: 'GROUP BY a position beyond the columns', query: 'select event from events group by 2', detail: 'GROUP BY 2 names no column: the query selects 1 column.' },
  { name: 'ORDER BY position 0', query: 'select event from events order by 0', detail: 'ORDER BY 0 names no column: the query selects 1 column.' },
  { name: 'one name for two expressions', query: 'select (1 as x), (2 as x)', detail: 'The name "x" is given to two different expressions.' },
  { name: 'SAMPLE of a fraction', query: 'select count() from events sample 0.1', detail: "SAMPLE is only supported as SAMPLE 1 (every row): sampling needs ClickHouse's sampling key, which the tables here do not have." },
  { name: 'SETTINGS', query: 'select 1 settings max_threads = 1', detail: 'SETTINGS is not supported: the settings a query runs with are fixed.' },
  { name: 'UNION without ALL or DISTINCT', query: 'select 1 union select 2', detail: 'Write UNION ALL or UNION DISTINCT: UNION alone is ambiguous, as ClickHouse answers.' },
  { name: 'LIMIT WITH TIES without ORDER BY', query: 'select event from events limit 1 with ties', detail: 'LIMIT … WITH TIES needs ORDER BY, whose ties it keeps.' },
  { name: 'QUALIFY', query: 'select event from events qualify row_number() over () = 1', detail: 'QUALIFY is not supported; filter on the window function in an outer query.' },
  { name: 'a joined table of another schema', query: 'select 1 from events e join pg_catalog.pg_class c on 1 = 1', detail: 'Unknown table "pg_catalog.pg_class". Tables: events, persons, person_distinct_ids, sessions, groups.' },
];

describe('query: HogQL SELECT, the statement grammar', function () {
  this.timeout(60_000);
  const queries = hogqlQueryServer(async ({ db, account }) => {
    const team = account.environment.id;
    await insertPerson(db, team, { distinctIds: ['alice'], properties: { email: 'a@example.com' } });
    await insertPerson(db, team, { distinctIds: ['bob'], properties: { email: 'b@example.com' } });
    await insertEvents(db, team, EVENTS);

    const other = await newQueryAccount(db);
    const otherTeam = other.environment.id;
    await insertPerson(db, otherTeam, { distinctIds: ['alice', 'mallory'], properties: { email: 'evil@example.com' } });
    await insertEvents(db, otherTeam, OTHER_EVENTS);
  });

  itAnswersRows(CASES, queries);

  itRefuses(REFUSED, queries);
});

describe('query: HogQL SELECT, a product of the largest numbers() runs bounded', function () {
  this.timeout(30_000);

  it('numbers(1000000) twice over, counted, is cancelled at the deadline: 504, not a hang', async () => {
    const compiled = compileSelect(parseSelect('select count() from numbers(1000000) a cross join numbers(1000000) b'), {
      teamId: 1,
      timezone: 'UTC',
      defaultLimit: 100,
      maxLimit: 50_000,
    });
    const reader = createReadDb(testDb(), 1_000, { poolMax: 1 });
    const started = performance.now();
    try {
      const error = await runCompiledSelect(reader, compiled, { timeoutMs: 1_000, maxResultBytes: 1024 * 1024 }).then(
        () => null,
        (thrown: unknown) => thrown,
      );
      expect(error).to.be.instanceOf(ApiError);
      expect((error as ApiError).status).to.equal(504);
      expect(performance.now() - started).to.be.below(10_000);
    } finally {
      await reader.destroy();
    }
  });
});
