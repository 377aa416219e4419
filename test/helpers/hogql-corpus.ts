/**
 * The HogQL corpus of test/integration/query-hogql-corpus.test.ts: queries as PostHog writes them, each with the
 * rows PostHog answers on the fixed month of test/helpers/corpus-data.ts (that test's comment tells how the
 * expected rows are made and compared).
 */
import {
  EVENTS,
  GROUPS,
  PERSONS,
  SESSIONS,
  countBy,
  dateIn,
  day,
  hourIn,
  prop,
  sortRows,
  uniqBy,
  where,
  type CorpusEvent,
} from '../helpers/corpus-data.js';

export type Rows = unknown[][];

export interface CorpusQuery {
  /** Where PostHog writes it: a repository path of PostHog/posthog or a URL. */
  source: string;
  query: string;
  values?: Record<string, unknown>;
  /** HogQLQuery.filters, as PostHog fills {filters}. */
  filters?: Record<string, unknown>;
  /** HogQLQuery.variables, as PostHog fills {variables.name}. */
  variables?: Record<string, { code_name: string; value: unknown; variableId: string }>;
  /** Run in the environment whose timezone is America/New_York (the same events). */
  newYork?: boolean;
  /** 'set' when PostHog's query leaves the order of its rows open. */
  order?: 'set';
  rows?: Rows | (() => Rows);
  /** A query PostHog refuses too: part of the 400's message. */
  refused?: string;
  /**
   * Where Hedgerow knowingly answers otherwise than PostHog (`rows` stays PostHog's answer): why, and what
   * Hedgerow answers instead, a 400 naming what is missing or rows derived from PostHog's. The suite checks
   * that answer, and the share counts the query as not run with PostHog's result.
   */
  differs?: { because: string; refused?: string; rows?: (posthog: Rows) => Rows };
}

const PV = (): CorpusEvent[] => where((e) => e.event === '$pageview');
/** A timestamp as the API answers it. */
const dt = (text: string): string => new Date(text.includes('T') ? text : `${text.replace(' ', 'T')}Z`).toISOString();
const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;
/** ClickHouse's round(x) of a Float64: halves go to the even neighbour. */
const roundHalfEven = (value: number): number => {
  const floor = Math.floor(value);
  const fraction = value - floor;
  if (fraction !== 0.5) return Math.round(value);
  return floor % 2 === 0 ? floor : floor + 1;
};
const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
const avg = (values: number[]): number => sum(values) / values.length;
const uniq = <T>(values: T[]): number => new Set(values).size;
const personOf = (e: CorpusEvent): string => e.person.uuid;
const num = (e: CorpusEvent, name: string): number => Number(e.properties[name]);
/** ClickHouse's quantile() on fewer values than its reservoir: linear interpolation at level × (n − 1). */
const quantile = (level: number, values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const position = level * (sorted.length - 1);
  const low = Math.floor(position);
  return sorted[low]! + (position - low) * ((sorted[low + 1] ?? sorted[low]!) - sorted[low]!);
};
const days = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => `2024-03-${String(from + i).padStart(2, '0')}`);
const pageviewsOn = (d: string): number => PV().filter((e) => day(e) === d).length;
/** ClickHouse's toStartOfWeek(t) (mode 0): the Sunday on or before. */
const startOfWeek = (d: string): string => {
  const date = new Date(`${d}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - date.getUTCDay());
  return date.toISOString().slice(0, 10);
};
/** toStartOfWeek(t, 1) and toMonday: the Monday on or before. */
const monday = (d: string): string => {
  const date = new Date(`${d}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - ((date.getUTCDay() + 6) % 7));
  return date.toISOString().slice(0, 10);
};
/** The instant of midnight of a New York date (EST until 10 March 2024 02:00, EDT after). */
const newYorkMidnight = (d: string): string => new Date(`${d}T0${d >= '2024-03-11' ? 4 : 5}:00:00Z`).toISOString();

const LIFECYCLE_EVENTS_QUERY = `SELECT
    min(events.person.created_at) AS created_at,
    arraySort(groupUniqArray(toStartOfDay(events.timestamp))) AS all_activity,
    arrayPopBack(arrayPushFront(all_activity, toStartOfDay(created_at))) as previous_activity,
    arrayPopFront(arrayPushBack(all_activity, toStartOfDay(toDateTime('1970-01-01 00:00:00')))) as following_activity,
    arrayMap((previous, current, index) -> (previous = current ? 'new' : ((toTimeZone(current, 'UTC') - toIntervalDay(1)) = previous AND index != 1) ? 'returning' : 'resurrecting'), previous_activity, all_activity, arrayEnumerate(all_activity)) as initial_status,
    arrayMap((current, next) -> (toTimeZone(current, 'UTC') + toIntervalDay(1) = toTimeZone(next, 'UTC') ? '' : 'dormant'), all_activity, following_activity) as dormant_status,
    arrayMap(x -> toTimeZone(x, 'UTC') + toIntervalDay(1), arrayFilter((current, is_dormant) -> is_dormant = 'dormant', all_activity, dormant_status)) as dormant_periods,
    arrayMap(x -> 'dormant', dormant_periods) as dormant_label,
    arrayConcat(arrayZip(all_activity, initial_status), arrayZip(dormant_periods, dormant_label)) as temp_concat,
    arrayJoin(temp_concat) as period_status_pairs,
    period_status_pairs.1 as start_of_period,
    period_status_pairs.2 as status,
    person_id AS actor_id
FROM events
WHERE and(properties.$process_person_profile != 'false', events.timestamp >= toStartOfDay(assumeNotNull(toDateTime('2024-03-01 00:00:00'))) - toIntervalDay(1), events.timestamp < toStartOfDay(assumeNotNull(toDateTime('2024-03-07 23:59:59'))) + toIntervalDay(1), event = '$pageview')
GROUP BY actor_id`;

const LIFECYCLE_QUERY = `SELECT groupArray(start_of_period) AS date,
       groupArray(counts) AS total,
       status
FROM (
    SELECT
        status = 'dormant' ? negate(sum(counts)) : negate(negate(sum(counts))) as counts,
        start_of_period,
        status
    FROM (
        SELECT
            periods.start_of_period as start_of_period,
            0 AS counts,
            status
        FROM (
            SELECT (toStartOfDay(assumeNotNull(toDateTime('2024-03-07 23:59:59'))) - toIntervalDay(numbers.number)) AS start_of_period
            FROM numbers(dateDiff('day', toStartOfDay(assumeNotNull(toDateTime('2024-03-01 00:00:00'))), toStartOfDay(assumeNotNull(toDateTime('2024-03-07 23:59:59')) + toIntervalDay(1))))
        ) as periods
        CROSS JOIN (
            SELECT status
            FROM (SELECT 1)
            ARRAY JOIN ['new', 'returning', 'resurrecting', 'dormant'] as status
        ) as sec
        ORDER BY status, start_of_period
        UNION ALL
        SELECT
            start_of_period, count(DISTINCT actor_id) AS counts, status
        FROM (${LIFECYCLE_EVENTS_QUERY})
        GROUP BY start_of_period, status
    )
    WHERE start_of_period <= toStartOfDay(assumeNotNull(toDateTime('2024-03-07 23:59:59')))
        AND start_of_period >= toStartOfDay(assumeNotNull(toDateTime('2024-03-01 00:00:00')))
    GROUP BY start_of_period, status
    ORDER BY start_of_period ASC
)
GROUP BY status`;

/** The (period, status) pairs of the lifecycle's events query, with their distinct persons, as ClickHouse computes them. */
function lifecyclePairs(): Rows {
  const dayMs = 86_400_000;
  const counts = new Map<string, Set<string>>();
  for (const person of PERSONS) {
    const active = [...new Set(PV().filter((e) => e.person === person && e.timestamp >= '2024-02-29' && e.timestamp < '2024-03-08').map(day))].sort();
    if (active.length === 0) continue;
    const created = day(where((e) => e.person === person)[0]!);
    active.forEach((current, index) => {
      const previous = index === 0 ? created : active[index - 1]!;
      const status = previous === current ? 'new' : Date.parse(current) - dayMs === Date.parse(previous) && index !== 0 ? 'returning' : 'resurrecting';
      const key = `${current}|${status}`;
      counts.set(key, (counts.get(key) ?? new Set()).add(person.uuid));
      const next = active[index + 1];
      if (next === undefined || Date.parse(current) + dayMs !== Date.parse(next)) {
        const dormant = `${new Date(Date.parse(current) + dayMs).toISOString().slice(0, 10)}|dormant`;
        counts.set(dormant, (counts.get(dormant) ?? new Set()).add(person.uuid));
      }
    });
  }
  return [...counts.entries()].map(([key, set]) => [dt(`${key.split('|')[0]} 00:00:00`), set.size, key.split('|')[1]]);
}

function lifecycle(): Rows {
  const pairs = lifecyclePairs();
  return ['new', 'returning', 'resurrecting', 'dormant'].map((status) => {
    const dates = days(1, 7).map((d) => dt(`${d} 00:00:00`));
    const totals = dates.map((date) => {
      const n = pairs.filter(([d, , s]) => d === date && s === status).reduce((acc, [, c]) => acc + (c as number), 0);
      return status === 'dormant' ? -n : n;
    });
    return [dates, totals, status];
  });
}

/** TrendsQuery as its runner writes it: a value per day of 1–7 March 2024, zero-filled. */
const TRENDS_QUERY = (aggregate: string, interval: string, filters: string): string => `SELECT
    arrayMap(number -> plus(toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1)), toIntervalDay(number)), range(0, plus(coalesce(dateDiff('day', toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1)), toStartOfInterval(assumeNotNull(toDateTime('2024-03-07 23:59:59')), toIntervalDay(1)))), 1))) AS date,
    arrayMap(_match_date -> arraySum(arraySlice(groupArray(ifNull(count, 0)), indexOf(groupArray(day_start) AS _days_for_count, _match_date) AS _index, plus(minus(arrayLastIndex(x -> equals(x, _match_date), _days_for_count), _index), 1))), date) AS total
FROM
    (SELECT
        sum(total) AS count,
        day_start
    FROM
        (SELECT
            ${aggregate} AS total,
            ${interval} AS day_start
        FROM
            events AS e
        WHERE
            and(greaterOrEquals(timestamp, toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1))), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-07 23:59:59'))), ${filters})
        GROUP BY
            day_start)
    GROUP BY
        day_start
    ORDER BY
        day_start ASC)
ORDER BY
    arraySum(total) DESC
LIMIT 50000`;

const FUNNEL_QUERY = `SELECT
    sum(step_1) AS step_1,
    sum(step_2) AS step_2,
    arrayMap(x -> if(isNaN(x), NULL, x), [avgArray(step_1_conversion_times)])[1] AS step_1_average_conversion_time,
    arrayMap(x -> if(isNaN(x), NULL, x), [medianArray(step_1_conversion_times)])[1] AS step_1_median_conversion_time,
    groupArray(row_number) AS row_number,
    final_prop
FROM
    (SELECT
        countIf(notEquals(bitAnd(steps_bitfield, 1), 0)) AS step_1,
        countIf(notEquals(bitAnd(steps_bitfield, 2), 0)) AS step_2,
        groupArrayIf(timings[1], greater(timings[1], 0)) AS step_1_conversion_times,
        rowNumberInAllBlocks() AS row_number,
        if(less(row_number, 25), breakdown, ['Other']) AS final_prop
    FROM
        (SELECT
            arraySort(t -> t.1, groupArray(tuple(toFloat(timestamp), uuid, arrayMap(x -> ifNull(x, ''), prop_basic), arrayFilter(x -> notEquals(x, 0), [multiply(1, step_0), multiply(2, step_1)])))) AS events_array,
            argMinIf(prop_basic, timestamp, notEmpty(arrayFilter(x -> notEmpty(x), prop_basic))) AS prop,
            arrayJoin(aggregate_funnel_array(2, 1209600, 'first_touch', 'ordered', [if(empty(prop), [''], prop)], [], arrayFilter((x, x_before, x_after) -> not(and(lessOrEquals(length(x.4), 1), equals(x.4, x_before.4), equals(x.4, x_after.4), equals(x.3, x_before.3), equals(x.3, x_after.3), greater(x.1, x_before.1), less(x.1, x_after.1))), events_array, arrayRotateRight(events_array, 1), arrayRotateLeft(events_array, 1)))) AS af_tuple,
            af_tuple.1 AS step_reached,
            plus(af_tuple.1, 1) AS steps,
            af_tuple.2 AS breakdown,
            af_tuple.3 AS timings,
            af_tuple.5 AS steps_bitfield,
            aggregation_target
        FROM
            (SELECT
                e.timestamp AS timestamp,
                person_id AS aggregation_target,
                e.uuid AS uuid,
                e.$session_id AS $session_id,
                e.$window_id AS $window_id,
                if(equals(event, '$pageview'), 1, 0) AS step_0,
                if(equals(event, 'signed_up'), 1, 0) AS step_1,
                [ifNull(toString(person.properties.role), '')] AS prop_basic,
                prop_basic AS prop
            FROM
                events AS e
            WHERE
                and(and(and(greaterOrEquals(e.timestamp, toDateTime('2024-03-01 00:00:00.000000')), lessOrEquals(e.timestamp, toDateTime('2024-03-07 23:59:59.999999'))), in(event, tuple('$pageview', 'signed_up'))), or(equals(step_0, 1), equals(step_1, 1))))
        GROUP BY
            aggregation_target
        HAVING
            greaterOrEquals(step_reached, 0))
    GROUP BY
        breakdown
    ORDER BY
        step_2 DESC,
        step_1 DESC)
GROUP BY
    final_prop
ORDER BY
    step_2 DESC,
    step_1 DESC
LIMIT 26`;

/**
 * The two-step ordered funnel of 1–7 March: every person with a pageview enters; one converts when a sign-up
 * follows a pageview within 14 days, timed from the latest pageview before it (the shortest conversion, as
 * PostHog's funnel aggregation measures). No person has a role, so there is one breakdown value, [''].
 */
function funnel(): Rows {
  const inWindow = where((e) => e.timestamp >= '2024-03-01' && e.timestamp < '2024-03-08' && ['$pageview', 'signed_up'].includes(e.event));
  const persons = [...new Set(inWindow.map((e) => e.person))];
  const times: number[] = [];
  for (const person of persons) {
    const list = inWindow.filter((e) => e.person === person);
    let lastPageview: number | null = null;
    for (const e of list) {
      if (e.event === '$pageview') lastPageview = e.time.getTime();
      else if (lastPageview !== null && e.time.getTime() - lastPageview <= 1_209_600_000) {
        times.push((e.time.getTime() - lastPageview) / 1000);
        break;
      }
    }
  }
  const entered = persons.filter((person) => inWindow.some((e) => e.person === person && e.event === '$pageview')).length;
  return [[entered, times.length, times.length ? avg(times) : null, times.length ? quantile(0.5, times) : null, [0], ['']]];
}

const DOCS = 'https://posthog.com/docs';
const TEST_QUERY = 'posthog/hogql/test/test_query.py';
const AI_PROMPTS = 'ee/hogai/graph/sql/prompts.py';

export const CORPUS: CorpusQuery[] = [
  // ---------------------------------------------------------------------------------------------------------
  // PostHog's SQL documentation and tutorials.
  {
    source: `${DOCS}/sql (SQL insights: the most popular first pageview URLs)`,
    query: `SELECT
    properties.$current_url AS current_url,
    count() AS url_count
FROM events
WHERE event = '$pageview'
AND (distinct_id, timestamp) IN (
    SELECT distinct_id, min(timestamp)
    FROM events
    WHERE event = '$pageview'
    GROUP BY distinct_id
)
AND {filters}
GROUP BY current_url
ORDER BY url_count DESC`,
    order: 'set',
    rows: () => {
      const first = new Map<string, CorpusEvent>();
      for (const e of PV()) if (!first.has(e.distinct_id)) first.set(e.distinct_id, e);
      return countBy([...first.values()], (e) => prop(e, '$current_url'));
    },
  },
  {
    source: `after ${DOCS}/sql (SQL expressions: a breakdown into desktop or mobile)`,
    query: "SELECT multiIf(properties.$os == 'Android', 'mobile', properties.$os == 'iOS', 'mobile', 'desktop') AS device, count() FROM events WHERE event = '$pageview' GROUP BY device ORDER BY device",
    rows: () => sortRows(countBy(PV(), (e) => (['Android', 'iOS'].includes(prop(e, '$os')!) ? 'mobile' : 'desktop')), [0, 'asc']),
  },
  {
    source: `${DOCS}/data-warehouse/sql/useful-functions (aggregate functions)`,
    differs: {
      because: 'PostHog types a property by its property definition (Numeric here); Hedgerow keeps none, so max() and min() of a property answer its text, as PostHog does for an untyped one',
      rows: (posthog) => posthog.map((row) => [row[0], row[1], String(row[2]), String(row[3])]),
    },
    query: `SELECT
   avg(properties.$screen_height),
   sum(properties.$screen_height),
   max(properties.$screen_height),
   min(properties.$screen_height)
FROM events
WHERE event = '$pageview' AND properties.$screen_height IS NOT NULL`,
    rows: () => {
      const heights = PV().map((e) => num(e, '$screen_height'));
      return [[avg(heights), sum(heights), Math.max(...heights), Math.min(...heights)]];
    },
  },
  {
    source: `${DOCS}/hogql/guide (SELECT with concat; adapted: the guide's unordered listing ordered and limited to sign-ups)`,
    query: `SELECT
  event,
  timestamp,
  properties.$current_url,
  concat(properties.$lib, ' - ', properties.$lib_version)
FROM events
WHERE event = 'signed_up'
ORDER BY timestamp`,
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.event, dt(e.timestamp), prop(e, '$current_url'), 'web - 1.116.0']),
  },
  {
    source: `${DOCS}/hogql/guide (SELECT DISTINCT person_id)`,
    query: 'SELECT DISTINCT person_id\nFROM events',
    order: 'set',
    rows: () => PERSONS.map((p) => [p.uuid]),
  },
  {
    source: `${DOCS}/data-warehouse/sql/data-access (backticks; adapted: count() instead of * to fix the result)`,
    query: "SELECT count() FROM events WHERE properties.`$browser` = 'Chrome'",
    rows: () => [[where((e) => prop(e, '$browser') === 'Chrome').length]],
  },
  {
    source: `${DOCS}/data-warehouse/sql/data-access (numeric properties; adapted: the sign-ups instead of any 100 events)`,
    query: "SELECT round(properties.$screen_width * properties.$screen_height / 1000000, 2) as `Screen MegaPixels` FROM events WHERE event = 'signed_up' ORDER BY timestamp LIMIT 100",
    rows: () => where((e) => e.event === 'signed_up').map((e) => [round((num(e, '$screen_width') * num(e, '$screen_height')) / 1e6)]),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (binning by time of day)',
    query:
      "SELECT multiIf(5 >= toHour(timestamp) and toHour(timestamp) < 12, 'morning', 12 >= toHour(timestamp) and toHour(timestamp) < 17, 'afternoon', 'night') AS part_of_day, count() FROM events WHERE event = '$pageview' GROUP BY part_of_day ORDER BY part_of_day",
    rows: () =>
      sortRows(
        countBy(PV(), (e) => {
          const hour = e.time.getUTCHours();
          return 5 >= hour && hour < 12 ? 'morning' : 12 >= hour && hour < 17 ? 'afternoon' : 'night';
        }),
        [0, 'asc'],
      ),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (percentages with sumIf)',
    query: "SELECT sumIf(1, properties.$browser = 'Chrome') / sumIf(1, properties.$browser = 'Safari' or properties.$browser = 'Chrome') FROM events",
    rows: () => {
      const chrome = where((e) => prop(e, '$browser') === 'Chrome').length;
      const safari = where((e) => prop(e, '$browser') === 'Safari').length;
      return [[chrome / (chrome + safari)]];
    },
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (breaking down by two properties with concat)',
    query: "SELECT concat(properties.$os, ' - ', properties.$browser) AS os_browser, count() FROM events WHERE event = '$pageview' GROUP BY os_browser ORDER BY os_browser",
    rows: () => sortRows(countBy(PV(), (e) => `${prop(e, '$os')} - ${prop(e, '$browser')}`), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (matching URL patterns with LIKE)',
    query: "SELECT count() FROM events WHERE event = '$pageview' AND (properties.$current_url LIKE '%/blog%')",
    rows: () => [[PV().filter((e) => prop(e, '$current_url')!.includes('/blog')).length]],
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (grouping with if and multiIf on $device_type)',
    query:
      "SELECT multiIf(properties.$device_type == 'Desktop', 'Desktop', properties.$os == 'iOS', 'iOS', 'Non-iOS') AS platform, count() FROM events WHERE event = '$pageview' GROUP BY platform ORDER BY platform",
    rows: () => sortRows(countBy(PV(), (e) => (prop(e, '$device_type') === 'Desktop' ? 'Desktop' : prop(e, '$os') === 'iOS' ? 'iOS' : 'Non-iOS')), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (events of the last 30 minutes with dateDiff and now())',
    query: "SELECT count() FROM events WHERE dateDiff('minute', timestamp, now()) < 30",
    rows: [[0]],
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (null property values with IS NOT NULL)',
    query: 'SELECT count() FROM events WHERE person.properties.email IS NOT NULL',
    rows: () => [[where((e) => e.person.properties.email !== undefined).length]],
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (extract with a regular expression)',
    query: "SELECT extract(properties.$current_url, 'https://hedgerow.test/([a-z]*)') AS section, count() FROM events WHERE event = '$pageview' GROUP BY section ORDER BY section",
    rows: () => sortRows(countBy(PV(), (e) => /https:\/\/hedgerow\.test\/([a-z]*)/.exec(prop(e, '$current_url')!)![1]!), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (replaceOne on the current URL)',
    query: "SELECT DISTINCT replaceOne(properties.$current_url, 'https://hedgerow.test', '') AS path FROM events WHERE event = '$pageview' ORDER BY path",
    rows: () => [...new Set(PV().map((e) => prop(e, '$pathname')!))].sort().map((p) => [p]),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (array breakdowns with JSONExtractArrayRaw and arrayJoin; adapted: the tags list)',
    query: "SELECT arrayJoin(JSONExtractArrayRaw(properties.tags ?? '[]')) AS tag, count() FROM events WHERE event = 'feature_used' GROUP BY tag ORDER BY tag",
    rows: () => {
      const counts = new Map<string, number>();
      for (const e of where((x) => x.event === 'feature_used')) for (const tag of e.properties.tags as string[]) counts.set(`"${tag}"`, (counts.get(`"${tag}"`) ?? 0) + 1);
      return sortRows([...counts.entries()], [0, 'asc']);
    },
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (the id of an autocaptured element from elements_chain)',
    query: "SELECT extract(elements_chain, 'text=\"(.*?)\"') AS text, count() FROM events WHERE event = '$autocapture' GROUP BY text",
    rows: () => [['Sign up', where((e) => e.event === '$autocapture').length]],
  },
  {
    source: `after ${DOCS}/data-warehouse/sql/useful-functions (dates: intervals from now())`,
    query: "SELECT count() FROM events WHERE timestamp > now() - INTERVAL 7 DAY AND event = '$pageview'",
    rows: [[0]],
  },
  {
    source: `after ${DOCS}/data-warehouse/sql/useful-functions (dateDiff between the first and last event of each person; adapted: ordered)`,
    query: "SELECT person_id, dateDiff('day', min(timestamp), max(timestamp)) AS days_active FROM events GROUP BY person_id ORDER BY days_active DESC, person_id",
    rows: () =>
      sortRows(
        PERSONS.map((p) => {
          const times = where((e) => e.person === p).map((e) => e.time.getTime());
          const first = new Date(Math.min(...times)).toISOString().slice(0, 10);
          const last = new Date(Math.max(...times)).toISOString().slice(0, 10);
          return [p.uuid, (Date.parse(last) - Date.parse(first)) / 86_400_000];
        }),
        [1, 'desc'],
        [0, 'asc'],
      ),
  },
  {
    source: `after ${DOCS}/data-warehouse/sql/useful-functions (toStartOfWeek)`,
    query: "SELECT toStartOfWeek(timestamp) AS week, count() FROM events WHERE event = '$pageview' GROUP BY week ORDER BY week",
    rows: () => sortRows(countBy(PV(), (e) => startOfWeek(day(e))), [0, 'asc']),
  },
  {
    source: `after ${DOCS}/data-warehouse/sql/useful-functions (the time between events with dateDiff in seconds, per session)`,
    query:
      "SELECT properties.$session_id AS session_id, dateDiff('second', min(timestamp), max(timestamp)) AS duration FROM events WHERE properties.$session_id IS NOT NULL GROUP BY session_id ORDER BY duration DESC, session_id LIMIT 5",
    rows: () => sortRows(SESSIONS.map((s) => [s.id, s.duration]), [1, 'desc'], [0, 'asc']).slice(0, 5),
  },
  {
    source: `after ${DOCS}/data-warehouse/sql/useful-functions (quantiles: a parametric aggregate)`,
    query: "SELECT quantile(0.5)(properties.duration_ms), quantile(0.9)(properties.duration_ms) FROM events WHERE event = 'feature_used'",
    rows: () => {
      const values = where((e) => e.event === 'feature_used').map((e) => num(e, 'duration_ms'));
      return [[quantile(0.5, values), quantile(0.9, values)]];
    },
  },
  {
    source: 'after https://posthog.com/docs/sql/aggregations (median, argMax, countIf)',
    query:
      "SELECT median(properties.price), argMax(distinct_id, timestamp), countIf(properties.price > 50) FROM events WHERE event = 'purchase'",
    rows: () => {
      const purchases = where((e) => e.event === 'purchase');
      const prices = purchases.map((e) => num(e, 'price'));
      return [[quantile(0.5, prices), purchases[purchases.length - 1]!.distinct_id, prices.filter((p) => p > 50).length]];
    },
  },
  {
    source: 'after https://posthog.com/docs/sql/aggregations (uniq, uniqExact and count(DISTINCT …))',
    query: "SELECT uniq(person_id), uniqExact(distinct_id), count(DISTINCT properties.$session_id) FROM events WHERE event = '$pageview'",
    rows: () => [[uniq(PV().map(personOf)), uniq(PV().map((e) => e.distinct_id)), uniq(PV().map((e) => prop(e, '$session_id')))]],
  },
  {
    source: 'after https://posthog.com/docs/sql/aggregations (groupArray and groupUniqArray; adapted: sorted so the order is fixed)',
    query: "SELECT arraySort(groupUniqArray(properties.feature)), length(groupArray(properties.feature)) FROM events WHERE event = 'feature_used'",
    rows: () => {
      const features = where((e) => e.event === 'feature_used').map((e) => prop(e, 'feature')!);
      return [[[...new Set(features)].sort(), features.length]];
    },
  },
  {
    source: 'after https://posthog.com/tutorials/dau-mau (daily active users)',
    query: "SELECT toDate(timestamp) AS day, count(DISTINCT person_id) AS dau FROM events WHERE event = '$pageview' GROUP BY day ORDER BY day",
    rows: () => sortRows(uniqBy(PV(), day, personOf), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/tutorials/dau-mau (DAU/MAU ratio)',
    query: `SELECT round(avg(dau) / max(mau), 4) AS stickiness
FROM (
  SELECT toDate(timestamp) AS day, count(DISTINCT person_id) AS dau
  FROM events WHERE event = '$pageview' GROUP BY day
) AS daily
CROSS JOIN (
  SELECT count(DISTINCT person_id) AS mau FROM events WHERE event = '$pageview'
) AS monthly`,
    rows: () => {
      const daily = uniqBy(PV(), day, personOf).map(([, n]) => n);
      return [[round(avg(daily) / uniq(PV().map(personOf)), 4)]];
    },
  },
  {
    source: 'after https://posthog.com/tutorials/hogql-top-pages (most viewed paths)',
    query: "SELECT properties.$pathname AS path, count() AS views FROM events WHERE event = '$pageview' GROUP BY path ORDER BY views DESC LIMIT 10",
    order: 'set',
    rows: () => countBy(PV(), (e) => prop(e, '$pathname')),
  },
  {
    source: 'after https://posthog.com/tutorials/utm-tracking (pageviews by UTM source, nulls included)',
    query: "SELECT properties.utm_source AS source, count() AS pageviews FROM events WHERE event = '$pageview' GROUP BY source ORDER BY pageviews DESC",
    order: 'set',
    rows: () => countBy(PV(), (e) => prop(e, 'utm_source')),
  },
  {
    source: 'after https://posthog.com/tutorials/referrers (top referring domains, direct traffic excluded)',
    query:
      "SELECT properties.$referring_domain AS domain, count() AS visits FROM events WHERE event = '$pageview' AND domain != '$direct' AND domain IS NOT NULL GROUP BY domain ORDER BY visits DESC",
    order: 'set',
    rows: () => countBy(PV().filter((e) => prop(e, '$referring_domain') !== null && prop(e, '$referring_domain') !== '$direct'), (e) => prop(e, '$referring_domain')),
  },
  {
    source: 'after https://posthog.com/tutorials/hogql-autocapture (clicks by text)',
    query: "SELECT properties.$el_text AS text, count() FROM events WHERE event = '$autocapture' AND properties.$event_type = 'click' GROUP BY text ORDER BY text",
    rows: () => sortRows(countBy(where((e) => e.event === '$autocapture'), (e) => prop(e, '$el_text')), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/tutorials/hogql-autocapture (elements_chain matching)',
    query: "SELECT count() FROM events WHERE event = '$autocapture' AND match(elements_chain, '(^|;)button\\.')",
    rows: () => [[where((e) => e.event === '$autocapture').length]],
  },
  {
    source: 'after https://posthog.com/tutorials/revenue (revenue per day; adapted: the purchase event and its price)',
    query: "SELECT toDate(timestamp) AS day, sum(toFloat(properties.price)) AS revenue FROM events WHERE event = 'purchase' GROUP BY day ORDER BY day",
    rows: () => {
      const byDay = new Map<string, number>();
      for (const e of where((x) => x.event === 'purchase')) byDay.set(day(e), (byDay.get(day(e)) ?? 0) + num(e, 'price'));
      return sortRows([...byDay.entries()], [0, 'asc']);
    },
  },
  {
    source: 'after https://posthog.com/tutorials/revenue (top customers by revenue, with their email)',
    query:
      "SELECT person.properties.email AS email, sum(toFloat(properties.price)) AS revenue, count() AS purchases FROM events WHERE event = 'purchase' GROUP BY email ORDER BY revenue DESC, email LIMIT 10",
    rows: () => {
      const byEmail = new Map<string, [number, number]>();
      for (const e of where((x) => x.event === 'purchase')) {
        const email = e.person.properties.email as string;
        const [total, n] = byEmail.get(email) ?? [0, 0];
        byEmail.set(email, [total + num(e, 'price'), n + 1]);
      }
      return sortRows([...byEmail.entries()].map(([email, [total, n]]) => [email, total, n]), [1, 'desc'], [0, 'asc']);
    },
  },
  {
    source: 'after https://posthog.com/docs/data/sessions (the sessions table: average duration)',
    query: 'SELECT avg($session_duration) FROM sessions',
    rows: () => [[avg(SESSIONS.map((s) => s.duration))]],
  },
  {
    source: 'after https://posthog.com/docs/data/sessions (bounce rate by entry path)',
    query:
      'SELECT $entry_pathname AS entry, count() AS sessions, round(countIf($is_bounce) / count(), 2) AS bounce_rate FROM sessions GROUP BY entry ORDER BY sessions DESC, entry',
    rows: () => {
      const byEntry = new Map<string, [number, number]>();
      for (const s of SESSIONS) {
        const [n, bounces] = byEntry.get(s.entryPathname!) ?? [0, 0];
        byEntry.set(s.entryPathname!, [n + 1, bounces + (s.isBounce ? 1 : 0)]);
      }
      return sortRows([...byEntry.entries()].map(([entry, [n, bounces]]) => [entry, n, round(bounces / n)]), [1, 'desc'], [0, 'asc']);
    },
  },
  {
    source: 'after https://posthog.com/docs/data/sessions (long sessions with their entry and exit URL)',
    query:
      'SELECT session_id, $session_duration, $entry_current_url, $end_current_url FROM sessions WHERE $session_duration > 1800 ORDER BY $session_duration DESC, session_id',
    rows: () =>
      sortRows(
        SESSIONS.filter((s) => s.duration > 1800).map((s) => [s.id, s.duration, s.entryUrl, s.endUrl]),
        [1, 'desc'],
        [0, 'asc'],
      ),
  },
  {
    source: 'after https://posthog.com/docs/data/sessions (pageviews and unique URLs per session, joined from events)',
    query:
      "SELECT session.$pageview_count AS pageviews, count() AS sessions FROM events WHERE event = '$pageview' AND properties.$pathname = '/' GROUP BY pageviews ORDER BY pageviews",
    rows: () => sortRows(countBy(PV().filter((e) => prop(e, '$pathname') === '/'), (e) => SESSIONS.find((s) => s.id === e.properties.$session_id)!.pageviews), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/data/sessions ($num_uniq_urls, $entry_utm_source)',
    query: "SELECT $entry_utm_source AS source, count() AS sessions, sum($num_uniq_urls) FROM sessions GROUP BY source ORDER BY sessions DESC",
    order: 'set',
    rows: () => {
      const bySource = new Map<string | null, [number, number]>();
      for (const s of SESSIONS) {
        const [n, urls] = bySource.get(s.entryUtmSource) ?? [0, 0];
        bySource.set(s.entryUtmSource, [n + 1, urls + s.urls.length]);
      }
      return [...bySource.entries()].map(([source, [n, urls]]) => [source, n, urls]);
    },
  },
  {
    source: 'after https://posthog.com/docs/product-analytics/group-analytics (events per organization from the groups table)',
    query: "SELECT g.properties.name AS organization, count() AS events FROM events e JOIN groups g ON e.$group_0 = g.key WHERE g.index = 0 GROUP BY organization ORDER BY events DESC",
    order: 'set',
    rows: () => countBy(where((e) => e.groups?.[0] !== undefined), (e) => GROUPS.find((g) => g.index === 0 && g.key === e.groups![0])!.properties.name),
  },
  {
    source: 'after https://posthog.com/docs/product-analytics/group-analytics (the groups table)',
    query: 'SELECT key, properties.name, properties.industry FROM groups WHERE index = 0 ORDER BY key',
    rows: () => GROUPS.filter((g) => g.index === 0).map((g) => [g.key, g.properties.name, (g.properties as { industry?: string }).industry ?? null]),
  },
  {
    source: 'after https://posthog.com/docs/product-analytics/group-analytics (group_0 fields of events)',
    query: "SELECT group_0.properties.name AS org, uniq(person_id) AS users FROM events WHERE event = 'feature_used' GROUP BY org ORDER BY org",
    rows: () => sortRows(uniqBy(where((e) => e.event === 'feature_used'), (e) => (e.groups?.[0] ? GROUPS.find((g) => g.index === 0 && g.key === e.groups![0])!.properties.name : null), personOf), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/data/persons (persons by plan)',
    query: 'SELECT properties.plan AS plan, count() FROM persons GROUP BY plan ORDER BY plan',
    rows: () => sortRows(Object.entries(PERSONS.reduce<Record<string, number>>((acc, p) => ({ ...acc, [String(p.properties.plan ?? '\u0000')]: (acc[String(p.properties.plan ?? '\u0000')] ?? 0) + 1 }), {})).map(([plan, n]) => [plan === '\u0000' ? null : plan, n]), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/data/persons (persons with a property)',
    query: "SELECT properties.email FROM persons WHERE properties.plan = 'pro' ORDER BY properties.email",
    rows: () => PERSONS.filter((p) => p.properties.plan === 'pro').map((p) => [p.properties.email]).sort(),
  },
  {
    source: 'after https://posthog.com/docs/data/persons (counting persons)',
    query: 'SELECT count() FROM persons',
    rows: [[PERSONS.length]],
  },
  // ---------------------------------------------------------------------------------------------------------
  // posthog/hogql/test/test_query.py (names adapted to this data set).
  {
    source: `${TEST_QUERY} test_query`,
    query: 'select count(), event from events where properties.plan = {plan} group by event',
    values: { plan: 'enterprise' },
    order: 'set',
    rows: () => countBy(where((e) => prop(e, 'plan') === 'enterprise'), (e) => e.event).map(([event, n]) => [n, event]),
  },
  {
    source: `${TEST_QUERY} test_subquery`,
    query: 'select cnt, event from (select count() as cnt, event from events where properties.plan = {plan} group by event) group by cnt, event',
    values: { plan: 'pro' },
    order: 'set',
    rows: () => countBy(where((e) => prop(e, 'plan') === 'pro'), (e) => e.event).map(([event, n]) => [n, event]),
  },
  {
    source: `${TEST_QUERY} test_subquery_alias`,
    query: 'select cnt, event from (select count(*) as cnt, event from events where properties.plan = {plan} group by event) as c group by cnt, event',
    values: { plan: 'free' },
    order: 'set',
    rows: () => countBy(where((e) => prop(e, 'plan') === 'free'), (e) => e.event).map(([event, n]) => [n, event]),
  },
  {
    source: `${TEST_QUERY} test_query_distinct`,
    query: 'select distinct properties.email from persons where properties.company = {company}',
    values: { company: 'acme' },
    order: 'set',
    rows: () => PERSONS.filter((p) => p.properties.company === 'acme').map((p) => [p.properties.email]),
  },
  {
    source: `${TEST_QUERY} test_query_person_distinct_ids`,
    query: 'select distinct person_id, distinct_id from person_distinct_ids',
    order: 'set',
    rows: () => PERSONS.flatMap((p) => p.distinctIds.map((id) => [p.uuid, id])),
  },
  {
    source: `${TEST_QUERY} test_query_joins_simple (adapted: the sign-ups only, so that the default LIMIT takes every row)`,
    query: `SELECT event, timestamp, pdi.distinct_id, p.id, p.properties.email
FROM events e
LEFT JOIN person_distinct_ids pdi
ON pdi.distinct_id = e.distinct_id
LEFT JOIN persons p
ON p.id = pdi.person_id
WHERE e.event = 'signed_up'`,
    order: 'set',
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.event, dt(e.timestamp), e.distinct_id, e.person.uuid, e.person.properties.email]),
  },
  {
    source: `${TEST_QUERY} test_query_joins_events_pdi (adapted: purchases in order)`,
    query: "SELECT event, timestamp, pdi.distinct_id, pdi.person_id FROM events WHERE event = 'purchase' ORDER BY timestamp LIMIT 10",
    rows: () => where((e) => e.event === 'purchase').slice(0, 10).map((e) => [e.event, dt(e.timestamp), e.distinct_id, e.person.uuid]),
  },
  {
    source: `${TEST_QUERY} test_query_joins_events_e_pdi (adapted: purchases in order)`,
    query: "SELECT event, e.timestamp, e.pdi.distinct_id, pdi.person_id FROM events e WHERE event = 'purchase' ORDER BY timestamp LIMIT 3",
    rows: () => where((e) => e.event === 'purchase').slice(0, 3).map((e) => [e.event, dt(e.timestamp), e.distinct_id, e.person.uuid]),
  },
  {
    source: `${TEST_QUERY} test_query_joins_pdi_person_properties (adapted: ordered, as its LIMIT 10 takes 10 of 11)`,
    query: 'SELECT pdi.distinct_id, pdi.person.properties.email FROM person_distinct_ids pdi ORDER BY pdi.distinct_id LIMIT 10',
    rows: () => sortRows(PERSONS.flatMap((p) => p.distinctIds.map((id) => [id, p.properties.email ?? null])), [0, 'asc']).slice(0, 10),
  },
  {
    source: `${TEST_QUERY} test_query_joins_events_first_to_persons`,
    query: "SELECT events.event, persons.properties.email FROM events JOIN persons ON events.person_id = persons.id WHERE events.event = 'signed_up'",
    order: 'set',
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.event, e.person.properties.email]),
  },
  {
    source: `${TEST_QUERY} test_query_joins_lazy_on_both_sides`,
    query: "SELECT e1.event, e2.event FROM events e1 JOIN events e2 ON e1.person_id = e2.person_id WHERE e1.event = 'signed_up' AND e2.event = 'purchase'",
    order: 'set',
    rows: () => where((e) => e.event === 'signed_up').flatMap((s) => where((e) => e.event === 'purchase' && e.person === s.person).map(() => ['signed_up', 'purchase'])),
  },
  {
    source: `${TEST_QUERY} test_query_joins_persons_to_events (adapted: sign-ups)`,
    query: "SELECT persons.id, events.event FROM persons JOIN events ON persons.id = events.person_id WHERE events.event = 'signed_up' LIMIT 10",
    order: 'set',
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.person.uuid, e.event]),
  },
  {
    source: `${TEST_QUERY} test_query_joins_events_person_properties_in_aggregration`,
    query: 'SELECT s.pdi.person.properties.email, count() FROM events s GROUP BY s.pdi.person.properties.email LIMIT 10',
    order: 'set',
    rows: () => countBy(EVENTS, (e) => (e.person.properties.email as string | undefined) ?? null),
  },
  {
    source: `${TEST_QUERY} test_select_person_on_events (email never changes, so the person as of the event is the current one)`,
    query: 'SELECT poe.properties.email, count() FROM events s GROUP BY poe.properties.email LIMIT 10',
    order: 'set',
    rows: () => countBy(EVENTS, (e) => (e.person.properties.email as string | undefined) ?? null),
  },
  {
    source: `${TEST_QUERY} test_query_select_person_with_joins_without_poe (adapted: purchases in order)`,
    query: "SELECT event, timestamp, person.id, person.properties.email FROM events WHERE event = 'purchase' ORDER BY timestamp LIMIT 10",
    rows: () => where((e) => e.event === 'purchase').slice(0, 10).map((e) => [e.event, dt(e.timestamp), e.person.uuid, e.person.properties.email]),
  },
  {
    source: `${TEST_QUERY} test_join_with_property_materialized_session_id (adapted: the sessions table for session_replay_events)`,
    query: "select e.event, s.session_id from events e left join sessions s on s.session_id = e.properties.$session_id where e.properties.$session_id is not null and e.event = 'signed_up' limit 10",
    order: 'set',
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.event, prop(e, '$session_id')]),
  },
  { source: `${TEST_QUERY} test_hogql_lambdas`, query: 'SELECT arrayMap(x -> x * 2, [1, 2, 3]), 1', rows: [[[2, 4, 6], 1]] },
  {
    source: `${TEST_QUERY} test_hogql_groupby_unnecessary_ifnull`,
    query: `select toDate(timestamp) as timestamp, count() as cnt
from events
where timestamp >= addDays(today(), -10)
group by timestamp
having cnt > 10
limit 1`,
    rows: [],
  },
  {
    source: `${TEST_QUERY} test_hogql_unnecessary_ifnull`,
    query: `select
    toDate(timestamp) as timestamp,
    JSONExtractInt(properties, 'field') as json_int
from events
where timestamp >= addDays(today(), -10) and json_int = 17
limit 1`,
    rows: [],
  },
  {
    source: `${TEST_QUERY} test_hogql_proper_ifnull (adapted: a fixed month for now() - INTERVAL 30 DAY, $os_version from the plan)`,
    query: `WITH latest_events AS (
    SELECT distinct_id, argMax(properties.plan, timestamp) AS latest_os_version
    FROM events
    WHERE properties.plan IS NOT NULL AND timestamp >= toDateTime('2024-03-01 00:00:00') GROUP BY distinct_id),
major_versions AS (
    SELECT distinct_id, latest_os_version, splitByChar('.', ifNull(latest_os_version, ''))[1] AS major_version
    FROM latest_events)
SELECT major_version, count() AS user_count, round(100 * count() / sum(count()) OVER (), 2) AS percentage
FROM major_versions
WHERE major_version IN ('free', 'pro', 'enterprise')
GROUP BY major_version
ORDER BY major_version`,
    rows: () => {
      const latest = new Map<string, string>();
      for (const e of where((x) => prop(x, 'plan') !== null)) latest.set(e.distinct_id, prop(e, 'plan')!);
      const counts = countBy([...latest.values()].map((plan) => ({ plan }) as unknown as CorpusEvent), (e) => (e as unknown as { plan: string }).plan);
      const total = latest.size;
      return sortRows(counts.map(([plan, n]) => [plan, n, round((100 * n) / total)]), [0, 'asc']);
    },
  },
  { source: `${TEST_QUERY} test_hogql_arrays`, query: 'SELECT [1, 2, 3], [10,11,12][1]', rows: [[[1, 2, 3], 10]] },
  {
    source: `${TEST_QUERY} test_tuple_access (adapted: properties.feature for properties.index)`,
    query: `select col_a, arrayZip( (sumMap( g.1, g.2 ) as x).1, x.2) as r from (
select col_a, groupArray( (col_b, col_c) ) as g from
(
    SELECT properties.feature as col_a,
           event as col_b,
           count() as col_c
      FROM events
  GROUP BY properties.feature,
           event
)
group by col_a)
group by col_a ORDER BY col_a`,
    rows: () =>
      sortRows(
        [...new Set(EVENTS.map((e) => prop(e, 'feature')))].map((feature) => [
          feature,
          sortRows(countBy(where((e) => prop(e, 'feature') === feature), (e) => e.event), [0, 'asc']),
        ]),
        [0, 'asc'],
      ),
  },
  {
    source: `${TEST_QUERY} test_with_pivot_table_1_level (adapted: properties.feature for properties.index)`,
    query: `WITH PIVOT_TABLE_COL_ABC AS (
            SELECT properties.feature as col_a,
                   event as col_b,
                   count() as col_c
              FROM events
             WHERE event = 'feature_used'
          GROUP BY properties.feature,
                   event
         ),
         PIVOT_FUNCTION_1 AS (
             select col_a, groupArray( (col_b, col_c) ) as g from
               PIVOT_TABLE_COL_ABC
               group by col_a
         ),
         PIVOT_FUNCTION_2 AS (
             select col_a, arrayZip( (sumMap( g.1, g.2 ) as x).1, x.2) as r from
             PIVOT_FUNCTION_1
             group by col_a
         )
  SELECT *
    FROM PIVOT_FUNCTION_2
ORDER BY col_a`,
    rows: () => sortRows(countBy(where((e) => e.event === 'feature_used'), (e) => prop(e, 'feature')).map(([feature, n]) => [feature, [['feature_used', n]]]), [0, 'asc']),
  },
  {
    source: `${TEST_QUERY} test_window_functions_simple (adapted: gus's events after 25 March)`,
    query: `select distinct_id,
       timestamp,
       event,
       groupArray(event) OVER (PARTITION BY distinct_id ORDER BY timestamp ASC ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING) AS two_before,
       groupArray(event) OVER (PARTITION BY distinct_id ORDER BY timestamp ASC ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING) AS two_after
  from events
 where timestamp > toDateTime('2024-03-25 00:00:00')
   and distinct_id like 'gu%'
order by distinct_id, timestamp`,
    rows: () => {
      const list = where((e) => e.distinct_id === 'gus' && e.timestamp > '2024-03-25');
      return list.map((e, i) => ['gus', dt(e.timestamp), e.event, list.slice(Math.max(0, i - 2), i).map((x) => x.event), list.slice(i + 1, i + 3).map((x) => x.event)]);
    },
  },
  {
    source: `${TEST_QUERY} test_window_functions_with_window (adapted: gus's events after 25 March)`,
    query: `select distinct_id,
       timestamp,
       event,
       groupArray(event) OVER w1 AS two_before,
       groupArray(event) OVER w2 AS two_after,
       row_number() OVER w1 AS rn_1,
       row_number() OVER w2 AS rn_2,
       first_value(event) OVER w1 AS first_value_1,
       last_value(event) OVER w1 AS last_value_1,
       first_value(event) OVER w2 AS first_value_2,
       last_value(event) OVER w2 AS last_value_2,
       rank() OVER w1 AS rank_1,
       dense_rank() OVER w2 AS rank_2
  from events
 where timestamp > toDateTime('2024-03-25 00:00:00')
   and distinct_id like 'gu%'
window w1 as (PARTITION BY distinct_id ORDER BY timestamp ASC ROWS BETWEEN 2 PRECEDING AND 1 PRECEDING),
       w2 as (PARTITION BY distinct_id ORDER BY timestamp ASC ROWS BETWEEN 1 FOLLOWING AND 2 FOLLOWING)
order by distinct_id, timestamp`,
    rows: () => {
      const list = where((e) => e.distinct_id === 'gus' && e.timestamp > '2024-03-25');
      return list.map((e, i) => {
        const before = list.slice(Math.max(0, i - 2), i).map((x) => x.event);
        const after = list.slice(i + 1, i + 3).map((x) => x.event);
        // ClickHouse's first_value/last_value of an empty frame is the type's default, ''.
        return ['gus', dt(e.timestamp), e.event, before, after, i + 1, i + 1, before[0] ?? '', before[before.length - 1] ?? '', after[0] ?? '', after[after.length - 1] ?? '', i + 1, i + 1];
      });
    },
  },
  {
    source: `${TEST_QUERY} test_between_operators`,
    query:
      'select 5 between 1 and 10, 1 between 1 and 10, 10 between 1 and 10, 0 between 1 and 10, 11 between 1 and 10, 5 not between 1 and 10, 0 not between 1 and 10, 11 not between 1 and 10, 10 not between 1 and 10, null between 1 and 10, 5 between null and 10, 5 between 1 and null',
    rows: [[1, 1, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0]],
  },
  {
    source: `${TEST_QUERY} test_null_equality (the comparisons)`,
    query: 'select null = 2, 2 = null, 3 = 4, 3 = 3, null = null, null != 2, 2 != null, 3 != 4, 3 != 3, null != null, null < 2, 2 < null, 3 < 4, null <= null, null > 2, 4 > 3, null >= null, 3 >= 3',
    rows: [[0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 1]],
  },
  {
    source: `${TEST_QUERY} test_null_equality (like, ilike and the regex operators)`,
    query:
      "select null like '2', '2' like null, '3' like '3', null like null, null not like '2', '3' not like '3', null ilike null, '3' ilike '4', null =~ null, '3' =~ '3', null !~ '2', '3' !~ '3', null =~* null, '3' !~* '4'",
    rows: [[0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1]],
  },
  {
    source: `${TEST_QUERY} test_null_equality (through a subquery)`,
    query: 'select a = b, a != b, a < b from (select null as a, 2 as b)',
    rows: [[0, 1, 0]],
  },
  {
    source: `${TEST_QUERY} test_regex_functions`,
    query: `SELECT
    'kala' ~ '.*',
    'kala' =~ '.*',
    'kala' !~ '.*',
    'kala' =~ 'a',
    'kala' !~ 'a',
    'kala' =~ 'A',
    'kala' !~ 'A',
    'kala' ~* 'A',
    'kala' =~* 'A',
    'kala' !~* 'A'`,
    rows: [[true, true, false, true, false, false, true, true, true, false]],
  },
  {
    source: `${TEST_QUERY} test_nullish_coalescing`,
    query: `SELECT
    null ?? 1,
    null ?? null ?? 2,
    3 ?? null,
    null ?? 'string',
    1 + (null ?? 2) + 3,
    1 + null ?? 2 + 3,
    10 ?? true ? 20 : 30,
    10 ?? 5 + 10`,
    rows: [[1, 2, 3, 'string', 6, 5, 20, 10]],
  },
  { source: `${TEST_QUERY} test_numbers_table`, query: 'SELECT number from numbers(1, 4)', rows: [[1], [2], [3], [4]] },
  { source: `${TEST_QUERY} test_numbers_table`, query: 'SELECT * from numbers(1, 4)', rows: [[1], [2], [3], [4]] },
  { source: `${TEST_QUERY} test_numbers_table`, query: 'SELECT number from numbers(4)', rows: [[0], [1], [2], [3]] },
  { source: `${TEST_QUERY} test_numbers_table`, query: 'SELECT number + number + 1 from numbers(2 + 2)', rows: [[1], [3], [5], [7]] },
  {
    source: `${TEST_QUERY} test_numbers_table`,
    query: "SELECT number from numbers(assumeNotNull(dateDiff('day', toStartOfDay(toDateTime('2011-12-31 00:00:00')), toDateTime('2012-01-14 23:59:59'))))",
    rows: Array.from({ length: 14 }, (_, i) => [i]),
  },
  { source: `${TEST_QUERY} test_numbers_table (PostHog refuses it too)`, query: 'SELECT number from numbers', refused: 'numbers' },
  { source: `${TEST_QUERY} test_events_table_error_if_function (PostHog refuses it too)`, query: 'SELECT * from events(1, 4)', refused: 'events' },
  {
    source: `${TEST_QUERY} test_hogql_query_filters (a property filter)`,
    query: 'SELECT event, distinct_id from events WHERE distinct_id={distinct_id} and {filters}',
    values: { distinct_id: 'gus' },
    filters: { properties: [{ key: 'feature', operator: 'exact', value: 'sql', type: 'event' }] },
    order: 'set',
    rows: () => where((e) => e.distinct_id === 'gus' && prop(e, 'feature') === 'sql').map((e) => [e.event, e.distinct_id]),
  },
  {
    source: `${TEST_QUERY} test_hogql_query_filters (a property filter and a date range)`,
    query: 'SELECT event, distinct_id from events WHERE distinct_id={distinct_id} and {filters}',
    values: { distinct_id: 'dee' },
    filters: { properties: [{ key: 'feature', operator: 'exact', value: 'insights', type: 'event' }], dateRange: { date_from: '2024-03-01', date_to: '2024-03-15' } },
    order: 'set',
    rows: () => where((e) => e.distinct_id === 'dee' && prop(e, 'feature') === 'insights' && e.timestamp < '2024-03-16').map((e) => [e.event, e.distinct_id]),
  },
  {
    source: `${TEST_QUERY} test_hogql_query_filters_empty_true (adapted: count() of every event, as the default LIMIT would cut the rows)`,
    query: 'SELECT count() from events where {filters}',
    rows: [[EVENTS.length]],
  },
  {
    source: `${TEST_QUERY} test_hogql_query_filters_alias`,
    query: 'SELECT event, distinct_id from events e WHERE {filters}',
    filters: { properties: [{ key: 'plan', operator: 'exact', value: 'enterprise', type: 'event' }] },
    order: 'set',
    rows: () => where((e) => prop(e, 'plan') === 'enterprise').map((e) => [e.event, e.distinct_id]),
  },
  {
    source: `${TEST_QUERY} test_hogql_union_all_limits (adapted: sign-ups, so that each side's LIMIT 100 takes every row)`,
    query: "SELECT event FROM events WHERE event = 'signed_up' UNION ALL SELECT event FROM events WHERE event = 'signed_up'",
    rows: () => [...where((e) => e.event === 'signed_up'), ...where((e) => e.event === 'signed_up')].map((e) => [e.event]),
  },
  {
    source: `${TEST_QUERY} test_hogql_query_session_filters`,
    query: 'SELECT session_id, $entry_current_url from sessions WHERE {filters}',
    filters: { properties: [{ key: '$entry_current_url', operator: 'exact', value: 'https://hedgerow.test/blog/hogql', type: 'session' }] },
    order: 'set',
    rows: () => SESSIONS.filter((s) => s.entryUrl === 'https://hedgerow.test/blog/hogql').map((s) => [s.id, s.entryUrl]),
  },
  {
    source: `${TEST_QUERY} test_hogql_query_filters_session_date_range`,
    query: 'SELECT session_id, $entry_current_url from sessions WHERE {filters}',
    filters: { dateRange: { date_from: '2024-03-29', date_to: '2024-03-31' } },
    order: 'set',
    // date_to is `$start_timestamp < date_to`: midnight at the start of 31 March (posthog/hogql/filters.py; test_filters.py
    // prints date_to="2020-02-02" as less(timestamp, toDateTime('2020-02-02 00:00:00.000000'))).
    rows: () => SESSIONS.filter((s) => s.start.toISOString() >= '2024-03-29' && s.start.toISOString() < '2024-03-31').map((s) => [s.id, s.entryUrl]),
  },
  {
    source: `${TEST_QUERY} test_events_sessions_table`,
    query: 'SELECT session.session_id, session.$session_duration from events WHERE distinct_id={distinct_id} order by timestamp',
    values: { distinct_id: 'anon-cai' },
    rows: () => where((e) => e.distinct_id === 'anon-cai').map((e) => [prop(e, '$session_id'), SESSIONS.find((s) => s.id === e.properties.$session_id)!.duration]),
  },
  { source: `${TEST_QUERY} test_db_created_once`, query: 'SELECT 1', rows: [[1]] },
  // ---------------------------------------------------------------------------------------------------------
  // HogQL's operators, functions and clauses as PostHog's tests and docs use them, on constants.
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (arithmetic as functions)',
    query: 'SELECT plus(1, 2), minus(5, 3), multiply(2, 3), divide(7, 2), modulo(7, 3), intDiv(7, 2), negate(4)',
    rows: [[3, 2, 6, 3.5, 1, 3, -4]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (comparisons as functions)',
    query: 'SELECT equals(1, 1), notEquals(1, 2), less(1, 2), greater(1, 2), lessOrEquals(2, 2), greaterOrEquals(1, 2)',
    rows: [[1, 1, 1, 0, 1, 0]],
  },
  { source: 'after https://posthog.com/docs/sql/clickhouse-functions (logical functions)', query: 'SELECT and(1, 0), or(1, 0), not(0), xor(1, 1)', rows: [[0, 1, 1, 0]] },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (rounding: ClickHouse rounds a Float64 half to even)',
    query: 'SELECT round(2.5), round(3.5), round(-2.5), round(3.14159, 2), floor(-1.5), ceil(1.2)',
    rows: [[2, 4, -2, 3.14, -2, 2]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (integer division and modulo of negatives, as ClickHouse truncates)',
    query: 'SELECT intDiv(-7, 2), -7 % 3, 7 % -3, moduloOrZero(5, 0), intDivOrZero(5, 0)',
    rows: [[-3, -1, 1, 0, 0]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (arrays: sorting and reversing)',
    query: 'SELECT arraySort([3, 1, 2]), arrayReverseSort([3, 1, 2]), arrayReverse([1, 2, 3])',
    rows: [[[1, 2, 3], [3, 2, 1], [3, 2, 1]]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (higher-order array functions with lambdas)',
    query: 'SELECT arrayFilter(x -> x > 2, [1, 2, 3, 4]), arrayExists(x -> x = 2, [1, 2]), arrayAll(x -> x > 0, [1, 2]), arrayMap((x, y) -> x + y, [1, 2], [10, 20])',
    rows: [[[3, 4], 1, 1, [11, 22]]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (arrayFirst, arrayLast, arrayFirstIndex, arrayCount)',
    query: 'SELECT arrayFirst(x -> x > 1, [1, 2, 3]), arrayLast(x -> x > 1, [1, 2, 3]), arrayFirstIndex(x -> x > 1, [1, 2, 3]), arrayCount(x -> x > 1, [1, 2, 3])',
    rows: [[2, 3, 2, 2]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (has, indexOf, length, empty, notEmpty)',
    query: "SELECT has([1, 2, 3], 2), indexOf(['a', 'b'], 'b'), indexOf(['a', 'b'], 'z'), length([1, 2]), empty([]), notEmpty([1])",
    rows: [[1, 2, 0, 2, 1, 1]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (arraySlice, with a negative offset)',
    query: 'SELECT arraySlice([1, 2, 3, 4, 5], 2, 3), arraySlice([1, 2, 3, 4, 5], -2), arraySlice([1, 2, 3], 5)',
    rows: [[[2, 3, 4], [4, 5], []]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (arrayConcat, arrayDistinct, arrayUniq, arrayCompact)',
    query: 'SELECT arrayConcat([1, 2], [3]), arrayDistinct([1, 1, 2]), arrayUniq([1, 1, 2]), arrayCompact([1, 1, 2, 2, 1])',
    rows: [[[1, 2, 3], [1, 2], 2, [1, 2, 1]]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (arrayEnumerate and range)',
    query: "SELECT arrayEnumerate(['a', 'b']), range(3), range(1, 7, 2)",
    rows: [[[1, 2], [0, 1, 2], [1, 3, 5]]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (arraySum, arrayMin, arrayMax, arrayAvg, arrayCumSum, arrayDifference)',
    query: 'SELECT arraySum([1, 2, 3]), arrayMin([3, 1]), arrayMax([3, 1]), arrayAvg([1, 2]), arrayCumSum([1, 2, 3]), arrayDifference([1, 4, 9])',
    rows: [[6, 1, 3, 1.5, [1, 3, 6], [0, 3, 5]]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (arrayPushBack, arrayPushFront, arrayPopBack, arrayPopFront)',
    query: 'SELECT arrayPushBack([1], 2), arrayPushFront([1], 0), arrayPopBack([1, 2]), arrayPopFront([1, 2])',
    rows: [[[1, 2], [0, 1], [1], [2]]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (countEqual, hasAny, hasAll)',
    query: 'SELECT countEqual([1, 2, 1], 1), hasAny([1, 2], [2, 3]), hasAll([1, 2], [1, 3])',
    rows: [[2, 1, 0]],
  },
  { source: 'after https://posthog.com/docs/sql/clickhouse-functions (arrayZip)', query: "SELECT arrayZip(['a', 'b'], [1, 2])", rows: [[[['a', 1], ['b', 2]]]] },
  {
    source: `${TEST_QUERY} test_hogql_arrays (the same access with negative and out-of-range indexes)`,
    query: 'SELECT [10, 20, 30][-1], [10, 20][5], arrayElement([10, 20], 2)',
    rows: [[30, 0, 20]],
  },
  { source: `${TEST_QUERY} test_tuple_access (element access on constant tuples)`, query: "SELECT tuple(1, 'a').2, (1, 'b').1", rows: [['a', 1]] },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (splitting and joining strings)',
    query: "SELECT splitByChar(',', 'a,b,c')[2], splitByString('::', 'a::b'), arrayStringConcat(['a', 'b'], '-')",
    rows: [['b', ['a', 'b'], 'a-b']],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (strings)',
    query: "SELECT lower('ABC'), upper('abc'), length('hello'), substring('hello', 2, 3), concat('a', 'b', 'c'), trim('  x  ')",
    rows: [['abc', 'ABC', 5, 'ell', 'abc', 'x']],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (searching and replacing in strings)',
    query: "SELECT replaceAll('a-b-c', '-', '+'), replaceRegexpAll('a1b22', '[0-9]+', '#'), position('hello', 'l'), startsWith('hello', 'he'), endsWith('hello', 'lo')",
    rows: [['a+b+c', 'a#b#', 3, 1, 1]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (type conversions: HogQL converts OrNull)',
    query: "SELECT toInt('12'), toInt('abc'), toFloat('1.5'), toString(12), toDate('2024-03-15')",
    rows: [[12, null, 1.5, '12', '2024-03-15']],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (nulls)',
    query: "SELECT coalesce(null, 1), ifNull(null, 'x'), nullIf(1, 1), isNull(null), isNotNull(1)",
    rows: [[1, 'x', null, 1, 1]],
  },
  { source: 'after https://posthog.com/docs/sql/expressions (if and multiIf)', query: "SELECT if(1 > 2, 'a', 'b'), multiIf(1 = 2, 'x', 2 = 2, 'y', 'z')", rows: [['b', 'y']] },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (JSON)',
    query: `SELECT JSONExtractString('{"a": "b"}', 'a'), JSONExtractInt('{"n": 42}', 'n'), JSONHas('{"a": 1}', 'a'), JSONLength('[1, 2, 3]'), JSONExtractArrayRaw('["a", "b"]')`,
    rows: [['b', 42, 1, 3, ['"a"', '"b"']]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (dates: parts of a date)',
    query: "SELECT toYYYYMM(toDate('2024-03-15')), toYear(toDate('2024-03-15')), toMonth(toDate('2024-03-15')), toDayOfMonth(toDate('2024-03-15')), toDayOfWeek(toDate('2024-03-17')), toQuarter(toDate('2024-03-15'))",
    rows: [[202403, 2024, 3, 15, 7, 1]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (dates: starts of periods)',
    query: "SELECT toStartOfQuarter(toDate('2024-05-20')), toStartOfYear(toDate('2024-05-20')), toMonday(toDate('2024-03-17')), toStartOfWeek(toDate('2024-03-17')), toStartOfWeek(toDate('2024-03-17'), 1)",
    rows: [['2024-04-01', '2024-01-01', '2024-03-11', '2024-03-17', '2024-03-11']],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (dates: starts of minutes and intervals)',
    query:
      "SELECT toStartOfMinute(toDateTime('2024-03-15 10:37:45')), toStartOfFiveMinutes(toDateTime('2024-03-15 10:37:45')), toStartOfFifteenMinutes(toDateTime('2024-03-15 10:37:45')), toStartOfInterval(toDateTime('2024-03-15 10:37:45'), toIntervalMinute(15)), toStartOfHour(toDateTime('2024-03-15 10:37:45'))",
    rows: [[dt('2024-03-15 10:37:00'), dt('2024-03-15 10:35:00'), dt('2024-03-15 10:30:00'), dt('2024-03-15 10:30:00'), dt('2024-03-15 10:00:00')]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (dates: adding days and months; a month later clamps to its last day)',
    query: "SELECT addDays(toDate('2024-03-30'), 3), addMonths(toDate('2024-01-31'), 1), subtractDays(toDate('2024-03-01'), 1), toDate('2024-03-15') - INTERVAL 1 MONTH",
    rows: [['2024-04-02', '2024-02-29', '2024-02-29', '2024-02-15']],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (dates: interval arithmetic on a datetime)',
    query: "SELECT toDateTime('2024-03-31 12:00:00') + INTERVAL 1 MONTH, toDateTime('2024-03-01 00:00:00') - toIntervalHour(1), toDateTime('2024-03-01 00:00:00') + toIntervalDay(2)",
    rows: [[dt('2024-04-30 12:00:00'), dt('2024-02-29 23:00:00'), dt('2024-03-03 00:00:00')]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (dateDiff counts the boundaries crossed)',
    query: "SELECT dateDiff('day', toDate('2024-03-01'), toDate('2024-03-31')), dateDiff('month', toDate('2024-01-31'), toDate('2024-02-01')), dateDiff('hour', toDateTime('2024-03-01 10:59:00'), toDateTime('2024-03-01 11:00:00')), dateDiff('year', toDate('2023-12-31'), toDate('2024-01-01'))",
    rows: [[30, 1, 1, 1]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (unix timestamps)',
    query: "SELECT toUnixTimestamp(toDateTime('2024-03-01 00:00:00')), fromUnixTimestamp(1709251200)",
    rows: [[1709251200, dt('2024-03-01 00:00:00')]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (formatDateTime and dateName)',
    query: "SELECT formatDateTime(toDateTime('2024-03-05 07:08:09'), '%Y-%m-%d %H:%i:%S'), dateName('month', toDate('2024-03-15')), dateName('weekday', toDate('2024-03-15'))",
    rows: [['2024-03-05 07:08:09', 'March', 'Friday']],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (time zones: the same instant read in New York, after the DST change)',
    query: "SELECT toHour(toTimeZone(toDateTime('2024-03-10 12:00:00'), 'America/New_York')), toHour(toTimeZone(toDateTime('2024-03-09 12:00:00'), 'America/New_York')), toUnixTimestamp(toDateTime('2024-03-10 12:00:00', 'America/New_York'))",
    rows: [[8, 7, 1710086400]],
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (parseDateTimeBestEffort)',
    query: "SELECT parseDateTimeBestEffort('2024-03-15T10:00:00Z'), parseDateTimeBestEffortOrNull('not a date')",
    rows: [[dt('2024-03-15 10:00:00'), null]],
  },
  { source: 'after https://posthog.com/docs/sql/clickhouse-functions (greatest, least, abs, sign)', query: 'SELECT greatest(1, 3, 2), least(1, 3, 2), abs(-3), sign(-2)', rows: [[3, 1, 3, -1]] },
  {
    source: `${TEST_QUERY} test_null_equality (IN with tuples and a subquery)`,
    query: "SELECT 1 IN (1, 2), 3 NOT IN (1, 2), (1, 'a') IN (SELECT 1, 'a'), (1, 2) = (1, 2)",
    rows: [[1, 1, 1, 1]],
  },
  { source: `${TEST_QUERY} test_numbers_table (a WHERE over numbers)`, query: 'SELECT number, number * 2 FROM numbers(3) WHERE number > 0', rows: [[1, 2], [2, 4]] },
  { source: `${TEST_QUERY} test_numbers_table (an aggregate over numbers)`, query: 'SELECT sum(number) FROM numbers(101)', rows: [[5050]] },
  {
    source: `${TEST_QUERY} test_numbers_table (grouped by an expression, positional ORDER BY)`,
    query: 'SELECT number % 3 AS r, count() FROM numbers(10) GROUP BY r ORDER BY 1',
    rows: [[0, 4], [1, 3], [2, 3]],
  },
  {
    source: 'after https://posthog.com/docs/sql (GROUP BY and ORDER BY positions)',
    query: 'SELECT event, count() FROM events GROUP BY 1 ORDER BY 2 DESC, 1',
    rows: () => sortRows(countBy(EVENTS, (e) => e.event), [1, 'desc'], [0, 'asc']),
  },
  {
    source: 'issue 27 (its own example: HogQL reads -- to the end of the line as a comment)',
    query: 'SELECT count() -- 1\nFROM events',
    rows: [[EVENTS.length]],
  },
  {
    source: 'issue 27 (its own example: a -- comment at the end of the query)',
    query: "SELECT count() FROM events WHERE event = 'signed_up' -- 10 events",
    rows: () => [[where((e) => e.event === 'signed_up').length]],
  },
  {
    source: 'issue 27 (a /* … */ comment inside the query)',
    query: "SELECT /* the sign-ups */ count() FROM events /* of every person */ WHERE event = 'signed_up'",
    rows: () => [[where((e) => e.event === 'signed_up').length]],
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (array breakdowns with ARRAY JOIN)',
    query: "SELECT tag, count() FROM events ARRAY JOIN JSONExtractArrayRaw(properties.tags) AS tag WHERE event = 'feature_used' GROUP BY tag ORDER BY tag",
    rows: () => {
      const counts = new Map<string, number>();
      for (const e of where((x) => x.event === 'feature_used')) for (const tag of e.properties.tags as string[]) counts.set(`"${tag}"`, (counts.get(`"${tag}"`) ?? 0) + 1);
      return sortRows([...counts.entries()], [0, 'asc']);
    },
  },
  {
    source: 'after https://posthog.com/docs/sql (LEFT ARRAY JOIN keeps rows whose array is empty)',
    query: "SELECT event, tag FROM events LEFT ARRAY JOIN JSONExtractArrayRaw(ifNull(properties.tags, '[]')) AS tag WHERE event IN ('feature_used', 'signed_up') AND distinct_id = 'eli' ORDER BY timestamp, tag",
    rows: () =>
      where((e) => ['feature_used', 'signed_up'].includes(e.event) && e.distinct_id === 'eli').flatMap((e) =>
        e.event === 'feature_used' ? [...(e.properties.tags as string[])].sort().map((t) => [e.event, `"${t}"`]) : [[e.event, '']],
      ),
  },
  {
    source: 'after https://posthog.com/docs/sql (FULL OUTER JOIN of two daily series)',
    query: `SELECT p.day AS purchase_day, s.day AS signup_day
FROM (SELECT DISTINCT toDate(timestamp) AS day FROM events WHERE event = 'purchase') AS p
FULL OUTER JOIN (SELECT DISTINCT toDate(timestamp) AS day FROM events WHERE event = 'signed_up') AS s ON p.day = s.day
ORDER BY purchase_day, signup_day`,
    rows: () => {
      const purchases = [...new Set(where((e) => e.event === 'purchase').map(day))];
      const signups = [...new Set(where((e) => e.event === 'signed_up').map(day))];
      // ClickHouse fills the missing side of an outer join with the type's default: 1970-01-01 for a Date.
      const rows: Rows = [
        ...purchases.map((d) => [d, signups.includes(d) ? d : '1970-01-01']),
        ...signups.filter((d) => !purchases.includes(d)).map((d) => ['1970-01-01', d]),
      ];
      return sortRows(rows, [0, 'asc'], [1, 'asc']);
    },
  },
  {
    source: 'after https://posthog.com/docs/sql (RIGHT JOIN)',
    query: `SELECT g.key, e.n
FROM (SELECT $group_0 AS org, count() AS n FROM events WHERE event = 'purchase' GROUP BY org) AS e
RIGHT JOIN groups AS g ON e.org = g.key
WHERE g.index = 0
ORDER BY g.key`,
    rows: () => GROUPS.filter((g) => g.index === 0).map((g) => [g.key, where((e) => e.event === 'purchase' && e.groups?.[0] === g.key).length]),
  },
  {
    source: 'after https://posthog.com/docs/data-warehouse/sql/variables (a variable in a SQL insight)',
    query: 'SELECT count() FROM events WHERE properties.plan = {variables.plan}',
    variables: { plan: { code_name: 'plan', value: 'pro', variableId: '00000000-0000-4000-8000-00000000aaaa' } },
    rows: () => [[where((e) => prop(e, 'plan') === 'pro').length]],
  },
  {
    source: 'after https://posthog.com/docs/data-warehouse/sql/variables (variables and {filters} together)',
    query: "SELECT event, count() AS c FROM events WHERE {filters} AND distinct_id = {variables.user} GROUP BY event ORDER BY c DESC, event",
    variables: { user: { code_name: 'user', value: 'dee', variableId: '00000000-0000-4000-8000-00000000bbbb' } },
    filters: { dateRange: { date_from: '2024-03-10', date_to: '2024-03-20' } },
    rows: () => sortRows(countBy(where((e) => e.distinct_id === 'dee' && e.timestamp >= '2024-03-10' && e.timestamp < '2024-03-21'), (e) => e.event), [1, 'desc'], [0, 'asc']),
  },
  {
    source: `after ${DOCS}/sql (SQL insights: {filters} with a property filter and a date range)`,
    query: "SELECT properties.$browser AS browser, count() FROM events WHERE event = '$pageview' AND {filters} GROUP BY browser ORDER BY browser",
    filters: { dateRange: { date_from: '2024-03-15', date_to: '2024-03-21' }, properties: [{ key: '$device_type', operator: 'exact', value: 'Desktop', type: 'event' }] },
    rows: () => sortRows(countBy(PV().filter((e) => e.timestamp >= '2024-03-15' && e.timestamp < '2024-03-22' && prop(e, '$device_type') === 'Desktop'), (e) => prop(e, '$browser')), [0, 'asc']),
  },
  {
    source: `after ${DOCS}/sql (SQL insights: {filters} with a person property filter)`,
    query: 'SELECT count() FROM events WHERE {filters}',
    filters: { properties: [{ key: 'plan', operator: 'exact', value: 'enterprise', type: 'person' }] },
    rows: () => [[where((e) => e.person.properties.plan === 'enterprise').length]],
  },
  // ---------------------------------------------------------------------------------------------------------
  // The examples PostHog's AI is given.
  {
    source: `${AI_PROMPTS} (weekly active users that did an activation event 3 times or more; adapted: a fixed month for now())`,
    query: `SELECT week_of, countIf(weekly_event_count >= 3)
FROM (
   SELECT person.id AS person_id, toStartOfWeek(timestamp) AS week_of, count() AS weekly_event_count
   FROM events
   WHERE
      event = '$pageview'
      AND properties.$current_url = 'https://hedgerow.test/docs'
      AND toStartOfWeek(toDateTime('2024-04-01 00:00:00')) - INTERVAL 8 WEEK <= timestamp
      AND timestamp < toStartOfWeek(toDateTime('2024-04-01 00:00:00'))
   GROUP BY person.id, week_of
)
GROUP BY week_of
ORDER BY week_of DESC`,
    rows: () => {
      const end = startOfWeek('2024-04-01');
      const perWeek = new Map<string, Map<string, number>>();
      for (const e of PV().filter((x) => prop(x, '$current_url') === 'https://hedgerow.test/docs' && day(x) < end)) {
        const week = startOfWeek(day(e));
        const persons = perWeek.get(week) ?? new Map<string, number>();
        persons.set(e.person.uuid, (persons.get(e.person.uuid) ?? 0) + 1);
        perWeek.set(week, persons);
      }
      return sortRows([...perWeek.entries()].map(([week, persons]) => [week, [...persons.values()].filter((n) => n >= 3).length]), [0, 'desc']);
    },
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/guidelines.md (weekly active users, as written: the last 8 weeks hold none of March 2024)',
    query: `SELECT toStartOfWeek(timestamp) AS week, count(DISTINCT person_id) AS users
FROM events
WHERE event = '$pageview'
  AND timestamp > now() - INTERVAL 8 WEEK
GROUP BY week
ORDER BY week DESC`,
    rows: [],
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/guidelines.md (weekly active users; adapted: a fixed month)',
    query: `SELECT toStartOfWeek(timestamp) AS week, count(DISTINCT person_id) AS users
FROM events
WHERE event = '$pageview'
  AND timestamp > toDateTime('2024-03-01 00:00:00')
GROUP BY week
ORDER BY week DESC`,
    rows: () => sortRows(uniqBy(PV(), (e) => startOfWeek(day(e)), personOf), [0, 'desc']),
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/guidelines.md (returning browsers, with bracket property access)',
    query:
      "SELECT event FROM events WHERE timestamp >= now() - INTERVAL 1 DAY and properties['$browser'] IN (SELECT properties['$browser'] FROM events WHERE timestamp >= now() - INTERVAL 2 DAY and timestamp < now() - INTERVAL 1 DAY)",
    rows: [],
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/guidelines.md (a subquery instead of a JOIN; adapted: sessions with a click)',
    query: `SELECT
 g.properties.$session_id as session
FROM events AS g
WHERE
  timestamp >= toDateTime('2024-03-01 00:00:00')
  AND g.event = 'feature_used'
  AND session IN (SELECT properties.$session_id FROM events WHERE event = '$autocapture' AND timestamp >= toDateTime('2024-03-01 00:00:00'))`,
    order: 'set',
    rows: () => {
      const clicked = new Set(where((e) => e.event === '$autocapture').map((e) => prop(e, '$session_id')));
      return where((e) => e.event === 'feature_used' && clicked.has(prop(e, '$session_id'))).map((e) => [prop(e, '$session_id')]);
    },
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/guidelines.md (the JOIN it advises against; adapted likewise)',
    query: `SELECT
 g.properties.$session_id
FROM events AS g
INNER JOIN (SELECT properties.$session_id as trace_id FROM events WHERE event = '$autocapture') AS f
ON g.properties.$session_id = f.trace_id
WHERE g.event = 'feature_used'`,
    order: 'set',
    rows: () => {
      const clicks = where((e) => e.event === '$autocapture').map((e) => prop(e, '$session_id'));
      return where((e) => e.event === 'feature_used').flatMap((e) => clicks.filter((s) => s === prop(e, '$session_id')).map((s) => [s]));
    },
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/guidelines.md (CROSS JOIN with WHERE instead of a relational JOIN)',
    query: "SELECT count() FROM events e CROSS JOIN persons p WHERE e.person_id = p.id AND e.event = 'signed_up' AND p.properties.country = 'US'",
    rows: () => [[where((e) => e.event === 'signed_up' && e.person.properties.country === 'US').length]],
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/hogql-extensions.md (sparkline)',
    query: 'SELECT sparkline(range(1, 10)) FROM (SELECT 1)',
    rows: [[['__hx_tag', 'Sparkline', 'data', [1, 2, 3, 4, 5, 6, 7, 8, 9]]]],
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/hogql-extensions.md (a 24-hour sparkline per URL, as written)',
    query: `SELECT
    pageview,
    sparkline(arrayMap(h -> countEqual(groupArray(hour), h), range(0,23))),
    count() as pageview_count
FROM (
    SELECT
        properties.$current_url as pageview,
        toHour(timestamp) AS hour
    FROM events
    WHERE timestamp > now() - interval 1 day AND event = '$pageview'
) subquery
GROUP BY pageview
ORDER BY pageview_count desc`,
    rows: [],
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/hogql-extensions.md (sortableSemVer, as written)',
    query: `SELECT DISTINCT properties.$lib_version
FROM events
WHERE event = '$pageview' AND timestamp >= now() - INTERVAL 1 DAY
ORDER BY sortableSemVer(properties.$lib_version) DESC
LIMIT 10`,
    rows: [],
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/hogql-extensions.md (sortableSemVer over constants)',
    query: "SELECT v FROM (SELECT arrayJoin(['1.10.0', '1.9.2', '1.2.0', '0.9']) AS v) ORDER BY sortableSemVer(v) DESC",
    rows: [['1.10.0'], ['1.9.2'], ['1.2.0'], ['0.9']],
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/hogql-extensions.md (languageCodeToName)',
    query: `SELECT
    languageCodeToName('en') AS english,
    languageCodeToName('fr') AS french,
    languageCodeToName('pt') AS portuguese,
    languageCodeToName('ru') AS russian,
    languageCodeToName('zh') AS chinese`,
    rows: [['English', 'French', 'Portuguese', 'Russian', 'Chinese']],
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/hogql-extensions.md (actions by name: this data set has none)',
    query: "SELECT count()\nFROM events\nWHERE matchesAction('clicked homepage button')",
    refused: 'matchesAction',
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/example-trends-unique-users (rendered; placeholders: 1–7 March 2024, $pageview)',
    query: `SELECT
    arrayMap(number -> plus(toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1)), toIntervalDay(number)), range(0, plus(coalesce(dateDiff('day', toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1)), toStartOfInterval(assumeNotNull(toDateTime('2024-03-07 23:59:59')), toIntervalDay(1)))), 1))) AS date,
    arrayMap(_match_date -> arraySum(arraySlice(groupArray(ifNull(count, 0)), indexOf(groupArray(day_start) AS _days_for_count, _match_date) AS _index, plus(minus(arrayLastIndex(x -> equals(x, _match_date), _days_for_count), _index), 1))), date) AS total
FROM
    (SELECT
        sum(total) AS count,
        day_start
    FROM
        (SELECT
            count(DISTINCT e.person_id) AS total,
            toStartOfDay(timestamp) AS day_start
        FROM
            events AS e
        WHERE
            and(greaterOrEquals(timestamp, toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1))), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-07 23:59:59'))), equals(event, '$pageview'))
        GROUP BY
            day_start)
    GROUP BY
        day_start
    ORDER BY
        day_start ASC)
ORDER BY
    arraySum(total) DESC
LIMIT 50000`,
    rows: () => [[days(1, 7).map((d) => dt(`${d} 00:00:00`)), days(1, 7).map((d) => uniq(PV().filter((e) => day(e) === d).map(personOf)))]],
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/example-trends-unique-users (rendered, the inner series; placeholders: 1–7 March 2024, $pageview)',
    query: `SELECT
    sum(total) AS count,
    day_start
FROM
    (SELECT
        count(DISTINCT e.person_id) AS total,
        toStartOfDay(timestamp) AS day_start
    FROM
        events AS e
    WHERE
        and(greaterOrEquals(timestamp, toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1))), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-07 23:59:59'))), equals(event, '$pageview'))
    GROUP BY
        day_start)
GROUP BY
    day_start
ORDER BY
    day_start ASC`,
    rows: () => days(1, 7).map((d) => [uniq(PV().filter((e) => day(e) === d).map(personOf)), dt(`${d} 00:00:00`)]),
  },
  // ---------------------------------------------------------------------------------------------------------
  // The HogQL PostHog's insight runners build (posthog/hogql_queries/insights/), placeholders filled as the
  // runner fills them for 1–7 March 2024 in UTC.
  {
    source: 'posthog/hogql_queries/insights/lifecycle/lifecycle_query_runner.py (to_query with events_query and periods_query; $pageview, days, 1–7 March 2024)',
    query: LIFECYCLE_QUERY,
    order: 'set',
    rows: () => lifecycle(),
  },
  {
    source: 'posthog/hogql_queries/insights/lifecycle/test/test_lifecycle_query_runner.py (_run_events_query: the events query grouped)',
    query: `SELECT
start_of_period, count(DISTINCT actor_id) AS counts, status
FROM (${LIFECYCLE_EVENTS_QUERY})
GROUP BY start_of_period, status`,
    order: 'set',
    rows: () => lifecyclePairs(),
  },
  {
    source: 'posthog/hogql_queries/insights/trends (TrendsQuery, total count per day, as rendered in products/posthog_ai/skills/query-examples; $pageview, 1–7 March 2024)',
    query: TRENDS_QUERY('count()', 'toStartOfDay(timestamp)', "equals(event, '$pageview')"),
    rows: () => [[days(1, 7).map((d) => dt(`${d} 00:00:00`)), days(1, 7).map(pageviewsOn)]],
  },
  {
    source: 'posthog/hogql_queries/insights/trends (TrendsQuery, sum of a property per day; purchase, 1–7 March 2024)',
    query: TRENDS_QUERY('sum(toFloat(properties.price))', 'toStartOfDay(timestamp)', "equals(event, 'purchase')"),
    rows: () => [[days(1, 7).map((d) => dt(`${d} 00:00:00`)), days(1, 7).map((d) => sum(where((e) => e.event === 'purchase' && day(e) === d).map((e) => num(e, 'price'))))]],
  },
  {
    source: 'posthog/hogql_queries/insights/trends (TrendsQuery, a property filter in function form; $pageview where $browser = Chrome, 1–7 March 2024)',
    query: TRENDS_QUERY('count()', 'toStartOfDay(timestamp)', "equals(event, '$pageview'), equals(properties.$browser, 'Chrome')"),
    rows: () => [[days(1, 7).map((d) => dt(`${d} 00:00:00`)), days(1, 7).map((d) => PV().filter((e) => day(e) === d && prop(e, '$browser') === 'Chrome').length)]],
  },
  {
    source: 'posthog/hogql_queries/insights/trends (TrendsQuery with a breakdown: the inner series by $browser; $pageview, 1–7 March 2024)',
    query: `SELECT
    count() AS total,
    toStartOfDay(timestamp) AS day_start,
    ifNull(nullIf(toString(properties.$browser), ''), '$$_posthog_breakdown_null_$$') AS breakdown_value
FROM
    events AS e
WHERE
    and(greaterOrEquals(timestamp, toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1))), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-07 23:59:59'))), equals(event, '$pageview'))
GROUP BY
    day_start,
    breakdown_value`,
    order: 'set',
    rows: () => {
      const list = PV().filter((e) => day(e) <= '2024-03-07');
      const counts = countBy(list, (e) => `${day(e)}|${prop(e, '$browser') ?? '$$_posthog_breakdown_null_$$'}`);
      return counts.map(([key, n]) => [n, dt(`${key.split('|')[0]} 00:00:00`), key.split('|')[1]]);
    },
  },
  {
    source: 'posthog/hogql_queries/insights/trends (TrendsQuery, weekly unique users; $pageview, March 2024)',
    query: `SELECT
    sum(total) AS count,
    day_start
FROM
    (SELECT
        count(DISTINCT e.person_id) AS total,
        toStartOfWeek(timestamp, 0) AS day_start
    FROM
        events AS e
    WHERE
        and(greaterOrEquals(timestamp, toStartOfWeek(assumeNotNull(toDateTime('2024-03-01 00:00:00')), 0)), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-31 23:59:59'))), equals(event, '$pageview'))
    GROUP BY
        day_start)
GROUP BY
    day_start
ORDER BY
    day_start ASC`,
    rows: () => sortRows(uniqBy(PV(), (e) => startOfWeek(day(e)), personOf), [0, 'asc']).map(([week, n]) => [n, week]),
  },
  {
    source: 'posthog/hogql_queries/insights/trends (TrendsQuery, hourly counts of one day; $pageview, 2 March 2024)',
    query: `SELECT
    count() AS total,
    toStartOfHour(timestamp) AS day_start
FROM
    events AS e
WHERE
    and(greaterOrEquals(timestamp, toStartOfInterval(assumeNotNull(toDateTime('2024-03-02 00:00:00')), toIntervalHour(1))), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-02 23:59:59'))), equals(event, '$pageview'))
GROUP BY
    day_start
ORDER BY
    day_start ASC`,
    rows: () => sortRows(countBy(PV().filter((e) => day(e) === '2024-03-02'), (e) => `${e.timestamp.slice(0, 13)}:00:00Z`), [0, 'asc']).map(([hour, n]) => [n, dt(hour)]),
  },
  {
    source: 'posthog/hogql_queries/insights/trends (TrendsQuery as a single number: BoldNumber; feature_used, March 2024)',
    query: `SELECT
    count() AS total
FROM
    events AS e
WHERE
    and(greaterOrEquals(timestamp, toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1))), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-31 23:59:59'))), equals(event, 'feature_used'))
ORDER BY
    total DESC`,
    rows: () => [[where((e) => e.event === 'feature_used').length]],
  },
  {
    source: 'posthog/hogql_queries/insights/trends (TrendsQuery, monthly active groups: unique $group_0; feature_used, March 2024)',
    query: `SELECT
    count(DISTINCT e.$group_0) AS total,
    toStartOfMonth(timestamp) AS day_start
FROM
    events AS e
WHERE
    and(greaterOrEquals(timestamp, toStartOfMonth(assumeNotNull(toDateTime('2024-03-01 00:00:00')))), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-31 23:59:59'))), equals(event, 'feature_used'), notEquals(e.$group_0, ''))
GROUP BY
    day_start`,
    rows: () => [[uniq(where((e) => e.event === 'feature_used' && e.groups?.[0] !== undefined).map((e) => e.groups![0])), '2024-03-01']],
  },
  {
    source: 'products/posthog_ai/skills/query-examples (rendered example: Stickiness, counted by pageviews from unique users; 1–7 March 2024)',
    query: `SELECT
    groupArray(num_actors) AS counts,
    groupArray(num_intervals) AS intervals
FROM
    (SELECT
        sum(num_actors) AS num_actors,
        num_intervals
    FROM
        (SELECT
            0 AS num_actors,
            plus(number, 1) AS num_intervals
        FROM
            numbers(ceil(divide(dateDiff('day', toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1)), plus(toStartOfInterval(assumeNotNull(toDateTime('2024-03-07 23:59:59')), toIntervalDay(1)), toIntervalDay(1))), 1))) AS numbers
        UNION ALL
        SELECT
            count(DISTINCT aggregation_target) AS num_actors,
            num_intervals
        FROM
            (SELECT
                aggregation_target,
                count() AS num_intervals
            FROM
                (SELECT
                    e.person_id AS aggregation_target,
                    toStartOfInterval(e.timestamp, toIntervalDay(1)) AS start_of_interval
                FROM
                    events AS e
                WHERE
                    and(greaterOrEquals(timestamp, toStartOfInterval(assumeNotNull(toDateTime('2024-03-01 00:00:00')), toIntervalDay(1))), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-07 23:59:59'))), equals(event, '$pageview'))
                GROUP BY
                    aggregation_target,
                    start_of_interval
                HAVING
                    greater(count(), 0))
            GROUP BY
                aggregation_target)
        GROUP BY
            num_intervals
        ORDER BY
            num_intervals ASC)
    GROUP BY
        num_intervals
    ORDER BY
        num_intervals ASC)
LIMIT 50000`,
    rows: () => {
      const daysOf = uniqBy(PV().filter((e) => day(e) <= '2024-03-07'), personOf, day);
      const counts = [1, 2, 3, 4, 5, 6, 7].map((n) => daysOf.filter(([, d]) => d === n).length);
      return [[counts, [1, 2, 3, 4, 5, 6, 7]]];
    },
  },
  {
    source: 'products/posthog_ai/skills/query-examples (rendered example: Funnel, two steps, unique users, broken down by person.properties.role, 14-day window; adapted: signed_up for "user signed up", 1–7 March 2024)',
    query: FUNNEL_QUERY,
    rows: () => funnel(),
    differs: {
      because: "PostHog's funnels call aggregate_funnel_array, a program of its own that runs inside its ClickHouse",
      refused: 'aggregate_funnel_array',
    },
  },
  // ---------------------------------------------------------------------------------------------------------
  // The project's timezone: the same events in an environment set to America/New_York (DST began 10 March).
  {
    source: `after ${DOCS}/sql (daily counts: toDate reads the project's timezone)`,
    newYork: true,
    query: "SELECT toDate(timestamp) AS day, count() FROM events WHERE event = '$pageview' GROUP BY day ORDER BY day",
    rows: () => sortRows(countBy(PV(), (e) => dateIn(e.time, 'America/New_York')), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (toHour in the project timezone)',
    newYork: true,
    query: "SELECT toHour(timestamp) AS hour, count() FROM events WHERE event = 'feature_used' GROUP BY hour ORDER BY hour",
    rows: () => sortRows(countBy(where((e) => e.event === 'feature_used'), (e) => hourIn(e.time, 'America/New_York')), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/data/timestamps (a date string compared with timestamp is read in the project timezone: 10 March has 23 hours in New York)',
    newYork: true,
    query: "SELECT count() FROM events WHERE timestamp >= '2024-03-10' AND timestamp < '2024-03-11'",
    rows: () => [[where((e) => e.timestamp >= '2024-03-10T05:00:00Z' && e.timestamp < '2024-03-11T04:00:00Z').length]],
  },
  {
    source: `${TEST_QUERY} test_hogql_query_filters (a date range in the project timezone)`,
    newYork: true,
    query: "SELECT count() FROM events WHERE event = '$pageview' AND {filters}",
    filters: { dateRange: { date_from: '2024-03-10', date_to: '2024-03-16' } },
    // Both dates are midnights in the project's zone and date_to is exclusive: `timestamp < 2024-03-16 00:00` New York
    // (posthog/hogql/filters.py reads date_to with isoparse in the team's zone; test_filters.py prints date_to="2020-02-02"
    // as less(timestamp, toDateTime('2020-02-02 00:00:00.000000'))).
    rows: () => [[PV().filter((e) => e.timestamp >= '2024-03-10T05:00:00Z' && e.timestamp < '2024-03-16T04:00:00Z').length]],
  },
  {
    source: 'posthog/hogql_queries/insights/trends (TrendsQuery inner series in a project in New York; $pageview, 8–12 March 2024)',
    newYork: true,
    query: `SELECT
    count() AS total,
    toStartOfDay(timestamp) AS day_start
FROM
    events AS e
WHERE
    and(greaterOrEquals(timestamp, toStartOfInterval(assumeNotNull(toDateTime('2024-03-08 00:00:00')), toIntervalDay(1))), lessOrEquals(timestamp, assumeNotNull(toDateTime('2024-03-12 23:59:59'))), equals(event, '$pageview'))
GROUP BY
    day_start
ORDER BY
    day_start ASC`,
    rows: () => {
      const local = PV().map((e) => dateIn(e.time, 'America/New_York')).filter((d) => d >= '2024-03-08' && d <= '2024-03-12');
      return sortRows(countBy(local.map((d) => ({ d }) as unknown as CorpusEvent), (e) => (e as unknown as { d: string }).d), [0, 'asc']).map(([d, n]) => [n, newYorkMidnight(d as string)]);
    },
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (toStartOfWeek and toDayOfWeek in the project timezone)',
    newYork: true,
    query: "SELECT toStartOfWeek(timestamp) AS week, toDayOfWeek(min(timestamp)), count() FROM events WHERE event = 'purchase' GROUP BY week ORDER BY week",
    rows: () => {
      const byWeek = new Map<string, CorpusEvent[]>();
      for (const e of where((x) => x.event === 'purchase')) {
        const week = startOfWeek(dateIn(e.time, 'America/New_York'));
        byWeek.set(week, [...(byWeek.get(week) ?? []), e]);
      }
      return sortRows(
        [...byWeek.entries()].map(([week, list]) => [week, ((new Date(`${dateIn(list[0]!.time, 'America/New_York')}T00:00:00Z`).getUTCDay() + 6) % 7) + 1, list.length]),
        [0, 'asc'],
      );
    },
  },
  {
    source: 'after https://posthog.com/docs/sql/clickhouse-functions (toTimeZone back to UTC inside a New York project)',
    newYork: true,
    query: "SELECT toHour(toTimeZone(timestamp, 'UTC')), toHour(timestamp) FROM events WHERE event = 'signed_up' ORDER BY timestamp",
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.time.getUTCHours(), hourIn(e.time, 'America/New_York')]),
  },
  // ---------------------------------------------------------------------------------------------------------
  // More of posthog/hogql/test and PostHog's docs over the data set.
  {
    source: `${TEST_QUERY} test_query_joins_pdi (a subquery over person_distinct_ids joined to events; adapted: the pdi table for raw_person_distinct_ids)`,
    query: `SELECT event, timestamp, pdi.person_id from events e
INNER JOIN (
    SELECT distinct_id, person_id
      FROM person_distinct_ids
   ) AS pdi
ON e.distinct_id = pdi.distinct_id
WHERE event = 'signed_up'`,
    order: 'set',
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.event, dt(e.timestamp), e.person.uuid]),
  },
  {
    source: `${TEST_QUERY} test_query_joins_events_pdi_person (pdi.person.id)`,
    query: "SELECT event, timestamp, pdi.distinct_id, pdi.person.id FROM events WHERE event = 'signed_up' ORDER BY timestamp LIMIT 10",
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.event, dt(e.timestamp), e.distinct_id, e.person.uuid]),
  },
  {
    source: `${TEST_QUERY} test_query_joins_events_pdi_e_person_properties (e.pdi.person.properties)`,
    query: "SELECT event, e.timestamp, pdi.distinct_id, e.pdi.person.properties.email FROM events e WHERE event = 'signed_up' ORDER BY timestamp LIMIT 10",
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.event, dt(e.timestamp), e.distinct_id, e.person.properties.email]),
  },
  {
    source: 'after https://posthog.com/docs/data/persons (distinct ids per person, from person_distinct_ids)',
    query: 'SELECT person_id, count() AS ids FROM person_distinct_ids GROUP BY person_id ORDER BY ids DESC, person_id',
    rows: () => sortRows(PERSONS.map((p) => [p.uuid, p.distinctIds.length]), [1, 'desc'], [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/data/persons (the person of each distinct id, and persons seen under several)',
    query: 'SELECT pdi.person.properties.name AS name, arraySort(groupArray(distinct_id)) FROM person_distinct_ids AS pdi WHERE name IS NOT NULL GROUP BY name HAVING count() > 1 ORDER BY name',
    rows: () => sortRows(PERSONS.filter((p) => p.properties.name && p.distinctIds.length > 1).map((p) => [p.properties.name, [...p.distinctIds].sort()]), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (person properties: the plan now, and on the purchase event)',
    query: "SELECT person.properties.plan AS plan_now, properties.plan AS plan_then, count() FROM events WHERE event = 'purchase' GROUP BY plan_now, plan_then ORDER BY plan_now, plan_then",
    rows: () => sortRows(countBy(where((e) => e.event === 'purchase'), (e) => `${String(e.person.properties.plan)}|${prop(e, 'plan')}`).map(([key, n]) => [key.split('|')[0], key.split('|')[1], n]), [0, 'asc'], [1, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (nested properties: $set on the event)',
    query: "SELECT properties.$set.plan AS plan, count() FROM events WHERE event = '$pageview' AND properties.$set.email = 'dee@initech.test' GROUP BY plan ORDER BY plan",
    rows: () => sortRows(countBy(PV().filter((e) => (e.properties.$set as { email?: string } | undefined)?.email === 'dee@initech.test'), (e) => String((e.properties.$set as { plan: string }).plan)), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (bracket notation for a property)',
    query: "SELECT properties['$device_type'] AS device, uniq(person_id) FROM events WHERE event = '$pageview' GROUP BY device ORDER BY device",
    rows: () => sortRows(uniqBy(PV(), (e) => prop(e, '$device_type'), personOf), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (a boolean property: PostHog types it Boolean at ingestion and answers true/false)',
    differs: {
      because: 'PostHog types a property by its property definition (Boolean here); Hedgerow keeps none, so the property answers its text, as PostHog does for an untyped one',
      rows: (posthog) => posthog.map(([value, count]) => [String(value), count]),
    },
    query: "SELECT properties.enabled AS enabled, count() FROM events WHERE event = 'feature_used' GROUP BY enabled ORDER BY enabled",
    rows: () => sortRows(countBy(where((e) => e.event === 'feature_used'), (e) => e.properties.enabled as boolean), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (list properties by position: properties.tags[1] and properties.tags.1)',
    query: "SELECT properties.tags[1] AS first_tag, properties.tags.2 AS second_tag, count() FROM events WHERE event = 'feature_used' GROUP BY first_tag, second_tag ORDER BY first_tag, second_tag",
    rows: () => sortRows(countBy(where((e) => e.event === 'feature_used'), (e) => JSON.stringify([(e.properties.tags as string[])[0] ?? null, (e.properties.tags as string[])[1] ?? null])).map(([key, n]) => [...(JSON.parse(key) as unknown[]), n]), [0, 'asc'], [1, 'asc']),
  },
  {
    source: `${TEST_QUERY} test_property_access_with_arrays (index zero is refused, as PostHog refuses it)`,
    query: 'SELECT properties.tags[0] FROM events',
    refused: 'one',
  },
  {
    source: 'after https://posthog.com/docs/sql/aggregations (sumIf, avgIf, countIf, uniqIf by plan)',
    query:
      "SELECT person.properties.plan AS plan, countIf(event = 'purchase') AS purchases, sumIf(toFloat(properties.price), event = 'purchase') AS revenue, uniqIf(person_id, event = 'feature_used') AS feature_users FROM events GROUP BY plan ORDER BY plan",
    rows: () => {
      const plans = [...new Set(EVENTS.map((e) => (e.person.properties.plan as string | undefined) ?? null))];
      return sortRows(
        plans.map((plan) => {
          const list = where((e) => ((e.person.properties.plan as string | undefined) ?? null) === plan);
          const purchases = list.filter((e) => e.event === 'purchase');
          return [plan, purchases.length, sum(purchases.map((e) => num(e, 'price'))), uniq(list.filter((e) => e.event === 'feature_used').map(personOf))];
        }),
        [0, 'asc'],
      );
    },
  },
  {
    source: 'after https://posthog.com/docs/sql/aggregations (argMin and argMax: first and last URL of each session)',
    query: "SELECT properties.$session_id AS session, argMin(properties.$pathname, timestamp), argMax(properties.$pathname, timestamp) FROM events WHERE properties.$session_id IN ('s-001', 's-002', 's-003') AND event = '$pageview' GROUP BY session ORDER BY session",
    rows: () =>
      ['s-001', 's-002', 's-003'].map((id) => {
        const list = PV().filter((e) => e.properties.$session_id === id);
        return [id, prop(list[0]!, '$pathname'), prop(list[list.length - 1]!, '$pathname')];
      }),
  },
  {
    source: 'after https://posthog.com/docs/sql/aggregations (min, max and avg of numeric properties)',
    query: "SELECT min(toFloat(properties.price)), max(toFloat(properties.price)), round(avg(toFloat(properties.price)), 2), count(properties.price) FROM events WHERE event = 'purchase'",
    rows: () => {
      const prices = where((e) => e.event === 'purchase').map((e) => num(e, 'price'));
      return [[Math.min(...prices), Math.max(...prices), round(avg(prices)), prices.length]];
    },
  },
  {
    source: 'after https://posthog.com/docs/sql/aggregations (count(column) counts non-null values)',
    query: 'SELECT count(), count(properties.utm_source), count(DISTINCT properties.utm_source) FROM events',
    rows: () => [[EVENTS.length, where((e) => prop(e, 'utm_source') !== null).length, uniq(where((e) => prop(e, 'utm_source') !== null).map((e) => prop(e, 'utm_source')))]],
  },
  {
    source: 'after https://posthog.com/docs/sql (subqueries in FROM: events per user, then the distribution)',
    query: `SELECT events_per_user, count() AS users
FROM (
    SELECT person_id, count() AS events_per_user
    FROM events
    WHERE event = 'feature_used'
    GROUP BY person_id
)
GROUP BY events_per_user
ORDER BY events_per_user`,
    rows: () => sortRows(countBy(countBy(where((e) => e.event === 'feature_used'), personOf).map(([, n]) => ({ n }) as unknown as CorpusEvent), (x) => (x as unknown as { n: number }).n), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql (WITH: a common table expression)',
    query: `WITH buyers AS (
    SELECT DISTINCT person_id FROM events WHERE event = 'purchase'
)
SELECT count() FROM events WHERE event = 'feature_used' AND person_id IN (SELECT person_id FROM buyers)`,
    rows: () => {
      const buyers = new Set(where((e) => e.event === 'purchase').map(personOf));
      return [[where((e) => e.event === 'feature_used' && buyers.has(personOf(e))).length]];
    },
  },
  {
    source: 'after https://posthog.com/docs/sql (HAVING)',
    query: "SELECT distinct_id, count() AS purchases FROM events WHERE event = 'purchase' GROUP BY distinct_id HAVING purchases >= 3 ORDER BY distinct_id",
    rows: () => sortRows(countBy(where((e) => e.event === 'purchase'), (e) => e.distinct_id).filter(([, n]) => n >= 3), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql (LIMIT with OFFSET)',
    query: "SELECT distinct_id, timestamp FROM events WHERE event = 'purchase' ORDER BY timestamp DESC LIMIT 3 OFFSET 2",
    rows: () => [...where((e) => e.event === 'purchase')].reverse().slice(2, 5).map((e) => [e.distinct_id, dt(e.timestamp)]),
  },
  {
    source: 'after https://posthog.com/docs/sql (UNION ALL of two event counts)',
    query: "SELECT 'pageviews' AS kind, count() FROM events WHERE event = '$pageview' UNION ALL SELECT 'clicks' AS kind, count() FROM events WHERE event = '$autocapture'",
    order: 'set',
    rows: () => [['pageviews', PV().length], ['clicks', where((e) => e.event === '$autocapture').length]],
  },
  {
    source: 'after https://posthog.com/docs/sql (a window over an aggregate: each day and its running total)',
    query: "SELECT toDate(timestamp) AS day, count() AS c, sum(count()) OVER (ORDER BY day) AS running FROM events WHERE event = 'purchase' GROUP BY day ORDER BY day",
    rows: () => {
      let running = 0;
      return sortRows(countBy(where((e) => e.event === 'purchase'), day), [0, 'asc']).map(([d, n]) => [d, n, (running += n)]);
    },
  },
  {
    source: 'products/posthog_ai/skills/query-examples/references/guidelines.md (lagInFrame with a whole-partition frame instead of LAG)',
    query:
      "SELECT distinct_id, timestamp, lagInFrame(timestamp) OVER (PARTITION BY distinct_id ORDER BY timestamp ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS previous FROM events WHERE event = 'purchase' AND distinct_id = 'dee' ORDER BY timestamp",
    rows: () => {
      const list = where((e) => e.event === 'purchase' && e.distinct_id === 'dee');
      // lagInFrame of the first row is the type's default: the epoch for a DateTime.
      return list.map((e, i) => ['dee', dt(e.timestamp), i === 0 ? dt('1970-01-01 00:00:00') : dt(list[i - 1]!.timestamp)]);
    },
  },
  {
    source: 'after https://posthog.com/docs/data/sessions (sessions per day with their average duration and bounce rate)',
    query:
      "SELECT toDate($start_timestamp) AS day, count() AS sessions, round(avg($session_duration)) AS avg_duration, countIf($is_bounce) AS bounces FROM sessions WHERE $start_timestamp < '2024-03-04' GROUP BY day ORDER BY day",
    rows: () => {
      const list = SESSIONS.filter((s) => s.start.toISOString() < '2024-03-04');
      const byDay = new Map<string, typeof list>();
      for (const s of list) byDay.set(s.start.toISOString().slice(0, 10), [...(byDay.get(s.start.toISOString().slice(0, 10)) ?? []), s]);
      return sortRows([...byDay.entries()].map(([d, group]) => [d, group.length, roundHalfEven(avg(group.map((s) => s.duration))), group.filter((s) => s.isBounce).length]), [0, 'asc']);
    },
  },
  {
    source: 'after https://posthog.com/docs/data/sessions (exit pages: $end_pathname)',
    query: 'SELECT $end_pathname AS exit, count() AS sessions FROM sessions GROUP BY exit ORDER BY sessions DESC, exit',
    rows: () => sortRows(countBy(SESSIONS.map((s) => ({ s }) as unknown as CorpusEvent), (x) => (x as unknown as { s: (typeof SESSIONS)[number] }).s.endPathname), [1, 'desc'], [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/data/sessions (session.* fields from events: $entry_pathname of each purchase-free session)',
    query: "SELECT session.$entry_pathname AS entry, count(DISTINCT session.session_id) FROM events WHERE event = 'feature_used' GROUP BY entry ORDER BY entry",
    rows: () => sortRows(uniqBy(where((e) => e.event === 'feature_used'), (e) => SESSIONS.find((s) => s.id === e.properties.$session_id)!.entryPathname, (e) => prop(e, '$session_id')), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/data/sessions (the session of an event by $session_id)',
    query: "SELECT $session_id, session.$start_timestamp, session.$end_timestamp FROM events WHERE event = 'signed_up' ORDER BY timestamp",
    rows: () =>
      where((e) => e.event === 'signed_up').map((e) => {
        const s = SESSIONS.find((x) => x.id === e.properties.$session_id)!;
        return [s.id, s.start.toISOString(), s.end.toISOString()];
      }),
  },
  {
    source: 'after https://posthog.com/docs/data/sessions (sessions joined to persons: sessions per plan)',
    query: 'SELECT p.properties.plan AS plan, count() AS sessions FROM sessions s JOIN person_distinct_ids pdi ON s.distinct_id = pdi.distinct_id JOIN persons p ON p.id = pdi.person_id GROUP BY plan ORDER BY plan',
    rows: () => sortRows(countBy(SESSIONS.map((s) => ({ person: s.person }) as unknown as CorpusEvent), (e) => (e.person.properties.plan as string | undefined) ?? null), [0, 'asc']),
  },
  // ---------------------------------------------------------------------------------------------------------
  // HogQL's own functions and operators (posthog/hogql/functions/test/, posthog/hogql/test/) on the data set.
  {
    source: 'posthog/hogql/functions/test/test_sparkline.py test_sparkline',
    query: 'select sparkline([1,2,3])',
    rows: [[['__hx_tag', 'Sparkline', 'data', [1, 2, 3]]]],
  },
  { source: 'posthog/hogql/functions/test/test_sparkline.py test_sparkline_error (PostHog refuses it too)', query: 'SELECT sparkline()', refused: 'sparkline' },
  {
    source: 'posthog/hogql/functions/test/test_ip_functions.py (IPv4 conversions)',
    query: "SELECT IPv4NumToString(IPv4StringToNum('66.249.84.5')), IPv4StringToNumOrDefault('nope'), isNull(IPv4StringToNumOrNull('nope')), isIPv4String('1.2.3.4'), isIPv6String('::1')",
    rows: [['66.249.84.5', 0, 1, 1, 1]],
  },
  {
    source: 'posthog/hogql/functions/test/test_ip_functions.py (ranges and IP types)',
    query: "SELECT isIPAddressInRange('66.249.84.5', '66.249.80.0/20'), isIPAddressInRange('0', '10.0.0.0/8'), toString(toIPv4('1.2.3.4')), toString(toIPv6('::1'))",
    rows: [[1, 0, '1.2.3.4', '::1']],
  },
  {
    source: `${TEST_QUERY} test_between_operators (over a numeric property)`,
    query: "SELECT count() FROM events WHERE event = 'purchase' AND toFloat(properties.price) BETWEEN 40 AND 100",
    rows: () => [[where((e) => e.event === 'purchase' && num(e, 'price') >= 40 && num(e, 'price') <= 100).length]],
  },
  {
    source: `${TEST_QUERY} test_null_equality (ILIKE and NOT LIKE over URLs)`,
    query: "SELECT countIf(properties.$current_url ILIKE '%/BLOG/%'), countIf(properties.$current_url NOT LIKE '%/docs%') FROM events WHERE event = '$pageview'",
    rows: () => [[PV().filter((e) => prop(e, '$current_url')!.toLowerCase().includes('/blog/')).length, PV().filter((e) => !prop(e, '$current_url')!.includes('/docs')).length]],
  },
  {
    source: `${TEST_QUERY} test_regex_functions (the regex operators over a property)`,
    query: "SELECT countIf(properties.$pathname =~ '^/(docs|blog)'), countIf(properties.$pathname !~ 'p'), countIf(properties.$pathname =~* '^/PRICING') FROM events WHERE event = '$pageview'",
    rows: () => [[PV().filter((e) => /^\/(docs|blog)/.test(prop(e, '$pathname')!)).length, PV().filter((e) => !/p/.test(prop(e, '$pathname')!)).length, PV().filter((e) => /^\/pricing/i.test(prop(e, '$pathname')!)).length]],
  },
  {
    source: `${TEST_QUERY} test_nullish_coalescing (over a property that is often missing)`,
    query: "SELECT properties.utm_source ?? 'none' AS source, count() FROM events WHERE event = '$pageview' GROUP BY source ORDER BY source",
    rows: () => sortRows(countBy(PV(), (e) => prop(e, 'utm_source') ?? 'none'), [0, 'asc']),
  },
  {
    source: `${TEST_QUERY} test_nullish_coalescing (the ternary operator over events)`,
    query: "SELECT event = '$pageview' ? 'view' : 'other' AS kind, count() FROM events GROUP BY kind ORDER BY kind",
    rows: () => sortRows(countBy(EVENTS, (e) => (e.event === '$pageview' ? 'view' : 'other')), [0, 'asc']),
  },
  { source: 'after https://posthog.com/docs/hogql/guide (DISTINCT)', query: 'SELECT DISTINCT event FROM events ORDER BY event', rows: () => [...new Set(EVENTS.map((e) => e.event))].sort().map((e) => [e]) },
  {
    source: 'after https://posthog.com/docs/hogql/guide (an event by its uuid, as a placeholder)',
    query: 'SELECT event, distinct_id, timestamp FROM events WHERE uuid = {id}',
    values: { id: EVENTS[100]!.uuid },
    rows: () => [[EVENTS[100]!.event, EVENTS[100]!.distinct_id, dt(EVENTS[100]!.timestamp)]],
  },
  {
    source: 'after https://posthog.com/docs/hogql/guide (uuid and properties of the sign-ups)',
    query: "SELECT uuid, properties.$browser, properties.$os FROM events WHERE event = 'signed_up' ORDER BY timestamp",
    rows: () => where((e) => e.event === 'signed_up').map((e) => [e.uuid, prop(e, '$browser'), prop(e, '$os')]),
  },
  { source: 'after https://posthog.com/docs/product-analytics/group-analytics (counting groups)', query: 'SELECT index, count() FROM groups GROUP BY index ORDER BY index', rows: [[0, 3], [1, 2]] },
  {
    source: 'after https://posthog.com/docs/product-analytics/group-analytics (a LEFT JOIN from groups to events of group type 1)',
    query: "SELECT g.key, count() FROM groups g LEFT JOIN events e ON e.$group_1 = g.key WHERE g.index = 1 GROUP BY g.key ORDER BY g.key",
    rows: () => sortRows(GROUPS.filter((g) => g.index === 1).map((g) => [g.key, Math.max(1, where((e) => e.groups?.[1] === g.key).length)]), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/product-analytics/group-analytics (group_1 properties from events)',
    query: "SELECT group_1.properties.name AS project, count() FROM events WHERE event = 'feature_used' GROUP BY project ORDER BY project",
    rows: () => sortRows(countBy(where((e) => e.event === 'feature_used'), (e) => GROUPS.find((g) => g.index === 1 && g.key === e.groups?.[1])?.properties.name ?? null), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/tutorials/dau-mau (monthly active users, every event)',
    query: 'SELECT toStartOfMonth(timestamp) AS month, uniq(person_id) FROM events GROUP BY month ORDER BY month',
    rows: () => sortRows(uniqBy(EVENTS, (e) => `${e.timestamp.slice(0, 7)}-01`, personOf), [0, 'asc']),
  },
  {
    source: 'after https://posthog.com/docs/sql/expressions (the time between a person’s first pageview and sign-up)',
    query:
      "SELECT person_id, dateDiff('minute', minIf(timestamp, event = '$pageview'), minIf(timestamp, event = 'signed_up')) AS minutes FROM events WHERE person_id IN (SELECT person_id FROM events WHERE event = 'signed_up') GROUP BY person_id ORDER BY person_id",
    rows: () =>
      sortRows(
        where((e) => e.event === 'signed_up').map((s) => {
          const first = where((e) => e.person === s.person && e.event === '$pageview')[0]!;
          // dateDiff counts minute boundaries crossed between the two instants.
          return [s.person.uuid, Math.floor(s.time.getTime() / 60_000) - Math.floor(first.time.getTime() / 60_000)];
        }),
        [0, 'asc'],
      ),
  },
  {
    source: 'https://posthog.com/tutorials/hogql-sum-aggregation (sum of a payment property, as a trends series; adapted: purchase and price)',
    query: "SELECT sum(properties.price) FROM events WHERE event = 'purchase'",
    rows: () => [[sum(where((e) => e.event === 'purchase').map((e) => num(e, 'price')))]],
  },
  {
    source: 'https://posthog.com/tutorials/hogql-sum-aggregation (events of the current month with sumIf, as written: none in March 2024)',
    query: 'SELECT sumIf(1, toStartOfMonth(timestamp) = toStartOfMonth(now())) FROM events',
    rows: [[0]],
  },
  {
    source: 'https://posthog.com/tutorials/hogql-sum-aggregation (a score of weighted sumIf broken down by person; adapted: plan and country for realm and first user)',
    query:
      "SELECT person_id, sumIf(10, properties.plan = 'enterprise') + sumIf(5, person.properties.country = 'US') + sumIf(-1, properties.price > 100) AS score FROM events WHERE event = 'purchase' GROUP BY person_id ORDER BY score DESC, person_id",
    rows: () =>
      sortRows(
        PERSONS.filter((p) => where((e) => e.event === 'purchase' && e.person === p).length > 0).map((p) => {
          const list = where((e) => e.event === 'purchase' && e.person === p);
          const score = sum(list.map((e) => (prop(e, 'plan') === 'enterprise' ? 10 : 0) + (p.properties.country === 'US' ? 5 : 0) + (num(e, 'price') > 100 ? -1 : 0)));
          return [p.uuid, score];
        }),
        [1, 'desc'],
        [0, 'asc'],
      ),
  },
];

// Referenced so that the helpers stay in use as the corpus grows.
void monday;
