/**
 * ClickHouse's URL functions (listed in PostHog's mapping.py itself). A URL is read as ClickHouse reads it:
 * an optional `scheme://` (or `//`), the authority up to the first `/`, `?` or `#`, then the path, the query
 * string after `?` and the fragment after `#`; a text that is not a URL gives '' rather than an error.
 */
import type { Expr } from '../ast.js';
import type { Compiler } from '../compiler.js';
import type { FunctionDef } from '../functions.js';
import { keyword, sql, type Fragment } from '../sql.js';
import { arrayOf, type Typed } from '../types.js';
import type { Family } from './index.js';
import { arg, ASCII_PUNCTUATION, derived, nullFor, pattern, scalar, to } from './common.js';

const PREFIX = '^(?:[A-Za-z][A-Za-z0-9+.-]*://|//)';

/** The first group of `expression` in the text, '' when it does not match (and NULL for NULL). */
const match = (text: Fragment, expression: string) =>
  sql`coalesce(substring(${text} from ${pattern(expression)}), (case when ${text} is not null then '' end))`;

/** user:password@host:port */
const authority = (url: Fragment) => match(url, `${PREFIX}{0,1}([^/?#]*)`);
/** host:port */
const hostAndPort = (url: Fragment) => sql`regexp_replace(${authority(url)}, ${pattern('^.*@')}, '')`;
const host = (url: Fragment) => sql`regexp_replace(${hostAndPort(url)}, ${pattern(':[0-9]*$')}, '')`;
const withoutWWW = (domain: Fragment) => sql`regexp_replace(${domain}, ${pattern('^www\\.')}, '')`;
const path = (url: Fragment) => match(url, `${PREFIX}{0,1}[^/?#]*([^?#]*)`);
const queryString = (url: Fragment) => match(url, '\\?([^#]*)');
const fragment = (url: Fragment) => match(url, '#(.*)$');

/**
 * ClickHouse's "first significant subdomain": the second-level name, or the third-level one when the second is
 * com, net, org or co (news.clickhouse.com.tr gives clickhouse); a www there is not significant, and a name
 * without a dot has none. `cut` gives the domain from there on; `cutWithWWW` keeps a www. just before it.
 */
function significant(domain: Fragment, mode: 'name' | 'cut' | 'cutWithWWW'): Fragment {
  const labels = keyword('d.labels');
  const n = keyword('coalesce(array_length(d.labels, 1), 0)');
  const index = sql`(case when ${n} >= 3 and ${labels}[${n} - 1] in ('com', 'net', 'org', 'co') then ${n} - 2 else ${n} - 1 end)`;
  const www = sql`${labels}[${index}] = 'www'`;
  const from = (body: Fragment) => sql`(select (case when ${n} < 2 then '' else ${body} end) from (select string_to_array(${domain}, '.') as labels) as d)`;
  if (mode === 'name') return from(sql`(case when ${www} then '' else ${labels}[${index}] end)`);
  const start =
    mode === 'cutWithWWW'
      ? sql`(case when ${index} > 1 and ${labels}[${index} - 1] = 'www' then ${index} - 1 else ${index} end)`
      : sql`(case when ${www} then ${index} + 1 else ${index} end)`;
  return from(sql`array_to_string(${labels}[${start}:${n}], '.')`);
}

/**
 * URLHierarchy (`withBase`) and URLPathHierarchy: the URL cut after each run of `/`, `?` or `#` in its path and
 * query, and the whole; the path one leaves out the scheme and host and the root `/`.
 */
function hierarchy(name: string, withBase: boolean): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c: Compiler, args: readonly Expr[]): Typed => {
      const url = to(c, arg(args, 0), 'string');
      const base = match(url.sql, `(${PREFIX}{0,1}[^/?#]*)`);
      const rest = sql`substr(${url.sql}, char_length(${base}) + 1)`;
      const separator = (at: Fragment) => sql`(substr(r.rest, ${at}, 1) <> '' and strpos(${pattern('/?#')}, substr(r.rest, ${at}, 1)) > 0)`;
      const cut = sql`(${separator(keyword('i'))} and not ${separator(keyword('i + 1'))}) or (i = char_length(r.rest) and not ${separator(keyword('i'))})`;
      const piece = withBase ? sql`r.base || substr(r.rest, 1, i)` : sql`substr(r.rest, 1, i)`;
      const keep = withBase ? keyword('true') : sql`substr(r.rest, 1, i) <> '/'`;
      const body = sql`(select coalesce(jsonb_agg(${piece} order by i), '[]'::jsonb) from (select ${base} as base, ${rest} as rest) as r, generate_series(1, char_length(r.rest)) as i where (${cut}) and ${keep})`;
      return arrayOf(nullFor(url, body), 'string', url.nullable, url.aggregate);
    },
  };
}

function parameters(name: string, names: boolean): FunctionDef {
  return {
    name,
    minArgs: 1,
    maxArgs: 1,
    compile: (c, args) => {
      const url = to(c, arg(args, 0), 'string');
      const item = names ? keyword("split_part(p.item, '=', 1)") : keyword('p.item');
      const body = sql`(select coalesce(jsonb_agg(${item} order by p.index), '[]'::jsonb) from regexp_split_to_table(${queryString(url.sql)}, '&') with ordinality as p(item, index) where p.item <> '')`;
      return arrayOf(nullFor(url, body), 'string', url.nullable, url.aggregate);
    },
  };
}

/** A parameter name inside a regular expression: every character but letters and digits escaped. */
const quoted = (name: Fragment) => sql`regexp_replace(${name}, ${pattern(ASCII_PUNCTUATION)}, ${pattern('\\\\\\1')}, 'g')`;

const DEFINITIONS: FunctionDef[] = [
  scalar('protocol', ['string'], 'string', ([url]) => match(url, '^([A-Za-z][A-Za-z0-9+.-]*):')),
  scalar('domain', ['string'], 'string', ([url]) => host(url)),
  scalar('domainWithoutWWW', ['string'], 'string', ([url]) => withoutWWW(host(url))),
  scalar('topLevelDomain', ['string'], 'string', ([url]) => match(host(url), '\\.([^.]+)$')),
  scalar('firstSignificantSubdomain', ['string'], 'string', ([url]) => significant(host(url), 'name')),
  scalar('cutToFirstSignificantSubdomain', ['string'], 'string', ([url]) => significant(host(url), 'cut')),
  scalar('cutToFirstSignificantSubdomainWithWWW', ['string'], 'string', ([url]) => significant(host(url), 'cutWithWWW')),
  {
    name: 'port',
    minArgs: 1,
    maxArgs: 2,
    compile: (c, args) => {
      const url = to(c, arg(args, 0), 'string');
      const fallback = args.length > 1 ? to(c, arg(args, 1), 'int') : null;
      const digits = sql`substring(${hostAndPort(url.sql)} from ${pattern(':([0-9]{1,5})$')})`;
      const port = sql`(case when (${digits})::int <= 65535 then (${digits})::bigint end)`;
      return derived(sql`coalesce(${port}, ${fallback ? fallback.sql : keyword('0')})`, 'int', [url, ...(fallback ? [fallback] : [])]);
    },
  },
  scalar('path', ['string'], 'string', ([url]) => path(url)),
  scalar('pathFull', ['string'], 'string', ([url]) => match(url, `${PREFIX}{0,1}[^/?#]*(.*)$`)),
  scalar('queryString', ['string'], 'string', ([url]) => queryString(url)),
  scalar('fragment', ['string'], 'string', ([url]) => fragment(url)),
  scalar('queryStringAndFragment', ['string'], 'string', ([url]) =>
    sql`coalesce(substring(${url} from ${pattern('\\?(.*)$')}), substring(${url} from ${pattern('(#.*)$')}), '')`,
  ),
  scalar('extractURLParameter', ['string', 'string'], 'string', ([url, name]) =>
    sql`coalesce(substring(${url} from (${pattern('[?&#]')} || ${quoted(name)} || ${pattern('=([^&#]*)')})), '')`,
  ),
  parameters('extractURLParameters', false),
  parameters('extractURLParameterNames', true),
  hierarchy('URLHierarchy', true),
  hierarchy('URLPathHierarchy', false),
  scalar('encodeURLComponent', ['string'], 'string', ([text]) => sql`hogql_url_encode(${text}, false)`),
  scalar('decodeURLComponent', ['string'], 'string', ([text]) => sql`hogql_url_decode(${text}, false)`),
  scalar('encodeURLFormComponent', ['string'], 'string', ([text]) => sql`hogql_url_encode(${text}, true)`),
  scalar('decodeURLFormComponent', ['string'], 'string', ([text]) => sql`hogql_url_decode(${text}, true)`),
  scalar('netloc', ['string'], 'string', ([url]) => authority(url)),
  scalar('cutWWW', ['string'], 'string', ([url]) => sql`regexp_replace(${url}, ${pattern(`(${PREFIX}{0,1})www\\.`)}, ${pattern('\\1')})`),
  scalar('cutQueryString', ['string'], 'string', ([url]) => sql`regexp_replace(${url}, ${pattern('\\?[^#]*')}, '')`),
  scalar('cutFragment', ['string'], 'string', ([url]) => sql`regexp_replace(${url}, ${pattern('#.*$')}, '')`),
  scalar('cutQueryStringAndFragment', ['string'], 'string', ([url]) => sql`regexp_replace(${url}, ${pattern('[?#].*$')}, '')`),
  scalar('cutURLParameter', ['string', 'string'], 'string', ([url, name]) => {
    // Each name=value goes with the & after it; a ? or & left before the fragment or the end goes too.
    const removed = sql`regexp_replace(${url}, (${pattern('([?&])')} || ${quoted(name)} || ${pattern('=[^&#]*&{0,1}')}), ${pattern('\\1')}, 'g')`;
    return sql`regexp_replace(${removed}, ${pattern('[?&](#|$)')}, ${pattern('\\1')})`;
  }),
];

export const URLS: Family = {
  title: 'URLs',
  definitions: DEFINITIONS,
  unavailable: {},
};
