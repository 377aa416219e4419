/**
 * Arrays, tuples and lambdas through POST …/query/, on a fixed data set: literals, element access (from 1,
 * negative from the end, a missing element as its type's default or NULL), tuples and their items, toString as
 * ClickHouse writes arrays, the array functions with and without lambdas (over literals and over properties
 * holding lists), tuple IN lists and subqueries, arrayJoin of typed arrays. Expected rows are ClickHouse's
 * answers (its documentation's examples where it gives them). A second environment holds rows that no array,
 * lambda or tuple may reach; strings with quotes inside arrays stay values. Then the refusals: 400s.
 */
import { expect } from 'chai';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { hogqlQueryServer, itAnswersRows, itRefuses, newQueryAccount, type RowsCase } from '../helpers/hogql-query-cases.js';

const EVENTS: NewEvent[] = [
  {
    event: 'lists',
    distinct_id: 'alice',
    timestamp: '2024-01-01T10:00:00Z',
    properties: { nums: [3, 1, 2], tags: ['a', 'b', "it's"], empty: [], nested: [[1, 2], [3]], object: { k: 'v' }, json: '{"a": 1, "b": [1, "x", null]}' },
  },
  { event: 'other', distinct_id: 'bob', timestamp: '2024-01-02T10:00:00Z', properties: { nums: [10], tags: ['b'] } },
];

const OTHER_EVENTS: NewEvent[] = [{ event: 'secret', distinct_id: 'mallory', timestamp: '2024-01-01T11:00:00Z', properties: { nums: [1000], tags: ['a'] } }];

/** One value over the event `lists`: [expression, its value]. */
const VALUES: [string, unknown][] = [
  // Literals and element access.
  ['[1, 2, 3]', [1, 2, 3]],
  ['array(1, 2)', [1, 2]],
  ['[]', []],
  ['[1, 2, 3][2]', 2],
  ['[1, 2, 3][-1]', 3],
  ['[1, 2, 3][5]', 0],
  ['[1, 2, 3][0]', 0],
  ["['a', 'b'][3]", ''],
  ['[1, NULL][5]', null],
  ['[1, 2.5][1]', 1],
  ['[[1, 2], [3]][1][2]', 2],
  ['[[1, 2], [3]][2]', [3]],
  ["splitByChar(',', 'a,b')[2]", 'b'],
  ['arrayElement([1, 2], 2)', 2],
  ['[10, 20][1 + 1]', 20],
  // Tuples.
  ["tuple(1, 'a').2", 'a'],
  ["(1, 'a').1", 1],
  ["tupleElement((1, 'a'), 2)", 'a'],
  ["(1, 'a')", [1, 'a']],
  // Properties holding lists: an element read by a field's chain is a property's text, as PostHog reads it.
  ['properties.nums[1]', '3'],
  ['properties.nums[-1]', '2'],
  ['properties.nums[4]', null],
  ['properties.nested[1][2]', '2'],
  ['arraySum(properties.nested[1])', 3],
  ['arraySum(properties.nums)', 6],
  ['arrayMap(x -> x * 10, properties.nums)', [30, 10, 20]],
  ["has(properties.tags, 'it''s')", 1],
  ["arrayFilter(x -> x != 'a', properties.tags)", ['b', "it's"]],
  ['length(properties.empty)', 0],
  ['empty(properties.empty)', 1],
  ['arraySort(properties.nums)', [1, 2, 3]],
  ['properties.missing[1]', null],
  ['arrayMap(x -> x, properties.object)', []],
  // toString as ClickHouse writes arrays.
  ["toString(['a', 'b'])", "['a','b']"],
  ['toString([1, 2])', '[1,2]'],
  ['toString([[1, 2], []])', '[[1,2],[]]'],
  ["toString(['it''s', 'a\\\\b'])", "['it\\'s','a\\\\b']"],
  ['toString([1, NULL])', '[1,NULL]'],
  ["toString((1, 'a'))", "(1,'a')"],
  // Comparisons and conditionals.
  ['[1, 2] = [1, 2]', true],
  ['[1, 2] != [2, 1]', true],
  ['if(1 = 1, [1], [2])', [1]],
  ['coalesce(properties.missing, [7])', [7]],
  ["(event, distinct_id) IN (('lists', 'alice'), ('x', 'y'))", true],
  ["(event, distinct_id) NOT IN (('lists', 'alice'))", false],
  ["(event, distinct_id) IN (select event, distinct_id from events where event = 'lists')", true],
  // Lambdas.
  ['arrayMap(x -> x * 2, [1, 2, 3])', [2, 4, 6]],
  ["arrayMap((x, y) -> concat(x, y), ['a', 'b'], ['c', 'd'])", ['ac', 'bd']],
  ['arrayMap(x -> arrayMap(y -> x * y, [1, 2]), [1, 2])', [[1, 2], [2, 4]]],
  ['arrayMap(x -> arraySum(x), [[1, 2], [3]])', [3, 3]],
  ['arrayMap(event -> event + 1, [1, 2])', [2, 3]],
  ["arrayMap(x -> concat(event, x), ['!'])", ['lists!']],
  ['arrayMap(x -> x.2, [(1, 2), (3, 4)])', [2, 4]],
  ["arrayMap(t -> concat(t.1, toString(t.2 + 1)), arrayZip(['a', 'b'], [1, 2]))", ['a2', 'b3']],
  ['[[1, 2], [3]][1][-1] + 1', 3],
  ['arrayFilter(x -> x > 1, [1, 2, 3])', [2, 3]],
  ["arrayFilter((x, y) -> y, ['a', 'b'], [0, 1])", ['b']],
  ["arrayExists(x -> x = 'b', ['a', 'b'])", 1],
  ['arrayExists(x -> x > 5, [1, 2])', 0],
  ['arrayAll(x -> x > 0, [1, 2])', 1],
  ['arrayAll(x -> x > 0, [])', 1],
  ['arrayCount(x -> x > 1, [1, 2, 3])', 2],
  ['arrayCount([0, 1, 2])', 2],
  ['arraySum([1, 2, 3])', 6],
  ['arraySum(x -> x * 2, [1, 2])', 6],
  ['arraySum([1.5, 2])', 3.5],
  ['arrayAvg([1, 2])', 1.5],
  ['arrayMin([3, 1, 2])', 1],
  ['arrayMax([3, 1, 2])', 3],
  ["arrayMax(['b', 'a'])", 'b'],
  ['arrayFirst(x -> x > 1, [1, 2, 3])', 2],
  ['arrayFirst(x -> x > 5, [1, 2, 3])', 0],
  ['arrayLast(x -> x > 1, [1, 2, 3])', 3],
  ['arrayFirstIndex(x -> x > 1, [1, 2, 3])', 2],
  ['arrayLastIndex(x -> x > 1, [1, 2, 3])', 3],
  ['arrayFirstIndex(x -> x > 5, [1, 2, 3])', 0],
  ['arraySort([3, 1, 2])', [1, 2, 3]],
  ['arraySort(x -> -x, [3, 1, 2])', [3, 2, 1]],
  ["arraySort((x, y) -> y, ['hello', 'world'], [2, 1])", ['world', 'hello']],
  ["arraySort(['b', 'a', 'B'])", ['B', 'a', 'b']],
  ['arraySort([1, NULL, 0])', [0, 1, null]],
  ['arrayReverseSort([3, 1, 2])', [3, 2, 1]],
  // ClickHouse's documented examples.
  ['arrayFill(x -> not isNull(x), [1, NULL, 3, 11, 12, NULL, NULL, 5, 6, 14, NULL, NULL])', [1, 1, 3, 11, 12, 12, 12, 5, 6, 14, 14, 14]],
  ['arrayReverseFill(x -> not isNull(x), [1, NULL, 3, 11, 12, NULL, NULL, 5, 6, 14, NULL, NULL])', [1, 3, 3, 11, 12, 5, 5, 5, 6, 14, null, null]],
  ['arraySplit((x, y) -> y, [1, 2, 3, 4, 5], [1, 0, 0, 1, 0])', [[1, 2, 3], [4, 5]]],
  ['arrayReverseSplit((x, y) -> y, [1, 2, 3, 4, 5], [1, 0, 0, 1, 0])', [[1], [2, 3, 4], [5]]],
  // The other array functions.
  ['arraySlice([1, 2, 3, 4, 5], 2, 2)', [2, 3]],
  ['arraySlice([1, 2, NULL, 4, 5], 2, 3)', [2, null, 4]],
  ['arraySlice([1, 2, 3, 4, 5], -2)', [4, 5]],
  ['arraySlice([1, 2, 3, 4, 5], 2, -1)', [2, 3, 4]],
  ['arraySlice([1, 2, 3], 0)', []],
  ['arrayReverse([1, 2, 3])', [3, 2, 1]],
  ['reverse([1, 2])', [2, 1]],
  ["reverse('abc')", 'cba'],
  ["arrayZip(['a', 'b'], [1, 2])", [['a', 1], ['b', 2]]],
  ['arrayConcat([1, 2], [3], [])', [1, 2, 3]],
  ['arrayDistinct([1, 2, 2, 1, NULL])', [1, 2]],
  ['arrayUniq([1, 2, 2, 1])', 2],
  ['arrayEnumerate([10, 20])', [1, 2]],
  ['arrayEnumerateUniq([10, 20, 10])', [1, 1, 2]],
  ['arrayEnumerateDense([10, 20, 10])', [1, 2, 1]],
  ['arrayCompact([1, 1, 2, 2, 1])', [1, 2, 1]],
  ['arrayPushBack([1, 2], 3)', [1, 2, 3]],
  ["arrayPushFront(['b'], 'a')", ['a', 'b']],
  ['arrayPopBack([1, 2, 3])', [1, 2]],
  ['arrayPopFront([1, 2, 3])', [2, 3]],
  ['arrayPopBack([])', []],
  ['arrayResize([1], 3)', [1, 0, 0]],
  ['arrayResize([1, 2, 3], 2)', [1, 2]],
  ['arrayResize([1], 3, 9)', [1, 9, 9]],
  ['arrayResize([[1, 2]], 2)', [[1, 2], []]],
  ['arrayResize([1, 2], 4, 5)', [1, 2, 5, 5]],
  ['arrayFlatten([[1, 2], [3]])', [1, 2, 3]],
  ['arrayFlatten([[[1]], [[2], [3]]])', [1, 2, 3]],
  ['arrayFlatten([[1, 2], [3]])[3] + 1', 4],
  ['arrayIntersect([1, 2], [1, 3], [2, 3])', []],
  ['arrayIntersect([1, 2], [1, 3], [1, 4])', [1]],
  ["arrayStringConcat(['a', 'b'], '-')", 'a-b'],
  ["arrayStringConcat(['a', NULL, 'b'])", 'ab'],
  ['arrayCumSum([1, 2, 3])', [1, 3, 6]],
  ['arrayDifference([1, 2, 4])', [0, 1, 2]],
  ['arrayCumSumNonNegative([1, 1, -4, 1])', [1, 2, 0, 1]],
  ['arrayCumSumNonNegative([-1, 2, -5, 3, 1])', [0, 2, 0, 3, 4]],
  ['arrayWithConstant(3, 1)', [1, 1, 1]],
  ["arrayReduce('max', [1, 3, 2])", 3],
  ["arrayReduce('uniqExact', [1, 1, 2])", 2],
  ["arrayReduce('count', [1, 1, 2])", 3],
  ['arrayRotateLeft([1, 2, 3, 4], 1)', [2, 3, 4, 1]],
  ['arrayRotateRight([1, 2, 3, 4], 1)', [4, 1, 2, 3]],
  ['has([1, 2], 2)', 1],
  ["has(['a'], 'b')", 0],
  ['has([1, NULL], NULL)', 1],
  ['hasAll([1, 2, 3], [1, 3])', 1],
  ['hasAll([1], [])', 1],
  ['hasAny([1, 2], [3])', 0],
  ['hasAny([1, 2], [2, 3])', 1],
  ['hasSubstr([1, 2, 3, 4], [2, 3])', 1],
  ['hasSubstr([1, 2, 3], [3, 2])', 0],
  ['indexOf([1, 3, NULL], 3)', 2],
  ["indexOf(['a'], 'z')", 0],
  ['countEqual([1, 2, NULL, NULL], NULL)', 2],
  ['range(3)', [0, 1, 2]],
  ['range(1, 7, 2)', [1, 3, 5]],
  ['range(0)', []],
  ['range(5, 1, -2)', [5, 3]],
  ["JSONExtractArrayRaw('[1, \"a\", null]')", ['1', '"a"', 'null']],
  ["JSONExtractArrayRaw(properties.json, 'b')", ['1', '"x"', 'null']],
  ["JSONExtractArrayRaw('{}')", []],
  ["JSONExtractKeys('{\"a\": 1, \"b\": 2}')", ['a', 'b']],
  ['empty([])', 1],
  ['notEmpty([1])', 1],
  ["empty('')", 1],
  ["notEmpty('x')", 1],
  ['length([1, 2])', 2],
  // Strings with quotes inside arrays stay values.
  ["['it''s', 'a\"b', '); drop table events; --']", ["it's", 'a"b', '); drop table events; --']],
  ["has(['x''); select 1; --'], 'x''); select 1; --')", 1],
];

const CASES: RowsCase[] = [
  { name: 'arrayJoin of range() gives typed rows', query: "select arrayJoin(range(3)) as n from events where event = 'lists' order by n", rows: [[0], [1], [2]] },
  {
    name: 'arrayJoin of zipped arrays gives tuples with typed items',
    query: "select arrayJoin(arrayZip(['a', 'b'], [1, 2])) as t from events where event = 'lists' order by t",
    rows: [[['a', 1]], [['b', 2]]],
  },
  {
    name: 'arrayJoin of a literal array of strings',
    query: "select arrayJoin(['b', 'a']) as s from events where event = 'lists' order by s",
    rows: [['a'], ['b']],
  },
  { name: 'an element of groupArray()', query: 'select arraySort(groupArray(distinct_id))[1] from events', rows: [['alice']] },
  {
    name: "a lambda over an aggregate's array",
    query: 'select arrayMap(x -> x * 2, arraySort(groupArray(toInt(properties.nums[1])))) from events',
    rows: [[[6, 20]]],
  },
  {
    name: 'events in the order of their times, from groupArray of tuples',
    query: 'select arrayMap(x -> x.1, arraySort(x -> x.2, groupArray((event, timestamp)))) from events',
    rows: [[['lists', 'other']]],
  },
  {
    name: 'groupArray of datetimes writes them as the response does',
    query: 'select arraySort(groupArray(timestamp)), arrayStringConcat(arraySort(groupArray(event)), \',\') from events',
    rows: [[['2024-01-01T10:00:00.000Z', '2024-01-02T10:00:00.000Z'], 'lists,other']],
  },
  {
    name: 'an aggregate inside a lambda is computed over the rows, and named inside an argument',
    query: "select arrayMap(d -> indexOf(arraySort(groupArray(event)) AS sorted, d) + length(sorted), ['other', 'lists', 'none']) from events",
    rows: [[[4, 3, 2]]],
  },
  {
    name: "columns read an arrayJoin's element by its name, on each element",
    query: "select arrayJoin(arrayZip(['a', 'b'], [1, 2])) as pair, pair.1 as letter, pair.2 + 10 as number from events where event = 'lists' order by letter",
    rows: [
      [['a', 1], 'a', 11],
      [['b', 2], 'b', 12],
    ],
  },
  {
    name: "an arrayJoin's element read by name, of an array built from aggregates",
    query: "select arrayJoin(arrayZip(arraySort(groupArray(event)), [1, 2])) as pair, pair.1 as event_name, pair.2 as position from events order by position",
    rows: [
      [['lists', 1], 'lists', 1],
      [['other', 2], 'other', 2],
    ],
  },
  { name: 'arrayConcat of arrays of tuples keeps their items\' types', query: "select arrayConcat(arrayZip(['a'], [1]), arrayZip(['b'], [2]))[2].2 + 1 from events where event = 'lists'", rows: [[3]] },
  { name: 'numbers() without an alias is named numbers', query: 'select numbers.number from numbers(3) order by number', rows: [[0], [1], [2]] },
  {
    name: 'an aggregate inside a lambda makes the column an aggregate: one row',
    query: 'select arrayMap(n -> countEqual(groupArray(toInt(length(event))), n), [5, 4]) from events',
    rows: [[[2, 0]]],
  },
  { name: 'a column that reads no field stands beside aggregates', query: 'select arrayMap(n -> n + 1, range(2)) as r, count() from events', rows: [[[1, 2], 2]] },
  {
    name: 'a lambda and arrays cannot reach the other environment',
    query: "select count(), sum(arraySum(arrayFilter(x -> x > 0, properties.nums))) from events where has(properties.tags, 'a') or distinct_id = 'mallory'",
    rows: [[1, 6]],
  },
  {
    name: 'a tuple IN a subquery reads only this environment',
    query: "select count() from events where ('secret', 'mallory') IN (select event, distinct_id from events)",
    rows: [[0]],
  },
  {
    name: 'an array with a lambda is the same expression in SELECT and GROUP BY',
    query: 'select arrayMap(x -> x * 2, [toInt(length(event))]) as doubled, count() from events group by doubled order by doubled',
    rows: [[[10], 2]],
  },
  {
    name: 'datetimes in an array are written as the response writes them, and read back',
    query: "select [timestamp], [timestamp][1], arraySort([timestamp, timestamp - interval 1 day])[1] from events where event = 'lists'",
    rows: [[['2024-01-01T10:00:00.000Z'], '2024-01-01T10:00:00.000Z', '2023-12-31T10:00:00.000Z']],
  },
  {
    // ClickHouse computes an aggregate in a lambda that does not read its parameters once per group.
    name: "an aggregate inside a lambda is the group's (a 24-hour sparkline's counts per hour)",
    query: 'select event, arrayMap(h -> countEqual(groupArray(toHour(timestamp)), h), range(9, 12)), arrayMap(h -> count(distinct_id) * h, [1, 2]) from events group by event order by event',
    rows: [
      ['lists', [0, 1, 0], [1, 2]],
      ['other', [0, 1, 0], [1, 2]],
    ],
  },
  {
    name: "an aggregate inside a lambda reads only this environment's rows",
    query: 'select arrayMap(h -> countEqual(groupArray(toHour(timestamp)), h), [10, 11]), arrayMap(h -> sum(arrayMap(x -> x * 1, properties.nums)[1]) + h, [0, 1]) from events',
    rows: [[[2, 0], [13, 14]]],
  },
  {
    name: 'a lambda parameter shadows a column alias',
    query: "select 5 as x, arrayMap(x -> x + 1, [1]) from events where event = 'lists'",
    rows: [[5, [2]]],
  },
];

const REFUSED: [string, string][] = [
  ["select x -> x from events", 'A lambda (x -> …) can only be an argument of a function that calls it, such as arrayMap().'],
  ['select arrayMap(x -> x, 1) from events', 'arrayMap() needs an array, not a value of type Integer.'],
  ['select arrayMap((x, y) -> x, [1]) from events', 'The lambda of arrayMap() takes 2 parameters but is given 1 array.'],
  ['select arrayMap([1], [2]) from events', 'arrayMap() takes a lambda as its first argument, such as arrayMap(x -> x > 1, array).'],
  [
    'select arrayMap(x -> count(), [1]) from events',
    "An aggregate function inside a lambda must read a column of the query's rows; count() here reads none, and would be computed over the lambda's elements instead of the group's rows.",
  ],
  ['select arrayMap(x -> sum(x), [1]) from events', 'A lambda cannot hold an aggregate function that reads its parameter "x"; aggregate the array instead.'],
  ['select arrayMap(x -> arrayMap(y -> sum(x + y), [1]), [1]) from events', 'A lambda cannot hold an aggregate function that reads its parameter "x"; aggregate the array instead.'],
  ["select [1, 'a'] from events", 'An array has no common type for Integer and String.'],
  ['select (1, 2).3 from events', 'The tuple has 2 items: there is no item 3.'],
  ["select 'abc'[1] from events", 'Cannot take an element of a String; only of an array or a tuple.'],
  ['select [1, 2] < [1, 3] from events', 'Arrays and tuples can only be compared with = and !=, not <.'],
  ['select range(2000000) from events', 'range() builds at most 1000000 elements; this one would have 2000000.'],
  ['select range(1, 5, 0) from events', 'The step of range() cannot be 0.'],
  ['select arrayMap(x -> range(20000), [1]) from events', 'range() builds at most 10000 elements inside a lambda; this one would have 20000.'],
  ["select (event, distinct_id) IN (select event from events) from events", 'A subquery after IN must select 2 columns, one for each item of the tuple, not 1.'],
  ["select (event, distinct_id) IN (('a', 'b', 'c')) from events", 'A tuple of 2 items can only be IN a list of tuples of 2 items.'],
  ['select arrayFold((acc, x) -> acc + x, [1], 0) from events', `The function arrayFold() is not available: it runs a lambda over an accumulator element after element, which a query over the elements as a set of rows cannot do exactly.`],
];

describe('query: HogQL arrays, tuples and lambdas', function () {
  this.timeout(60_000);
  const queries = hogqlQueryServer(async ({ db, account }) => {
    await insertEvents(db, account.environment.id, EVENTS);
    const other = await newQueryAccount(db);
    await insertEvents(db, other.environment.id, OTHER_EVENTS);
  });

  itAnswersRows(
    VALUES.map(([expression, value]) => ({ name: expression, query: `select ${expression} from events where event = 'lists'`, rows: [[value]] })),
    queries,
  );

  itAnswersRows(CASES, queries);

  it('types of array and tuple columns', async () => {
    const response = await queries.post("select [1, 2], ['a'], (1, 'a'), splitByChar(',', event), properties.nums, [1, NULL], [timestamp] from events where event = 'lists'");
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.types.map((pair: [string, string]) => pair[1])).to.deep.equal([
      'Array(Int64)',
      'Array(String)',
      'Tuple(Int64, String)',
      'Array(String)',
      'Nullable(String)',
      'Array(Nullable(Int64))',
      "Array(DateTime64(6, 'UTC'))",
    ]);
  });

  it('a hostile nesting of ranges runs bounded: cancelled at the statement timeout, never a 500', async () => {
    // 10 000 elements for each of 1 000 000: no bound at compile time sees the product, the timeout stops it.
    const response = await queries.post('select length(arrayMap(x -> range(10000), range(1000000))) from events');
    expect(response.status, JSON.stringify(response.body)).to.be.oneOf([400, 504]);
    expect(response.body.type, JSON.stringify(response.body)).to.not.equal('server_error_internal');
  });

  itRefuses(
    REFUSED.map(([query, detail]) => ({ name: query, query, detail })),
    queries,
  );
});
