/**
 * PostHog's aggregate functions and its own functions through POST …/query/, on a fixed data set: numbers as JSON
 * numbers and as text, nulls, missing properties and lists; combinators (If, OrNull, OrDefault, Array);
 * parametric calls; groups with no rows. Expected values are ClickHouse's (for its approximate functions, the
 * exact answer they approximate). A second environment holds events that would change every answer. Then the
 * refusals: 400s with their messages, never a 500.
 */
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { hogqlQueryServer, itAnswersRows, itRefuses, newQueryAccount, type RefusalCase, type RowsCase } from '../helpers/hogql-query-cases.js';

const EVENTS: NewEvent[] = [
  { event: 'a', distinct_id: 'alice', timestamp: '2024-01-01T00:00:00Z', properties: { v: 1, w: 3, tags: [1, 2], ver: '1.2.3', lang: 'en' } },
  { event: 'a', distinct_id: 'alice', timestamp: '2024-01-01T01:00:00Z', properties: { v: '2', w: '5', tags: [2, 3], ver: 'v1.10.0', lang: 'fr' } },
  { event: 'a', distinct_id: 'bob', timestamp: '2024-01-02T00:00:00Z', properties: { v: 3, w: 7, tags: [], ver: 'x', lang: 'EN' } },
  { event: 'b', distinct_id: 'bob', timestamp: '2024-01-03T00:00:00Z', properties: { v: 4, w: 9, tags: [4], ver: '01.2.3' } },
  { event: 'b', distinct_id: 'carol', timestamp: '2024-01-04T00:00:00Z', properties: { v: null, tags: null, ver: ' 2.0.0-beta.1 ' } },
  { event: 'c', distinct_id: 'carol', timestamp: '2024-01-05T00:00:00Z', properties: {} },
];

/** The other environment: values that would change each aggregate if its rows were read. */
const OTHER_EVENTS: NewEvent[] = [
  { event: 'a', distinct_id: 'mallory', timestamp: '2024-01-01T00:30:00Z', properties: { v: 1000, w: -1, tags: [99, 99, 99], ver: '9.9.9', lang: 'de' } },
  { event: 'z', distinct_id: 'mallory', timestamp: '2024-01-01T00:30:00Z', properties: { v: -5 } },
];

const CASES: RowsCase[] = [
  {
    name: 'variances and standard deviations (numbers as JSON numbers and as text; nulls and missing values skipped)',
    query: 'select varPop(properties.v), varSamp(properties.v), stddevPop(properties.v), stddevSamp(properties.v) from events',
    rows: [[1.25, 1.6666666666666667, 1.118033988749895, 1.2909944487358056]],
  },
  {
    name: 'covariances, correlation, regression of two properties',
    query: 'select covarPop(properties.v, properties.w), covarSamp(properties.v, properties.w), corr(properties.v, properties.w), simpleLinearRegression(properties.v, properties.w) from events',
    rows: [[2.5, 3.3333333333333335, 1, [2, 1]]],
  },
  {
    name: 'skewness and kurtosis of the population',
    query: 'select skewPop(properties.v), kurtPop(properties.v) from events',
    rows: [[0, 1.64]],
  },
  {
    name: 'skewness of a population and of a sample (ClickHouse’s example: the squares of 0 to 9)',
    query: "select skewPop(toFloat(x)), skewSamp(toFloat(x)) from (select arrayJoin(splitByChar(',', '0,1,4,9,16,25,36,49,64,81')) as x from events where event = 'c')",
    rows: [[0.6735701055423582, 0.5751042382747413]],
  },
  {
    name: 'kurtosis of a sample (ClickHouse’s example: 1 to 10)',
    query: "select kurtSamp(toInt(x)) from (select arrayJoin(splitByChar(',', '1,2,3,4,5,6,7,8,9,10')) as x from events where event = 'c')",
    rows: [[1.4383636363636365]],
  },
  {
    name: 'no skewness or kurtosis of no values, nor of a sample of one',
    query: "select skewSampIf(properties.v, event = 'c'), kurtSampIf(properties.v, event = 'b'), skewPopIf(properties.v, event = 'b') from events",
    rows: [[null, null, null]],
  },
  {
    name: 'the If forms of the statistics',
    query: "select varPopIf(properties.v, event = 'a'), stddevSampIf(properties.v, event = 'a'), covarPopIf(properties.v, properties.w, event = 'a') from events",
    rows: [[0.6666666666666666, 1, 1.3333333333333333]],
  },
  {
    name: 'avgWeighted',
    query: 'select avgWeighted(properties.v, properties.w), avgWeightedIf(properties.v, properties.w, event = \'b\') from events',
    rows: [[2.9166666666666665, 4]],
  },
  {
    name: 'quantiles, exact quantiles and medians',
    query:
      'select quantiles(0.25, 0.5, 0.75)(properties.v), quantileExact(0.25)(properties.v), quantileExact(1)(properties.v), medianExact(properties.v), medianExactLow(properties.v), medianExactHigh(properties.v), medianTDigest(properties.v) from events',
    rows: [[[1.75, 2.5, 3.25], 2, 4, 3, 2, 3, 2.5]],
  },
  {
    name: 'the If forms of quantiles and medians',
    query: "select quantileIf(0.5)(properties.v, event = 'a'), quantilesIf(0.5)(properties.v, event = 'b'), medianIf(properties.v, event = 'a'), medianExactLowIf(properties.v, event = 'a') from events",
    rows: [[2, [4], 2, 2]],
  },
  {
    name: 'sumMap, minMap, maxMap and sumMapIf: the keys in order, a total per key (this environment only)',
    query:
      "select sumMap([event], [1]), minMap([event], [toDayOfMonth(timestamp)]), maxMap([event], [toDayOfMonth(timestamp)]), sumMapIf([event], [1], distinct_id = 'bob'), sumMap([event, 'z'], [1, 0], [10, 1]) from events",
    rows: [[[['a', 'b', 'c'], [3, 2, 1]], [['a', 'b', 'c'], [1, 3, 5]], [['a', 'b', 'c'], [2, 4, 5]], [['a', 'b'], [1, 1]], [['a', 'b', 'c', 'z'], [3, 2, 1, 0], [30, 20, 10, 6]]]],
  },
  {
    name: "sumMap over numeric keys, as ClickHouse's documentation sums its status maps; .1 and .2 of the tuple it answers",
    query:
      'select (sumMap(keys, values) as m).1, m.2, sumMap(keys, values).2[3] from (select [[1, 2, 3], [3, 4, 5], [4, 5, 6], [6, 7, 8]][number + 1] as keys, [10, 10, 10] as values from numbers(4) where number < 2)',
    rows: [[[1, 2, 3, 4, 5], [10, 10, 20, 10, 10], 20]],
  },
  {
    name: 'sumMap and maxMap of a tuple of arrays, as of the arrays it holds',
    query: "select sumMap(([event, 'z'], [1, 2])), maxMap(tuple([toDayOfMonth(timestamp)], [event])) from events",
    rows: [[[['a', 'b', 'c', 'z'], [3, 2, 1, 12]], [[1, 2, 3, 4, 5], ['a', 'a', 'b', 'b', 'c']]]],
  },
  {
    name: 'sumMap of nothing: empty arrays',
    query: "select sumMap([event], [1]) from events where event = 'zzz'",
    rows: [[[[], []]]],
  },
  {
    name: 'x.N of an array of tuples: the array of their items N',
    query: "select [(1, 'a'), (2, 'b')].2, g.1 from (select [(3, 'c')] as g)",
    rows: [[['a', 'b'], [3]]],
  },
  {
    name: 'topK, groupUniqArray, groupArrayIf',
    query: "select topK(2)(event), topK(10)(event), groupUniqArray(event), groupUniqArrayIf(distinct_id, event = 'a'), groupArrayIf(event, distinct_id = 'alice') from events",
    rows: [[['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c'], ['alice', 'bob'], ['a', 'a']]],
  },
  {
    name: 'topK and groupUniqArray of a property: its values as text, a number and its text one value',
    query: "select topK(1)(properties.v), groupUniqArray(properties.v), groupUniqArrayIf(properties.w, event = 'a') from events",
    rows: [[['1'], ['1', '2', '3', '4'], ['3', '5', '7']]],
  },
  {
    name: 'the Array combinator over lists in properties (an empty list, null and a missing one add nothing)',
    query:
      'select sumArray(properties.tags), countArray(properties.tags), avgArray(properties.tags), minArray(properties.tags), maxArray(properties.tags), countDistinctArray(properties.tags), medianArray(properties.tags) from events',
    rows: [[12, 5, 2.4, 1, 4, 4, 2]],
  },
  {
    name: 'Array with If, OrNull and OrDefault',
    query:
      "select sumArrayIf(properties.tags, event = 'b'), sumArrayOrNullIf(properties.tags, event = 'c'), avgArrayOrDefaultIf(properties.tags, event = 'c'), countArrayIf(properties.tags, event = 'a') from events",
    rows: [[4, null, 0, 4]],
  },
  {
    name: 'the ForEach combinator: an aggregate per position, as long as the longest list',
    query:
      "select sumForEach(properties.tags), minForEach(properties.tags), countForEach(properties.tags), avgForEachIf(properties.tags, event = 'a'), sumForEachOrNullIf(properties.tags, event = 'c'), sumForEachIf(properties.tags, event = 'c') from events",
    rows: [[[7, 5], [1, 2], [3, 2], [1.5, 2.5], null, []]],
  },
  {
    name: 'OrNull and OrDefault over rows',
    query:
      "select sumOrNullIf(properties.v, event = 'c'), sumOrNull(properties.v), countOrNullIf(event = 'zzz'), countOrDefaultIf(event = 'zzz'), avgOrDefaultIf(properties.v, event = 'c'), maxOrNullIf(properties.v, event = 'b'), minOrDefaultIf(event, event = 'zzz') from events",
    rows: [[null, 10, null, 0, 0, '4', '']],
  },
  {
    name: 'countIf with a value, countDistinctIf, uniq of several arguments, uniqHLL12, uniqTheta, uniqExactIf',
    query:
      "select countIf(properties.v, event = 'b'), countDistinctIf(distinct_id, event = 'a'), uniq(event, distinct_id), uniqExact(event, distinct_id), uniqHLL12(distinct_id), uniqTheta(distinct_id), uniqExactIf(event, distinct_id = 'carol'), uniqIf(event, distinct_id, timestamp > '2024-01-01 12:00:00'), uniqHLL12If(event, distinct_id, event != 'c') from events",
    rows: [[1, 2, 5, 5, 3, 3, 2, 4, 4]],
  },
  {
    name: 'anyHeavy, anyLastIf, anyIf, argMaxIf, argMinIf',
    query:
      "select anyHeavy(event), anyLastIf(event, distinct_id = 'carol' and event = 'c'), anyIf(distinct_id, event = 'c'), argMaxIf(event, timestamp, distinct_id = 'bob'), argMinIf(distinct_id, properties.v, event = 'b') from events",
    rows: [['a', 'c', 'carol', 'b', 'bob']],
  },
  {
    name: 'groupBitAnd, groupBitOr, groupBitXor, groupBitmap',
    query: 'select groupBitAnd(properties.v), groupBitOr(properties.v), groupBitXor(properties.v), groupBitmap(properties.v), groupBitOrIf(properties.v, event = \'a\') from events',
    rows: [[0, 7, 4, 4, 3]],
  },
  {
    name: 'every, string_agg, array_agg',
    query: "select every(event != 'z'), every(properties.v > 0), string_agg(event, '-'), array_agg(event) from events where distinct_id = 'alice'",
    rows: [[true, true, 'a-a', ['a', 'a']]],
  },
  {
    name: 'aggregates per group, with a group whose values are all missing',
    query: 'select event, varPop(properties.v), sumArray(properties.tags), topK(1)(distinct_id), quantiles(0.5)(properties.v) from events group by event order by event',
    rows: [
      ['a', 0.6666666666666666, 8, ['alice'], [2]],
      ['b', 0, 4, ['bob'], [4]],
      ['c', null, 0, ['carol'], [null]],
    ],
  },
  {
    name: 'no rows at all',
    query:
      "select varPop(properties.v), topK(2)(event), groupUniqArray(event), sumArray(properties.tags), countArray(properties.tags), quantiles(0.5)(properties.v), groupBitOr(properties.v), every(event = 'a'), string_agg(event, ',') from events where event = 'zzz'",
    rows: [[null, [], [], 0, 0, [null], 0, false, '']],
  },
  {
    name: 'windowFunnel per person: the window inclusive, a step restarted, one event on two steps, Date and one-step funnels',
    query:
      "select distinct_id, windowFunnel(86400)(timestamp, event = 'a', event = 'b'), windowFunnel(86399)(timestamp, event = 'a', event = 'b'), windowFunnel(3600)(timestamp, event = 'a', event = 'a'), windowFunnel(1000000)(timestamp, event = 'b', event = 'c', event = 'a'), windowFunnel(1)(toDate(timestamp), event = 'a', event = 'b'), windowFunnel(10)(timestamp, event = 'c') from events group by distinct_id order by distinct_id",
    rows: [
      ['alice', 1, 1, 2, 0, 1, 0],
      ['bob', 2, 1, 2, 1, 2, 0],
      ['carol', 0, 0, 0, 2, 0, 1],
    ],
  },
  {
    name: 'windowFunnel over no rows, and the funnel of all events by the order of their steps',
    query:
      "select windowFunnel(10)(timestamp, event = 'zzz', event = 'a'), windowFunnel(1000000)(timestamp, event = 'a', event = 'b', event = 'c') from events",
    rows: [[0, 3]],
  },
  {
    name: 'maxIntersections and maxIntersectionsPosition (ClickHouse’s example: (1, 3), (1, 6), (2, 5), (3, 7)); zero and null ends skipped',
    query:
      "select maxIntersections(s, e), maxIntersectionsPosition(s, e), maxIntersectionsIf(s, e, s > 1), maxIntersections(s, 0) from (select toInt(properties.v) as s, toInt(properties.w) as e from events where properties.v != 4 union all select 1 as s, 6 as e from events where event = 'c')",
    rows: [[3, 2, 2, 0]],
  },
  {
    name: 'deltaSumTimestamp: the rises between values in timestamp order (ClickHouse’s example: 0, 4, 8, 3, 0, 0, 0, 1, 3, 5 answers 13)',
    query: "select deltaSumTimestamp(v, t) from (select 4 as t, 3 as v from events where event = 'c' union all select 1 as t, 0 as v from events where event = 'c' union all select 10 as t, 5 as v from events where event = 'c' union all select 6 as t, 0 as v from events where event = 'c' union all select 2 as t, 4 as v from events where event = 'c' union all select 8 as t, 1 as v from events where event = 'c' union all select 3 as t, 8 as v from events where event = 'c' union all select 9 as t, 3 as v from events where event = 'c' union all select 5 as t, 0 as v from events where event = 'c' union all select 7 as t, 0 as v from events where event = 'c')",
    rows: [[13]],
  },
  {
    name: 'deltaSumTimestamp of events by their time, and its If form',
    query: "select deltaSumTimestamp(properties.v, timestamp), deltaSumTimestampIf(properties.w, timestamp, event = 'a'), deltaSumTimestamp(properties.v, toDate(timestamp)) from events",
    rows: [[3, 4, 3]],
  },
  {
    name: 'sortableSemVer',
    query: 'select properties.ver, sortableSemVer(properties.ver) from events order by timestamp',
    rows: [
      ['1.2.3', [1, 2, 3]],
      ['v1.10.0', [1, 10, 0]],
      ['x', [null]],
      ['01.2.3', [null]],
      [' 2.0.0-beta.1 ', [2, 0, 0]],
      [null, [null]],
    ],
  },
  {
    name: 'sortableSemVer of a part beyond a 64-bit integer, and of a build suffix',
    query: "select sortableSemVer('99999999999999999999.1.1'), sortableSemVer('v3.0.12+build.7'), sortableSemVer('1.2'), sortableSemVer('1.2.3.4') from events limit 1",
    rows: [[[null, 1, 1], [3, 0, 12], [null], [null]]],
  },
  {
    name: 'languageCodeToName (case matters; null stays null)',
    query: "select properties.lang, languageCodeToName(properties.lang), languageCodeToName('nb') from events where event = 'a' or event = 'c' order by timestamp",
    rows: [
      ['en', 'English', 'Norwegian Bokmål'],
      ['fr', 'French', 'Norwegian Bokmål'],
      ['EN', 'Unknown', 'Norwegian Bokmål'],
      [null, null, 'Norwegian Bokmål'],
    ],
  },
  {
    name: 'sparkline, as PostHog answers its tag',
    query: "select sparkline(splitByChar(',', '1,2,3')) from events limit 1",
    rows: [[['__hx_tag', 'Sparkline', 'data', ['1', '2', '3']]]],
  },
];

const REFUSED: RefusalCase[] = [
  {
    name: 'a -State combinator',
    query: 'select sumState(properties.v) from events',
    detail: 'The function sumState() is not available: the -State combinator returns ClickHouse’s internal aggregation state, which has no form here.',
  },
  {
    name: 'a -Merge combinator',
    query: 'select uniqMerge(event) from events',
    detail: 'The function uniqMerge() is not available: the -Merge combinator reads ClickHouse’s internal aggregation states, which are never stored here.',
  },
  { name: 'sumMap() of one value that is not a tuple of arrays', query: 'select sumMap(properties.v) from events', detail: 'sumMap() of one argument needs a tuple of arrays: the keys, then the values.' },
  {
    name: 'a -Map combinator',
    query: 'select avgMap(properties.v) from events',
    detail: 'The function avgMap() is not available: the -Map combinator aggregates ClickHouse Map values, and HogQL values here have no Map type.',
  },
  {
    name: 'a random sample',
    query: 'select groupArraySample(2)(event) from events',
    detail:
      'The function groupArraySample() is not available: it picks a random sample, so the same query could answer differently each time; use groupArray() with LIMIT in a subquery.',
  },
  {
    name: 'a mode of windowFunnel',
    query: "select windowFunnel(3600, 'strict_order')(timestamp, event = 'a', event = 'b') from events",
    detail: 'windowFunnel() runs in its default mode only: its modes (strict_deduplication, strict_order, strict_increase, …) are not supported.',
  },
  { name: 'windowFunnel without its window', query: "select windowFunnel(timestamp, event = 'a') from events", detail: 'windowFunnel() needs its parameters: windowFunnel(p)(x).' },
  { name: 'a negative window', query: "select windowFunnel(-1)(timestamp, event = 'a') from events", detail: 'The window of windowFunnel() must be an integer constant from 0 to 9007199254740991.' },
  { name: 'a window from the data', query: "select windowFunnel(properties.v)(timestamp, event = 'a') from events", detail: 'The window of windowFunnel() must be an integer constant from 0 to 9007199254740991.' },
  { name: 'a text as the funnel timestamp', query: "select windowFunnel(10)(event, event = 'a') from events", detail: 'The timestamp of windowFunnel() must be a DateTime, a Date or a number.' },
  { name: 'a text as a funnel step', query: "select windowFunnel(10)(timestamp, event) from events", detail: 'A String is not a condition; compare it with something.' },
  {
    name: 'a statistic whose powers overflow a float',
    query: 'select kurtPop(toFloat(properties.v) * 1e100) from events',
    detail: 'A number or date in the query is out of range.',
  },
  { name: 'matchesAction', query: 'select matchesAction(1) from events', detail: 'The function matchesAction() is not available: Hedgerow has no actions to match events against.' },
  { name: 'topK without its parameter', query: 'select topK(event) from events', detail: 'topK() needs its parameters: topK(p)(x).' },
  { name: 'topK of a huge count', query: 'select topK(100000000)(event) from events', detail: 'The number of values of topK() must be an integer constant from 1 to 10000.' },
  { name: 'a quantile level above 1', query: 'select quantiles(0.5, 2)(properties.v) from events', detail: 'The level of quantiles() must be a number constant from 0 to 1.' },
  { name: 'a parameter that is not a constant', query: 'select quantileExact(properties.v)(properties.v) from events', detail: 'The level of quantileExact() must be a number constant from 0 to 1.' },
  { name: 'parameters to a function that takes none', query: 'select varPop(1)(properties.v) from events', detail: 'varPop() takes no parameters.' },
  { name: 'an aggregate inside a combinator form', query: "select sumArrayIf(groupArray(properties.tags), event = 'a') from events", detail: 'Aggregate functions cannot be nested: groupArray() inside another.' },
  { name: 'an aggregate in WHERE', query: 'select 1 from events where varPop(properties.v) > 0', detail: 'Aggregate functions such as varPop() are not allowed in WHERE.' },
  { name: 'string_agg with a computed separator', query: 'select string_agg(event, event) from events', detail: 'The separator of string_agg() must be a string constant.' },
  { name: 'a text as the list of an Array combinator', query: "select sumArray('1,2') from events", detail: "Cannot convert '1,2' to Array." },
];

describe('query: HogQL aggregates and PostHog functions', function () {
  this.timeout(60_000);
  const queries = hogqlQueryServer(async ({ db, account }) => {
    const team = account.environment.id;
    await insertEvents(db, team, EVENTS);
    const other = await newQueryAccount(db);
    await insertEvents(db, other.environment.id, OTHER_EVENTS);
  });

  itAnswersRows(CASES, queries);

  itRefuses(REFUSED, queries);
});
