import { expect } from 'chai';
import { Compiler } from '../../db/hogql/compiler.js';
import { HogQLError } from '../../db/hogql/errors.js';
import { compileEventsQuery, compilePersonLookup, type EventsQuerySpec } from '../../db/hogql/event-listing.js';
import { parseExpression } from '../../db/hogql/parser.js';
import {
  compilePropertyGroup,
  containmentPrefilter,
  parsePropertyFilters,
  splitPersonFilters,
  type PropertyFilter,
} from '../../db/hogql/property-filters.js';
import { keyword } from '../../db/hogql/sql.js';

function compile(text: string, options: { allowAggregates?: boolean } = {}) {
  const compiler = new Compiler({ timezone: 'Europe/Paris', allowAggregates: options.allowAggregates ?? true, clause: 'select' });
  const value = compiler.compile(parseExpression(text));
  return { sql: value.sql.text, params: value.sql.params, type: value.type, usesPerson: compiler.usesPerson };
}

function where(filters: unknown) {
  const compiler = new Compiler({ timezone: 'UTC', allowAggregates: false, clause: 'where' });
  const fragment = compilePropertyGroup(parsePropertyFilters(filters), compiler);
  return { sql: fragment.text, params: fragment.params, usesPerson: compiler.usesPerson };
}

/** Every placeholder has its parameter and the SQL text holds no literal from the request. */
function expectParameterised(result: { sql: string; params: readonly unknown[] }, secrets: string[]): void {
  expect(result.sql.split('?').length - 1).to.equal(result.params.length);
  for (const secret of secrets) expect(result.sql).to.not.include(secret);
}

describe('unit: HogQL compiler', () => {
  describe('compiles (given → want SQL, parameters, type)', () => {
    const cases: [string, { sql: string; params: unknown[]; type: string }][] = [
      ["event = '$pageview'", { sql: '(e.event = ?::text)', params: ['$pageview'], type: 'boolean' }],
      [
        "properties.$browser = 'Chrome'",
        { sql: 'coalesce((e.properties ->> ?::text) = ?::text, false)', params: ['$browser', 'Chrome'], type: 'boolean' },
      ],
      [
        "properties['key with spaces'] != 'x'",
        { sql: 'coalesce((e.properties ->> ?::text) <> ?::text, true)', params: ['key with spaces', 'x'], type: 'boolean' },
      ],
      [
        'properties.price > 10',
        {
          sql: 'coalesce(hogql_to_number((e.properties -> ?::text)) > (?::bigint)::numeric, false)',
          params: ['price', 10],
          type: 'boolean',
        },
      ],
      [
        'properties.a = properties.b',
        {
          sql: '((e.properties ->> ?::text) is not distinct from (e.properties ->> ?::text))',
          params: ['a', 'b'],
          type: 'boolean',
        },
      ],
      ['properties.a.b[2]', { sql: '(((e.properties -> ?::text) -> ?::text) -> ?::int)', params: ['a', 'b', 1], type: 'json' }],
      ['properties', { sql: 'e.properties', params: [], type: 'json' }],
      ['properties.flag is null', { sql: "(coalesce(jsonb_typeof((e.properties -> ?::text)), 'null') = 'null')", params: ['flag'], type: 'boolean' }],
      ['person_id is not null', { sql: '(coalesce(p.uuid, e.person_id) is not null)', params: [], type: 'boolean' }],
      ['event is null', { sql: 'false', params: [], type: 'boolean' }],
      ['event = null', { sql: 'false', params: [], type: 'boolean' }],
      ["event in ('a', 'b')", { sql: '(e.event in (?::text, ?::text))', params: ['a', 'b'], type: 'boolean' }],
      [
        "event not like '$%'",
        { sql: '(e.event not like ?::text)', params: ['$%'], type: 'boolean' },
      ],
      [
        "uuid = '0190F1C4-AAAA-7BBB-8CCC-DDDDDDDDDDDD'",
        { sql: '(e.uuid = ?::uuid)', params: ['0190f1c4-aaaa-7bbb-8ccc-dddddddddddd'], type: 'boolean' },
      ],
      ["uuid = 'not a uuid'", { sql: '((e.uuid)::text = ?::text)', params: ['not a uuid'], type: 'boolean' }],
      [
        "timestamp >= '2026-01-01'",
        { sql: '(e.timestamp >= (?::timestamp at time zone ?::text))', params: ['2026-01-01', 'Europe/Paris'], type: 'boolean' },
      ],
      ["timestamp < '2026-01-01T10:00:00Z'", { sql: '(e.timestamp < ?::timestamptz)', params: ['2026-01-01T10:00:00Z'], type: 'boolean' }],
      [
        'timestamp > now() - interval 7 day',
        // Days on the project's wall clock (hogql_shift), as ClickHouse moves a datetime by days.
        { sql: "(e.timestamp > hogql_shift(now(), (- ((?::bigint)::float8 * interval '1 day')), ?::text))", params: [7, 'Europe/Paris'], type: 'boolean' },
      ],
      ['1 + 2', { sql: '(?::bigint + ?::bigint)', params: [1, 2], type: 'int' }],
      ['7 / 2', { sql: '((?::bigint)::numeric / nullif((?::bigint)::numeric, 0))', params: [7, 2], type: 'float' }],
      ['1.5 * 2', { sql: '(?::numeric * (?::bigint)::numeric)', params: [1.5, 2], type: 'float' }],
      ['count()', { sql: 'count(*)', params: [], type: 'int' }],
      [
        "countIf(event = 'x')",
        { sql: 'count(*) filter (where (e.event = ?::text))', params: ['x'], type: 'int' },
      ],
      ['uniq(distinct_id)', { sql: 'count(distinct e.distinct_id)', params: [], type: 'int' }],
      [
        'sum(properties.price)',
        { sql: 'coalesce(sum(hogql_to_number((e.properties -> ?::text))), 0)', params: ['price'], type: 'float' },
      ],
      ['max(timestamp)', { sql: 'max(e.timestamp)', params: [], type: 'datetime' }],
      ['toString(timestamp)', { sql: 'hogql_format_datetime(e.timestamp)', params: [], type: 'string' }],
      ['toDate(timestamp)', { sql: '((e.timestamp) at time zone ?::text)::date', params: ['Europe/Paris'], type: 'date' }],
      ['toStartOfHour(timestamp)', { sql: "date_trunc('hour', e.timestamp, ?::text)", params: ['Europe/Paris'], type: 'datetime' }],
      [
        'toInt(properties.n)',
        {
          sql: '(case when (e.properties ->> ?::text) ~ ?::text and char_length((e.properties ->> ?::text)) <= 40 then hogql_trunc_int(((e.properties ->> ?::text))::numeric) end)',
          params: ['n', '^[-+]{0,1}[0-9]+$', 'n', 'n'],
          type: 'int',
        },
      ],
      ["toFloat('1.25')", { sql: '?::numeric', params: ['1.25'], type: 'float' }],
      ['lower(event)', { sql: "translate(e.event, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')", params: [], type: 'string' }],
      ["concat(event, '-', 1)", { sql: 'concat(e.event, ?::text, (?::bigint)::text)', params: ['-', 1], type: 'string' }],
      ['length(event)', { sql: 'octet_length(e.event)::bigint', params: [], type: 'int' }],
      [
        "coalesce(properties.a, 'none')",
        { sql: "coalesce(nullif((e.properties -> ?::text), 'null'::jsonb), to_jsonb(?::text))", params: ['a', 'none'], type: 'json' },
      ],
      [
        'ifNull(properties.price, 0)',
        { sql: "coalesce(nullif((e.properties -> ?::text), 'null'::jsonb), to_jsonb(?::bigint))", params: ['price', 0], type: 'json' },
      ],
      [
        "coalesce(properties.at, toDateTime('2026-01-01T00:00:00Z'))",
        {
          sql: 'coalesce(hogql_to_datetime((e.properties -> ?::text), ?::text), ?::timestamptz)',
          params: ['at', 'Europe/Paris', '2026-01-01T00:00:00Z'],
          type: 'datetime',
        },
      ],
      [
        'min(properties.plan)',
        {
          sql:
            "(case when count(*) filter (where jsonb_typeof((e.properties -> ?::text)) <> 'null' and hogql_to_number((e.properties -> ?::text)) is null) = 0 " +
            "then to_jsonb(min(hogql_to_number((e.properties -> ?::text)))) else to_jsonb(min((e.properties -> ?::text) #>> '{}')) end)",
          params: ['plan', 'plan', 'plan', 'plan'],
          type: 'json',
        },
      ],
      [
        'properties.a < properties.b',
        {
          sql:
            'coalesce((case when hogql_to_number((e.properties -> ?::text)) is not null and hogql_to_number((e.properties -> ?::text)) is not null ' +
            "then hogql_to_number((e.properties -> ?::text)) < hogql_to_number((e.properties -> ?::text)) else (e.properties ->> ?::text) < (e.properties ->> ?::text) end), false)",
          params: ['a', 'b', 'a', 'b', 'a', 'b'],
          type: 'boolean',
        },
      ],
      ['timestamp + 1', { sql: "hogql_shift(e.timestamp, ((?::bigint)::float8 * interval '1 second'), ?::text)", params: [1, 'Europe/Paris'], type: 'datetime' }],
      ['1.5 + timestamp', { sql: "hogql_shift(e.timestamp, ((?::numeric)::float8 * interval '1 second'), ?::text)", params: [1.5, 'Europe/Paris'], type: 'datetime' }],
      ['timestamp - 60', { sql: "hogql_shift(e.timestamp, (- ((?::bigint)::float8 * interval '1 second')), ?::text)", params: [60, 'Europe/Paris'], type: 'datetime' }],
      ['toDateTime(1795255200)', { sql: 'hogql_epoch_to_datetime((?::bigint)::numeric)', params: [1795255200], type: 'datetime' }],
      [
        "if(event = 'a', 1, 2.5)",
        {
          sql: '(case when (e.event = ?::text) then (?::bigint)::numeric else ?::numeric end)',
          params: ['a', 1, 2.5],
          type: 'float',
        },
      ],
      [
        "multiIf(event = 'a', 'A', event = 'b', 'B', 'other')",
        {
          sql: '(case when (e.event = ?::text) then ?::text when (e.event = ?::text) then ?::text else ?::text end)',
          params: ['a', 'A', 'b', 'B', 'other'],
          type: 'string',
        },
      ],
      [
        "dateDiff('day', timestamp, now())",
        {
          sql: '(((now()) at time zone ?::text)::date - ((e.timestamp) at time zone ?::text)::date)::bigint',
          params: ['Europe/Paris', 'Europe/Paris'],
          type: 'int',
        },
      ],
      [
        "JSONExtractString(properties, 'a', 1)",
        { sql: 'hogql_json_string(((e.properties -> ?::text) -> ?::int))', params: ['a', 0], type: 'string' },
      ],
      [
        "match(event, '^\\\\$')",
        { sql: '(e.event ~ ?::text)', params: ['^\\$'], type: 'boolean' },
      ],
      [
        'not (properties.x = 1)',
        {
          sql: '(not coalesce(hogql_to_number((e.properties -> ?::text)) = (?::bigint)::numeric, false))',
          params: ['x', 1],
          type: 'boolean',
        },
      ],
    ];
    for (const [given, want] of cases) {
      it(given, () => {
        const result = compile(given);
        expect({ sql: result.sql, params: result.params, type: result.type }).to.deep.equal(want);
      });
    }
  });

  it('joins the person only when an expression reads it', () => {
    expect(compile('person.properties.email').usesPerson).to.equal(true);
    expect(compile('person_id').usesPerson).to.equal(true);
    expect(compile('person.id').sql).to.equal('coalesce(p.uuid, e.person_id)');
    expect(compile('properties.email').usesPerson).to.equal(false);
  });

  describe('refuses (given → the message)', () => {
    const cases: [string, RegExp][] = [
      ['pg_sleep(10)', /Unknown function "pg_sleep"/],
      ['version()', /Unknown function "version"/],
      ['events', /Unknown field "events"/],
      ['e.team_id', /Unknown field "e.team_id"/],
      ['team_id', /Unknown field "team_id"/],
      ['"team_id" = 1', /Unknown field "team_id"/],
      ['person.name', /Unknown field "person.name"/],
      ['event.length', /The field "event" has no field "length"/],
      // The comment ends with its line: the next line is read.
      ["event = 'x' --comment\nor comment", /Unknown field "comment"/],
      ['count(count())', /cannot be nested/],
      ['sum(1, 2)', /sum\(\) takes 1 argument, got 2/],
      ['now(1, 2)', /now\(\) takes 0 to 1 arguments, got 2/],
      ['now(1)', /The timezone of now\(\) must be a string constant/],
      ["multiIf(event = 'a', 1)", /multiIf\(\) takes at least 3 arguments/],
      ["multiIf(event = 'a', 1, 2, 3)", /pairs of condition and value/],
      ["dateDiff('fortnight', timestamp, now())", /unit must be one of/],
      ['dateDiff(event, timestamp, now())', /must be a string constant/],
      ["timestamp > 'yesterday'", /Cannot convert 'yesterday' to DateTime/],
      // toFloat('abc') is NULL, as PostHog's accurateCastOrNull; arithmetic on such text is still refused.
      ["1 + 'abc'", /Cannot convert 'abc' to Float/],
      ["event > 1 and event", /A String is not a condition/],
      ['timestamp = 1.5', /Cannot compare a DateTime with a Float/],
      ["match(event, '(')", /not a valid regular expression/],
      ["JSONExtractString(properties, event)", /must be string or integer constants/],
    ];
    for (const [given, want] of cases) {
      it(given, () => {
        expect(() => {
          const compiler = new Compiler({ timezone: 'UTC', allowAggregates: true, clause: 'select' });
          compiler.condition(parseExpression(given));
        }).to.throw(HogQLError, want);
      });
    }
    it('an aggregate in where', () => {
      expect(() => new Compiler({ timezone: 'UTC', allowAggregates: false, clause: 'where' }).condition(parseExpression('count() > 1'))).to.throw(
        HogQLError,
        'Aggregate functions such as count() are not allowed in where.',
      );
    });
  });

  describe('injection attempts stay data', () => {
    const cases: [string, string[]][] = [
      ["event = 'x'' or 1=1 --'", ["or 1=1", "x'"]],
      ["event = 'x\\' or true --'", ['or true']],
      ["properties['a'') or true --'] = 1", ['or true', "a'"]],
      ['properties."$browser""; drop table events; --" = 1', ['drop table', '$browser']],
      ["properties.`x` = 'y); delete from events; --'", ['delete from']],
      ["event like '%'' union select * from personal_api_keys --'", ['union', 'personal_api_keys']],
      ["concat(event, ''' || pg_sleep(5) || ''')", ['pg_sleep']],
      ["JSONExtractString(properties, ''')::jsonb; select 1; --')", ['select 1']],
      ["toDate('2026-01-01') = '2026-01-01'", ['2026-01-01']],
      ["match(event, '$(rm -rf /)')", ['rm -rf']],
    ];
    for (const [given, secrets] of cases) {
      it(given, () => expectParameterised(compile(given), secrets));
    }
    it('keeps the project filter out of the caller’s reach', () => {
      const spec: EventsQuerySpec = {
        teamId: 7,
        timezone: 'UTC',
        after: null,
        before: null,
        event: "x' or team_id <> 7 --",
        distinctId: null,
        distinctIds: null,
        properties: parsePropertyFilters([{ key: "a') or (1=1", value: "' or '1'='1" }]),
        where: [parseExpression("1 = 1 or event = 'x'")],
        select: null,
        order: 'desc',
        keyset: null,
        limit: 101,
        offset: 0,
      };
      const query = compileEventsQuery(spec);
      expect(query.text).to.match(/where e\.team_id = \?::int and /);
      expect(query.params[0]).to.equal(7);
      expectParameterised({ sql: query.text, params: query.params }, ['team_id <>', '1=1', "'1'='1"]);
    });
  });

  describe('the listing query', () => {
    const spec = (overrides: Partial<EventsQuerySpec>): EventsQuerySpec => ({
      teamId: 3,
      timezone: 'UTC',
      after: null,
      before: null,
      event: null,
      distinctId: null,
      distinctIds: null,
      properties: null,
      where: [],
      select: null,
      order: 'desc',
      keyset: null,
      limit: 101,
      offset: 0,
      ...overrides,
    });

    it('pages by the keyset (timestamp, uuid) in the order asked', () => {
      const keyset = { timestamp: '2026-01-01T00:00:00.000001Z', uuid: '0190f1c4-0000-7000-8000-000000000001' };
      const desc = compileEventsQuery(spec({ keyset }));
      expect(desc.text).to.include('(e.timestamp, e.uuid) < (?::timestamptz, ?::uuid)');
      expect(desc.text).to.include('order by e.timestamp desc, e.uuid desc');
      expect(desc.params).to.include.members([keyset.timestamp, keyset.uuid]);
      const asc = compileEventsQuery(spec({ keyset, order: 'asc' }));
      expect(asc.text).to.include('(e.timestamp, e.uuid) > (?::timestamptz, ?::uuid)');
      expect(asc.text).to.include('order by e.timestamp asc, e.uuid asc');
    });

    it('reads a person’s distinct ids one by one and merges them, or matches none when there are none', () => {
      const perId = compileEventsQuery(spec({ distinctIds: ['a', 'b'] }));
      expect(perId.text).to.include('from unnest(?::text[]) as ids(distinct_id)');
      expect(perId.text).to.include('e.distinct_id = ids.distinct_id');
      expect(perId.params).to.deep.include(['a', 'b']);
      const grouped = compileEventsQuery(spec({ distinctIds: ['a'], select: [{ name: 'count()', expr: parseExpression('count()') }] }));
      expect(grouped.mode).to.equal('aggregate');
      expect(grouped.text).to.include('e.distinct_id = any(?::text[])');
      expect(compileEventsQuery(spec({ distinctIds: [] })).text).to.match(/where e\.team_id = \?::int and false /);
    });

    it('joins persons only when a filter or an expression reads them', () => {
      expect(compileEventsQuery(spec({})).text).to.not.include('left join persons p on');
      expect(compileEventsQuery(spec({ where: [parseExpression("person.properties.plan = 'pro'")] })).text).to.include('left join persons p on');
    });

    const personFilters = (filters: unknown) => splitPersonFilters(parsePropertyFilters(filters));

    it('probes person filters among the first events that pass the other conditions, and says it read only part', () => {
      const { person, rest } = personFilters([{ key: 'plan', value: 'gold', type: 'person' }, { key: '$browser', value: 'Chrome' }]);
      const query = compileEventsQuery(spec({ properties: rest, personFilters: { strategy: 'probe', filters: person, scan: 400 } }));
      expect(query.partial).to.equal(true);
      expect(query.text).to.include(
        'from (select e.* from events e where e.team_id = ?::int and (coalesce((e.properties ->> ?::text) in (?::text), false)) order by e.timestamp desc, e.uuid desc limit 400) e',
      );
      expect(query.text).to.include(
        'left join person_distinct_ids pdi on pdi.team_id = e.team_id and pdi.team_id = ?::int and pdi.distinct_id = e.distinct_id\n' +
          '  left join persons p on p.team_id = pdi.team_id and p.team_id = ?::int and p.id = pdi.person_id where (coalesce((p.properties ->> ?::text) in (?::text), false)) order by',
      );
      expectParameterised({ sql: query.text, params: query.params }, ['gold', 'Chrome']);
    });

    it('tests filters that read the person after the probe’s bound, not before', () => {
      const { person, rest } = personFilters([{ key: 'plan', value: 'pro', type: 'person' }, { type: 'OR', values: [{ key: 'name', value: 'x', type: 'person' }] }]);
      const query = compileEventsQuery(spec({ properties: rest, personFilters: { strategy: 'probe', filters: person, scan: 400 } }));
      expect(query.text).to.include('from (select e.* from events e where e.team_id = ?::int order by e.timestamp desc, e.uuid desc limit 400) e');
      expect(query.text).to.match(/where \(\(coalesce\(\(p\.properties ->> \?::text\) in \(\?::text\), false\)\)\) and \(coalesce\(\(p\.properties/);
    });

    it('groups by the other expressions when an aggregate is only in the condition of if or multiIf', () => {
      for (const text of ["if(count() > 1, 'many', 'one')", "multiIf(count() > 5, 'A', count() > 1, 'B', 'C')"]) {
        const select = [
          { name: 'event', expr: parseExpression('event') },
          { name: text, expr: parseExpression(text) },
        ];
        const query = compileEventsQuery(spec({ select }));
        expect(query.mode, text).to.equal('aggregate');
        expect(query.text, text).to.include('group by 1 order by 2 desc nulls last, 1');
      }
    });

    it('reads every event for aggregates, whatever the probe', () => {
      const { person } = personFilters([{ key: 'plan', value: 'pro', type: 'person' }]);
      const select = [{ name: 'count()', expr: parseExpression('count()') }];
      const query = compileEventsQuery(spec({ select, personFilters: { strategy: 'probe', filters: person, scan: 400 } }));
      expect(query.mode).to.equal('aggregate');
      expect(query.partial).to.equal(false);
      expect(query.text).to.not.include('select e.*');
      expect(query.text).to.include('from events e left join person_distinct_ids pdi');
    });

    it('matches person filters as a hashed subquery of distinct ids, with the containment prefilter', () => {
      const { person } = personFilters([{ key: 'plan', value: 'pro', type: 'person' }]);
      const query = compileEventsQuery(spec({ personFilters: { strategy: 'subquery', filters: person } }));
      expect(query.partial).to.equal(false);
      expect(query.text).to.not.include('left join persons p on');
      expect(query.text).to.include(
        '(e.distinct_id in (select pdi.distinct_id from person_distinct_ids pdi join persons p on p.team_id = pdi.team_id and p.id = pdi.person_id\n' +
          '      where pdi.team_id = ?::int and p.team_id = ?::int and (p.properties @> ?::jsonb) and (p.properties ->> ?::text) in (?::text)) is true)',
      );
    });
  });

  describe('the person lookup (given → want conditions and parameters after the team)', () => {
    const cases: [unknown, { sql: string; params: unknown[] }][] = [
      [
        [{ key: 'plan', value: 'pro', type: 'person' }],
        {
          sql: '(p.properties @> ?::jsonb) and (coalesce((p.properties ->> ?::text) in (?::text), false))',
          params: ['{"plan":"pro"}', 'plan', 'pro'],
        },
      ],
      [
        [{ key: 'data', value: '{"a": 1}', type: 'person' }],
        { sql: '(p.properties ->> ?::text) in (?::text)', params: ['data', '{"a": 1}'] },
      ],
      [
        [{ key: 'n', value: 1, type: 'person' }],
        { sql: '(coalesce(hogql_to_number((p.properties -> ?::text)) in ((?::bigint)::numeric), false))', params: ['n', 1] },
      ],
    ];
    for (const [given, want] of cases) {
      it(JSON.stringify(given), () => {
        const lookup = compilePersonLookup(3, 'UTC', splitPersonFilters(parsePropertyFilters(given)).person, 10);
        const [, conditions] = /and p\.team_id = \?::int and (.*?)\s+limit 11$/s.exec(lookup.text)!;
        expect({ sql: conditions, params: lookup.params.slice(2) }).to.deep.equal(want);
      });
    }
  });

  describe('the containment prefilter of person filters (given → want SQL and parameters, or none)', () => {
    const contains = (count: number) => `(${Array.from({ length: count }, () => 'p.properties @> ?::jsonb').join(' or ')})`;
    const cases: [unknown, { sql: string; params: unknown[] } | null][] = [
      [{ key: 'plan', value: 'pro' }, { sql: contains(1), params: ['{"plan":"pro"}'] }],
      [{ key: 'plan', value: ['pro', 'free'], operator: 'in' }, { sql: contains(2), params: ['{"plan":"pro"}', '{"plan":"free"}'] }],
      [{ key: 'say "hi"', value: 'a\\b"c' }, { sql: contains(1), params: ['{"say \\"hi\\"":"a\\\\b\\"c"}'] }],
      // What the driver sends for a lone surrogate, which JSON of it would not parse as.
      [{ key: 'k', value: 'x\ud800' }, { sql: contains(1), params: ['{"k":"x\ufffd"}'] }],
      // "1" is also how the number 1 prints; containment of the number holds for 1.0 too, which the exact test drops.
      [{ key: 'n', value: '1' }, { sql: contains(2), params: ['{"n":"1"}', '{"n":1}'] }],
      [{ key: 'n', value: '-2.50' }, { sql: contains(2), params: ['{"n":"-2.50"}', '{"n":-2.50}'] }],
      // No number prints with an exponent, a plus or leading zeros.
      [{ key: 'n', value: '1e2' }, { sql: contains(1), params: ['{"n":"1e2"}'] }],
      [{ key: 'n', value: '007' }, { sql: contains(1), params: ['{"n":"007"}'] }],
      [{ key: 'n', value: '1'.repeat(101) }, null],
      [{ key: 'b', value: 'true' }, { sql: contains(2), params: ['{"b":"true"}', '{"b":true}'] }],
      [{ key: 'b', value: 'false' }, { sql: contains(2), params: ['{"b":"false"}', '{"b":false}'] }],
      // JSON null prints as NULL, which equals no text.
      [{ key: 'x', value: 'null' }, { sql: contains(1), params: ['{"x":"null"}'] }],
      // An object or an array prints as its JSON text.
      [{ key: 'x', value: '{"a": 1}' }, null],
      [{ key: 'x', value: ['a', '[1, 2]'] }, null],
      [{ key: 'x', value: 1 }, null],
      [{ key: 'x', value: true }, null],
      [{ key: 'x', value: 'a', operator: 'icontains' }, null],
      [{ key: 'x', value: 'a', operator: 'is_not' }, null],
      [{ key: 'x', value: Array.from({ length: 21 }, (_, index) => `v${index}`) }, null],
    ];
    for (const [given, want] of cases) {
      it(JSON.stringify(given).slice(0, 80), () => {
        const filter = parsePropertyFilters([{ type: 'person', ...(given as object) }]).values[0] as PropertyFilter;
        const prefilter = containmentPrefilter(filter, keyword('p.properties'));
        expect(prefilter && { sql: prefilter.text, params: prefilter.params }).to.deep.equal(want);
        for (const json of want?.params ?? []) expect(() => JSON.parse(json as string)).to.not.throw();
      });
    }
  });

  describe('property filters (given → want SQL and parameters)', () => {
    const cases: [unknown, { sql: string; params: unknown[] }][] = [
      [[], { sql: 'true', params: [] }],
      [
        [{ key: '$browser', value: 'Chrome' }],
        { sql: '(coalesce((e.properties ->> ?::text) in (?::text), false))', params: ['$browser', 'Chrome'] },
      ],
      [
        [{ key: '$browser', value: ['Chrome', 'Safari'], operator: 'exact', type: 'event' }],
        { sql: '(coalesce((e.properties ->> ?::text) in (?::text, ?::text), false))', params: ['$browser', 'Chrome', 'Safari'] },
      ],
      [
        [{ key: '$browser', value: ['Chrome'], operator: 'is_not' }],
        { sql: '(coalesce((e.properties ->> ?::text) not in (?::text), true))', params: ['$browser', 'Chrome'] },
      ],
      [
        [{ key: 'url', value: '50%_off', operator: 'icontains' }],
        { sql: '((coalesce((e.properties ->> ?::text) ilike ?::text, false)))', params: ['url', '%50\\%\\_off%'] },
      ],
      [
        [{ key: 'n', value: '5', operator: 'gt' }],
        { sql: '((coalesce(hogql_to_number((e.properties -> ?::text)) > (?::bigint)::numeric, false)))', params: ['n', 5] },
      ],
      [
        [{ key: 'n', operator: 'is_set' }],
        { sql: "((coalesce(jsonb_typeof((e.properties -> ?::text)), 'null') <> 'null'))", params: ['n'] },
      ],
      [
        [{ key: 'email', value: 'a@b.c', type: 'person' }],
        { sql: '(coalesce((p.properties ->> ?::text) in (?::text), false))', params: ['email', 'a@b.c'] },
      ],
      [
        [{ key: 'name', value: 'Acme', type: 'group', group_type_index: 2 }],
        {
          sql: "(coalesce(((select g.group_properties -> ?::text from groups g where g.team_id = e.team_id and g.group_type_index = ?::smallint and g.group_key = e.group_2) #>> '{}') in (?::text), false))",
          params: ['name', 2, 'Acme'],
        },
      ],
      [
        [{ key: 'event', value: 'signup', type: 'event_metadata' }],
        { sql: '((e.event in (?::text)))', params: ['signup'] },
      ],
      [
        [{ key: "event = 'a'", type: 'hogql' }],
        { sql: '((e.event = ?::text))', params: ['a'] },
      ],
      [
        { type: 'OR', values: [{ key: 'a', value: 1 }, { type: 'AND', values: [{ key: 'b', value: true }] }] },
        {
          sql: '(coalesce(hogql_to_number((e.properties -> ?::text)) in ((?::bigint)::numeric), false) or (coalesce(hogql_to_bool((e.properties -> ?::text)) in (?::boolean), false)))',
          params: ['a', 1, 'b', true],
        },
      ],
      [
        [{ key: 'tag_name', value: 'button', type: 'element' }],
        {
          sql: "((exists (select 1 from regexp_matches(e.elements_chain, ?::text, 'g') as m(v) where m.v[1] in (?::text))))",
          params: ['(?:^|;)([^.:;"]+)', 'button'],
        },
      ],
    ];
    for (const [given, want] of cases) {
      it(JSON.stringify(given), () => {
        const result = where(given);
        expect({ sql: result.sql, params: result.params }).to.deep.equal(want);
      });
    }
  });

  it('reads PostHog’s old style, an object of <key>[__<operator>] to values, as the filters it stands for', () => {
    expect(where({ $browser__icontains: 'chr', plan: 'pro', price__gt: 5 })).to.deep.equal(
      where([
        { key: '$browser', value: 'chr', operator: 'icontains' },
        { key: 'plan', value: 'pro' },
        { key: 'price', value: 5, operator: 'gt' },
      ]),
    );
    expect(where({})).to.deep.equal(where([]));
    expect(() => where({ plan__similar: 'x' })).to.throw(HogQLError, /"similar" is not a valid operator/);
  });

  describe('property filters refused', () => {
    const cases: [unknown, RegExp][] = [
      ['x', /must be an object/],
      [[{ key: 'a', value: 1, operator: 'similar' }], /"similar" is not a valid operator/],
      [[{ key: 'a', value: 1, type: 'cohort' }], /type "cohort" are not supported/],
      [[{ key: 'a', value: 1, type: 'nonsense' }], /Invalid property type: nonsense/],
      [[{ key: 'a', value: 1, type: 'group' }], /group_type_index/],
      [[{ key: 'a', value: 1, type: 'group', group_type_index: 5 }], /group_type_index/],
      [[{ key: 'a' }], /needs a "value"/],
      [[{ key: 'a', value: { x: 1 } }], /needs a "value"/],
      [[{ key: 'a', value: 'abc', operator: 'gt' }], /needs a number/],
      [[{ key: 'a', value: '(', operator: 'regex' }], /The filter on "a": "\(" is not a valid regular expression/],
      [[{ key: 'a', value: 'soon', operator: 'is_date_before' }], /needs a date/],
      [[{ key: 'z', value: 'x', type: 'element' }], /Element filters read/],
      [[{ key: 'text', value: 1, operator: 'gt', type: 'element' }], /do not take the operator "gt"/],
      [[{ key: 'properties', value: 1, type: 'event_metadata' }], /not an event field/],
      [[{ key: 'pg_sleep(1)', type: 'hogql' }], /Unknown function "pg_sleep"/],
      [{ type: 'XOR', values: [] }, /A property group is/],
      [JSON.parse(`${'{"type":"AND","values":['.repeat(102)}${']}'.repeat(102)}`), /nested at most 100 deep/],
    ];
    for (const [given, want] of cases) {
      it(JSON.stringify(given).slice(0, 80), () => expect(() => where(given)).to.throw(HogQLError, want));
    }
  });
});
