/**
 * PostHog's aggregates and its own functions, compiled: every request value a bound parameter (levels, windows,
 * separators, the language table), counts written only as checked integers, the aggregate rules (no nesting, none
 * in WHERE), and the refusals with their messages. Results on data are in
 * test/integration/query-hogql-aggregates.test.ts.
 */
import { expect } from 'chai';
import { HogQLError } from '../../db/hogql/errors.js';
import { compileSelect, functionCatalogue, parseSelect, type CompiledSelect } from '../../db/hogql/select/index.js';
import { FAMILIES } from '../../db/hogql/library/index.js';

const OPTIONS = { teamId: 4242, timezone: 'UTC', defaultLimit: 100, maxLimit: 50_000 };

function compile(query: string, values: Record<string, string | number | boolean | null> = {}): CompiledSelect {
  return compileSelect(parseSelect(query, values), OPTIONS);
}

const HOSTILE = "x'); drop table events; --";

describe('unit: HogQL aggregates and PostHog functions', () => {
  describe('request values stay parameters (given → want the value among the parameters, not in the text)', () => {
    const cases: [string, Record<string, string>, unknown][] = [
      ['select string_agg(event, {s}) from events', { s: HOSTILE }, HOSTILE],
      ['select countIf(properties.v, event = {s}) from events', { s: HOSTILE }, HOSTILE],
      ['select sumArrayOrNullIf(properties.tags, event = {s}) from events', { s: HOSTILE }, HOSTILE],
      ['select windowFunnel(3600)(timestamp, event = {s}, event = {s}) from events', { s: HOSTILE }, HOSTILE],
      ['select languageCodeToName({s}) from events', { s: HOSTILE }, HOSTILE],
      ['select sortableSemVer({s}) from events', { s: HOSTILE }, HOSTILE],
      ['select topK(2)(properties[{s}]) from events', { s: HOSTILE }, HOSTILE],
      ['select quantiles(0.125, 0.875)(properties.v) from events', {}, 0.875],
      ['select windowFunnel(86400)(timestamp, event = \'a\') from events', {}, 86400],
    ];
    for (const [query, values, secret] of cases) {
      it(query, () => {
        const compiled = compile(query, values);
        expect(compiled.params).to.include(secret);
        expect(compiled.text).to.not.include('drop table');
        expect(compiled.text).to.not.include(String(secret));
        expect(compiled.text).to.match(/e\.team_id = \$\d+::int/);
      });
    }
  });

  it('writes topK’s count as a checked integer and binds the language table as one jsonb parameter', () => {
    expect(compile('select topK(7)(event) from events').text).to.include('limit 7)');
    const compiled = compile("select languageCodeToName('en') from events");
    const table = compiled.params.find((value) => typeof value === 'string' && value.startsWith('{'));
    expect(JSON.parse(table as string)).to.include({ en: 'English', nb: 'Norwegian Bokmål', zu: 'Zulu' });
  });

  describe('answers the types ClickHouse gives (given → want column type)', () => {
    const cases: [string, string][] = [
      ['varPop(properties.v)', 'Nullable(Float64)'],
      ['topK(3)(event)', 'Array(String)'],
      ['quantiles(0.5, 0.9)(properties.v)', 'Array(Float64)'],
      ['countIf(properties.v, event = \'a\')', 'Int64'],
      ['uniq(event, distinct_id)', 'Int64'],
      ['windowFunnel(60)(timestamp, event = \'a\', event = \'b\')', 'Int64'],
      ['sortableSemVer(event)', 'Array(Int64)'],
      ['languageCodeToName(event)', 'String'],
      ['every(event = \'a\')', 'Bool'],
    ];
    for (const [expression, type] of cases) {
      it(expression, () => {
        expect(compile(`select ${expression} from events`).columns[0]!.clickhouseType).to.equal(type);
      });
    }
  });

  describe('refuses (given → want message)', () => {
    const cases: [string, string][] = [
      ['select sumIf(varPop(properties.v), event = \'a\') from events', 'Aggregate functions cannot be nested: varPop() inside another.'],
      ['select countDistinctIf(uniq(event), event = \'a\') from events', 'Aggregate functions cannot be nested: uniq() inside another.'],
      ['select event from events where topK(1)(event) = topK(1)(event)', 'Aggregate functions such as topK() are not allowed in WHERE.'],
      ['select event from events group by windowFunnel(1)(timestamp, event = \'a\')', 'Aggregate functions such as windowFunnel() are not allowed in GROUP BY.'],
      ['select topK(0)(event) from events', 'The number of values of topK() must be an integer constant from 1 to 10000.'],
      ['select topK(1.5)(event) from events', 'The number of values of topK() must be an integer constant from 1 to 10000.'],
      ['select quantiles()(properties.v) from events', 'quantiles() takes 1 to 100 parameters, got 0.'],
      ['select quantileExact(0.5, 0.6)(properties.v) from events', 'quantileExact() takes 1 to 1 parameters, got 2.'],
      ['select sumArray(properties.a, properties.b) from events', 'sumArray() takes 1 argument, got 2.'],
      ['select countOrNullIf() from events', 'countOrNullIf() takes 1 to 2 arguments, got 0.'],
      ['select covarPopIf(properties.a, properties.b) from events', 'covarPopIf() takes 3 arguments, got 2.'],
      [
        `select windowFunnel(1)(timestamp, ${Array.from({ length: 33 }, () => "event = 'a'").join(', ')}) from events`,
        'windowFunnel() takes 2 to 33 arguments, got 34.',
      ],
      ['select medianArgMax(properties.a, timestamp) from events', 'The function medianArgMax() is not available: the -ArgMax combinator is not implemented here; use argMax() on a grouped subquery.'],
      ['select percentile_cont(0.5)(properties.a) from events', 'The function percentile_cont() is not available: it needs WITHIN GROUP (ORDER BY …), which HogQL here does not read; use quantile(p)(x).'],
      ['select aggregate_funnel(1, 2, 3, 4, 5, 6, 7) from events', 'The function aggregate_funnel() is not available: it is one of PostHog’s user-defined funnel programs that run inside its ClickHouse, which Hedgerow does not run.'],
      ['select __preview_isBot(properties.$raw_user_agent) from events', 'The function __preview_isBot() is not available: PostHog’s table of bot and crawler user agents is not shipped with Hedgerow, so traffic types cannot be told here.'],
    ];
    for (const [query, message] of cases) {
      it(query.length > 120 ? `${query.slice(0, 117)}…` : query, () => {
        expect(() => compile(query)).to.throw(HogQLError).with.property('message', message);
      });
    }
  });

  it('runs each combination of If, OrNull, OrDefault, Array and ForEach that PostHog generates from its bases, and refuses the others', () => {
    const catalogue = new Map(functionCatalogue().map((entry) => [entry.name.toLowerCase(), entry]));
    for (const base of ['sum', 'avg', 'min', 'max', 'count', 'countDistinct', 'median']) {
      for (const chain of ['If', 'ForEach', 'ForEachOrNullIf', 'ForEachOrDefault', 'Array', 'ArrayIf', 'ArrayOrNull', 'ArrayOrNullIf', 'ArrayOrDefault', 'ArrayOrDefaultIf', 'OrNull', 'OrNullIf', 'OrDefault', 'OrDefaultIf']) {
        expect(catalogue.get(`${base}${chain}`.toLowerCase())?.available, `${base}${chain}`).to.equal(true);
      }
      for (const chain of ['State', 'MergeIf', 'MapOrNull', 'StateOrDefaultIf', 'ArgMin', 'ArgMaxIf']) {
        expect(catalogue.get(`${base}${chain}`.toLowerCase())?.available, `${base}${chain}`).to.equal(false);
      }
    }
    const aggregates = FAMILIES.find((family) => family.title === 'Aggregates')!;
    expect(aggregates.definitions.every((definition) => definition.aggregate)).to.equal(true);
  });
});
