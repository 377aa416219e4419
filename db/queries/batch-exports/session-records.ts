/** The records of the sessions model: a record per session that the window touched, over all its events. */
import { keyword, param, sql } from '../../hogql/sql.js';
import { asQuery, quoteIdentifier, windowCondition, type RecordsQuery, type RecordsRequest } from './records-query.js';

/** The session's first and last non-empty values of an event property, by event time. */
function firstValue(property: string): string {
  return `(array_agg(nullif(e.properties ->> '${property}', '') order by e."timestamp", e.uuid) filter (where nullif(e.properties ->> '${property}', '') is not null))[1]`;
}
function lastValue(property: string, onlyEvents = ''): string {
  return `(array_agg(nullif(e.properties ->> '${property}', '') order by e."timestamp" desc, e.uuid desc) filter (where nullif(e.properties ->> '${property}', '') is not null${onlyEvents}))[1]`;
}

/** PostHog's entry_* click ids and campaign parameters, each the session's first value of the property. */
const ENTRY_PROPERTIES: ReadonlyArray<readonly [string, string]> = [
  ['entry_utm_source', 'utm_source'],
  ['entry_utm_campaign', 'utm_campaign'],
  ['entry_utm_medium', 'utm_medium'],
  ['entry_utm_term', 'utm_term'],
  ['entry_utm_content', 'utm_content'],
  ['entry_referring_domain', '$referring_domain'],
  ['entry_gclid', 'gclid'],
  ['entry_fbclid', 'fbclid'],
  ['entry_gad_source', 'gad_source'],
  ['entry_gclsrc', 'gclsrc'],
  ['entry_dclid', 'dclid'],
  ['entry_gbraid', 'gbraid'],
  ['entry_wbraid', 'wbraid'],
  ['entry_msclkid', 'msclkid'],
  ['entry_twclid', 'twclid'],
  ['entry_li_fat_id', 'li_fat_id'],
  ['entry_mc_cid', 'mc_cid'],
  ['entry_igshid', 'igshid'],
  ['entry_ttclid', 'ttclid'],
  ['entry__kx', '_kx'],
  ['entry_irclid', 'irclid'],
];

const PAGE_OR_SCREEN = ` and e.event in ('$pageview', '$screen')`;

/**
 * The columns of PostHog's sessions records that events alone determine, over the events `e` of one session.
 * Left out, because Hedgerow has nothing to compute them from: session_id_v7 (ClickHouse's numeric form of the
 * id), channel_type (PostHog's channel rules and its lists of search and social domains) and vitals_lcp (read
 * from web-vitals events Hedgerow does not interpret).
 */
const SESSION_COLUMN_SQL: ReadonlyArray<readonly [string, string]> = [
  ['session_id', "e.properties ->> '$session_id'"],
  ['team_id', 'min(e.team_id)'],
  ['distinct_id', '(array_agg(e.distinct_id order by e."timestamp", e.uuid))[1]'],
  ['start_timestamp', 'min(e."timestamp")'],
  ['end_timestamp', 'max(e."timestamp")'],
  ['urls', "coalesce(array_agg(distinct nullif(e.properties ->> '$current_url', '')) filter (where nullif(e.properties ->> '$current_url', '') is not null), '{}')"],
  ['num_uniq_urls', "count(distinct nullif(e.properties ->> '$current_url', ''))::int"],
  ['entry_current_url', firstValue('$current_url')],
  ['entry_pathname', firstValue('$pathname')],
  ['entry_hostname', firstValue('$host')],
  ['end_current_url', lastValue('$current_url')],
  ['end_pathname', lastValue('$pathname')],
  ['end_hostname', lastValue('$host')],
  ...ENTRY_PROPERTIES.map(([column, property]) => [column, firstValue(property)] as const),
  ['pageview_count', "(count(*) filter (where e.event = '$pageview'))::int"],
  ['autocapture_count', "(count(*) filter (where e.event = '$autocapture'))::int"],
  ['screen_count', "(count(*) filter (where e.event = '$screen'))::int"],
  ['session_duration', 'extract(epoch from max(e."timestamp") - min(e."timestamp"))::int'],
  ['duration', 'extract(epoch from max(e."timestamp") - min(e."timestamp"))::int'],
  [
    'page_screen_autocapture_count_up_to',
    "least(count(*) filter (where e.event in ('$pageview', '$screen', '$autocapture')), 2)::int",
  ],
  // A bounce: a single page, screen or autocapture event, in a session shorter than 10 seconds; no such event, no verdict.
  [
    'is_bounce',
    `case when count(*) filter (where e.event in ('$pageview', '$screen', '$autocapture')) = 0 then null
          else count(*) filter (where e.event in ('$pageview', '$screen', '$autocapture')) = 1
               and max(e."timestamp") - min(e."timestamp") < interval '10 seconds' end`,
  ],
  ['last_external_click_url', lastValue('$external_click_url')],
  ['exit_current_url', lastValue('$current_url', PAGE_OR_SCREEN)],
  ['exit_pathname', lastValue('$pathname', PAGE_OR_SCREEN)],
  ['_inserted_at', 'max(e.inserted_at)'],
];

export const SESSION_RECORD_COLUMNS = SESSION_COLUMN_SQL.map(([column]) => column);

/** How far before the window a session's earlier events are looked for. */
const SESSION_LOOKBACK = '3 days';

/**
 * One record per `$session_id` whose latest event arrived in the window (a backfill: whose last event happened
 * in it), computed over all the session's events.
 */
export function sessionsQuery(request: RecordsRequest, ordered: boolean): RecordsQuery {
  const team = request.batchExport.team_id;
  const byInsertion = request.selectBy === 'inserted_at';
  const selected = byInsertion ? 'e.inserted_at' : 'e."timestamp"';
  const latest = byInsertion ? 'max(e.inserted_at)' : 'max(e."timestamp")';
  const select = SESSION_COLUMN_SQL.map(([column, expression]) => `${expression} as ${quoteIdentifier(column)}`).join(',\n      ');
  // The sessions' other events are read from SESSION_LOOKBACK before the earliest event of the window on (by
  // event time, which the events' index serves), as PostHog looks back: a session is far shorter than that.
  const query = sql`with touched as (
      select e.properties ->> '$session_id' as session_id, min(e."timestamp") as first_seen
        from events e
       where e.team_id = ${param(team, 'int')} and ${windowCondition(selected, request)}
         and nullif(e.properties ->> '$session_id', '') is not null
       group by 1
    )
    select * from (
    select ${keyword(select)}
      from events e
     where e.team_id = ${param(team, 'int')}
       and e."timestamp" >= (select min(first_seen) from touched) - ${keyword(`interval '${SESSION_LOOKBACK}'`)}
       and e.properties ->> '$session_id' in (select session_id from touched)
     group by e.properties ->> '$session_id'
    having ${windowCondition(latest, request)}
    ) sessions
    ${keyword(ordered ? 'order by _inserted_at, session_id' : '')}`;
  return asQuery(query, [...SESSION_RECORD_COLUMNS]);
}
