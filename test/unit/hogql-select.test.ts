import { expect } from 'chai';
import { HogQLError } from '../../db/hogql/errors.js';
import { compileSelect, parseSelect, type CompiledSelect } from '../../db/hogql/select/index.js';

const TEAM = 4242;
const OPTIONS = { teamId: TEAM, timezone: 'Europe/Paris', defaultLimit: 100, maxLimit: 50_000 };

function compile(query: string, values: Record<string, string | number | boolean | null> = {}): CompiledSelect {
  return compileSelect(parseSelect(query, values), OPTIONS);
}

/** The inner statement (the one that filters, groups and limits), without the outer formatting. */
function inner(compiled: CompiledSelect): string {
  return compiled.text.slice(compiled.text.indexOf('from (') + 'from ('.length, -') q'.length);
}

/** The number of the parameter holding `value`. */
function numberOf(compiled: CompiledSelect, value: unknown): number {
  const index = compiled.params.indexOf(value);
  expect(index, `no parameter ${String(value)}`).to.be.at.least(0);
  return index + 1;
}

describe('unit: HogQL SELECT compiler', () => {
  describe('compiles (given → want SQL shape)', () => {
    const cases: [string, string][] = [
      ['select event from events', 'select e.event as c0 from events e where e.team_id = $1::int limit 101 offset 0'],
      [
        'select distinct event from events as ev where ev.distinct_id = {id} order by event desc limit 5 offset 2',
        'select distinct e.event as c0 from events e where e.team_id = $1::int and (e.distinct_id = $2::text) order by c0 desc limit 5 offset 2',
      ],
      // Nulls last, as in ClickHouse: asked for only where a descending value may be null (ascending puts them
      // last already), so that the events index on timestamp reads in order.
      [
        'select event from events order by timestamp desc, properties.x desc, properties.y, uuid limit 3',
        'select e.event as c0 from events e where e.team_id = $1::int order by e.timestamp desc, (e.properties -> $2::text) desc nulls last, (e.properties -> $3::text) asc, e.uuid asc limit 3 offset 0',
      ],
      [
        'select properties.$browser as b, count() from events group by b having count() > 1',
        'select (e.properties ->> $1::text) as c0, count(*) as c1 from events e where e.team_id = $2::int group by (e.properties ->> $1::text) having (count(*) > $3::bigint) limit 101 offset 0',
      ],
      [
        'select properties.email from persons',
        'select (p.properties -> $1::text) as c0 from persons p where p.team_id = $2::int limit 101 offset 0',
      ],
      ['select count() from events limit 70000', 'select count(*) as c0 from events e where e.team_id = $1::int limit 50000 offset 0'],
    ];
    for (const [query, want] of cases) {
      it(query, () => {
        expect(inner(compile(query, { id: 'u1' }))).to.equal(want);
      });
    }
  });

  it('the implicit person join filters the distinct ids and the persons by the environment too', () => {
    const compiled = compile('select person.properties.email, person_id from events');
    const team = numberOf(compiled, TEAM);
    expect(compiled.params.filter((value) => value === TEAM)).to.have.length(1);
    expect(inner(compiled)).to.include(
      `from events e left join person_distinct_ids pdi on pdi.team_id = e.team_id and pdi.team_id = $${team}::int and pdi.distinct_id = e.distinct_id` +
        `\n            left join persons p on p.team_id = pdi.team_id and p.team_id = $${team}::int and p.id = pdi.person_id where e.team_id = $${team}::int`,
    );
  });

  describe('injection attempts stay values', () => {
    const attempts: [string, Record<string, string>, string][] = [
      ['select event from events where event = {v}', { v: "x' or 1=1; drop table events; --" }, "x' or 1=1; drop table events; --"],
      ["select event from events where event = 'a''; drop table events; --'", {}, "a'; drop table events; --"],
      ['select properties[\'); drop table events; --\'] from events', {}, '); drop table events; --'],
      ['select `event; drop` from events', {}, ''],
    ];
    for (const [query, values, secret] of attempts) {
      it(query, () => {
        let compiled: CompiledSelect;
        try {
          compiled = compile(query, values);
        } catch (error) {
          // An identifier that is not a field is refused, never written out.
          expect(error).to.be.instanceOf(HogQLError);
          expect((error as Error).message).to.equal('Unknown field "event; drop".');
          return;
        }
        expect(compiled.params).to.include(secret);
        expect(compiled.text).to.not.include('drop table');
        expect(compiled.text).to.not.include('?');
      });
    }
  });

  describe('refuses (given → want message)', () => {
    const cases: [string, string][] = [
      ['select relname from pg_catalog.pg_class', 'Unknown table "pg_catalog.pg_class". Tables: events, persons, person_distinct_ids, sessions, groups.'],
      ['select * from pg_class', 'Unknown table "pg_class". Tables: events, persons, person_distinct_ids, sessions, groups.'],
      ['select * from information_schema.tables', 'Unknown table "information_schema.tables". Tables: events, persons, person_distinct_ids, sessions, groups.'],
      ['select 1 from events where event = {missing}', 'Placeholder {missing} is not given in values.'],
      ['select current_setting(\'x\') from events', 'Unknown function "current_setting".'],
      ['select team_id from events', 'Unknown field "team_id".'],
      ['select uuid from persons', 'Unknown field "uuid" of the table persons.'],
      ['select 1 from events e join events e on 1 = 1', 'Two joined tables are named "e"; give one an alias.'],
      ['select 1 from events e join pg_catalog.pg_class c on 1 = 1', 'Unknown table "pg_catalog.pg_class". Tables: events, persons, person_distinct_ids, sessions, groups.'],
      ['with x as (select 1 from x) select 1 from x', 'The WITH query "x" refers to itself.'],
      ['select 1 from events union select 1 from events', 'Write UNION ALL or UNION DISTINCT: UNION alone is ambiguous, as ClickHouse answers.'],
      ['select 1 from events where event in (select relname from pg_catalog.pg_class)', 'Unknown table "pg_catalog.pg_class". Tables: events, persons, person_distinct_ids, sessions, groups.'],
      ['select event, count() from events', '"event" must be in GROUP BY or inside an aggregate function.'],
      ['select count() from events order by event', '"event" in ORDER BY must be in GROUP BY or inside an aggregate function.'],
      ['select quantile(2)(properties.x) from events', 'The level of quantile() must be a number constant from 0 to 1.'],
      ['select quantile(properties.x) from events', 'quantile() needs its parameters: quantile(p)(x).'],
      ["select dateTrunc('fortnight', timestamp) from events", 'dateTrunc() unit must be one of second, minute, hour, day, week, month, quarter, year.'],
      ['select 1 from events limit -1', 'LIMIT must be a non-negative integer.'],
      ['delete from events', 'Expected SELECT but found "delete" at position 1.'],
      // Names every plain object has (Object.prototype's) are no field, function, table or unit.
      ['select constructor from events', 'Unknown field "constructor".'],
      ['select __proto__ from events', 'Unknown field "__proto__".'],
      ['select toString from events', 'Unknown field "toString".'],
      ['select hasOwnProperty from persons', 'Unknown field "hasOwnProperty" of the table persons.'],
      ['select session.constructor from events', 'Unknown field "session.constructor": sessions have session_id, id, distinct_id, $start_timestamp, $end_timestamp, max_inserted_at, $session_duration, duration, $urls, $num_uniq_urls, $entry_current_url, $entry_pathname, $entry_hostname, $end_current_url, $end_pathname, $end_hostname, $exit_current_url, $exit_pathname, $last_external_click_url, $entry_referring_domain, $entry_referrer, $entry_utm_source, $entry_utm_campaign, $entry_utm_medium, $entry_utm_term, $entry_utm_content, $entry_gclid, $entry_gad_source, $entry_gclsrc, $entry_dclid, $entry_gbraid, $entry_wbraid, $entry_fbclid, $entry_msclkid, $entry_twclid, $entry_li_fat_id, $entry_mc_cid, $entry_igshid, $entry_ttclid, $entry__kx, $entry_irclid, $pageview_count, $autocapture_count, $screen_count, $page_screen_autocapture_count_up_to, $is_bounce, $vitals_lcp.'],
      ['select constructor() from events', 'Unknown function "constructor".'],
      ['select __proto__() from events', 'Unknown function "__proto__".'],
      ['select valueOf(event) from events', 'Unknown function "valueOf".'],
      ['select 1 from constructor', 'Unknown table "constructor". Tables: events, persons, person_distinct_ids, sessions, groups.'],
      ['select timestamp - interval 1 constructor from events', 'Expected an interval unit (second, minute, hour, day, week, month, quarter, year) but found "constructor" at position 31.'],
      ['', 'The query is empty.'],
    ];
    for (const [query, message] of cases) {
      it(query || '(empty)', () => {
        expect(() => compile(query)).to.throw(HogQLError, message);
      });
    }
  });

  describe('refuses queries that are small as text but huge written out (given → want message)', () => {
    const doubling = (levels: number, make: (inner: string) => string, start: string) => {
      let text = start;
      for (let i = 0; i < levels; i += 1) text = make(text);
      return text;
    };
    const withChain = (levels: number) => {
      const ctes = ['a0 as (select event from events)'];
      for (let i = 1; i <= levels; i += 1) ctes.push(`a${i} as (select event from a${i - 1} union all select event from a${i - 1})`);
      return `with ${ctes.join(', ')} select count() from a${levels}`;
    };
    const whole =
      'The query is too complex: written out in full, with each WITH query at each of its uses and the columns of nested queries as their expressions, its statements come to more than 400000 parts.';
    const expression = (clause: string) =>
      `The query is too complex: an expression in ${clause} would have more than 200000 parts once the columns of nested queries it reads are written out as their expressions.`;
    const cases: [string, string, string][] = [
      // PostgreSQL pulls the subqueries up and writes x's expression into each use: 2^30 nodes while planning.
      ['nested subqueries whose column doubles at each level', doubling(30, (inner) => `select x + x as x from (${inner})`, 'select length(event) as x from events'), whole],
      ['the same, read in WHERE', `select 1 from (${doubling(30, (inner) => `select x + x as x from (${inner})`, 'select length(event) as x from events')}) where x > 1`, whole],
      // Each WITH query is compiled again at each use: 2^16 copies of the first.
      ['a chain of WITH queries each reading the previous twice', withChain(16), whole],
      [
        'a WITH query read many times over',
        `${withChain(8).replace(/ select count\(\) from a8$/, '')} select count() from events where ${Array(40).fill('event in (select event from a8)').join(' or ')}`,
        whole,
      ],
      // A JSON comparison reads each side as a number and as text: an if() of one, nested, doubles per level.
      ['JSON comparisons nested in if()', `select ${doubling(12, (inner) => `if(${inner} > properties.c, properties.a, properties.b)`, 'properties.x')} from events`, expression('SELECT')],
    ];
    for (const [name, query, message] of cases) {
      it(name, () => {
        expect(() => compile(query)).to.throw(HogQLError, message);
      });
    }

    it('compiles deep but linear nesting and a two-step funnel, far from the bound', () => {
      compile(doubling(30, (inner) => `select x + 1 as x, event from (${inner}) where event != 'a'`, 'select length(event) as x, event from events'));
      compile(withChain(6));
      compile(`select toStartOfDay(viewed.first_view) as day, count() as viewers, countIf(bought.last_purchase > viewed.first_view) as buyers
        from (select distinct_id, min(timestamp) as first_view from events where event = '$pageview' group by distinct_id) viewed
        left join (select distinct_id, max(timestamp) as last_purchase from events where event = 'purchase' group by distinct_id) bought
          on viewed.distinct_id = bought.distinct_id
        group by day order by day`);
    });
  });

  it('the environment filter is on every table a statement reads: subqueries, IN, WITH and UNION ALL', () => {
    const compiled = compile(
      "with w as (select distinct_id from events) select count() from (select distinct_id from w union all select properties.email from persons) where distinct_id in (select distinct_id from events where person.properties.x = 1)",
    );
    const team = numberOf(compiled, TEAM);
    const reads = compiled.text.match(/from (events e|persons p)/g) ?? [];
    expect(reads).to.deep.equal(['from events e', 'from persons p', 'from events e']);
    const filters = compiled.text.match(new RegExp(`(e|p|pdi)\\.team_id = \\$${team}::int`, 'g')) ?? [];
    // Each of the three reads, and the distinct ids and persons joined to the last.
    expect(filters).to.deep.equal(['e.team_id = $1::int', 'p.team_id = $1::int', 'pdi.team_id = $1::int', 'p.team_id = $1::int', 'e.team_id = $1::int'].map((f) => f.replace('$1', `$${team}`)));
  });

  it('each joined table is read with its own environment filter', () => {
    const compiled = compile('select e.event, p.id from events e left join persons p on e.person_id = p.id');
    const team = numberOf(compiled, TEAM);
    expect(compiled.text.match(/from (events e|persons p)/g)).to.deep.equal(['from events e', 'from persons p']);
    const filters = compiled.text.match(new RegExp(`(e|p|pdi)\\.team_id = \\$${team}::int`, 'g'));
    expect(filters).to.deep.equal(['pdi', 'p', 'e', 'p'].map((alias) => `${alias}.team_id = $${team}::int`));
    expect(compiled.hogql).to.equal('SELECT e.event, p.id FROM events AS e LEFT JOIN persons AS p ON e.person_id = p.id LIMIT 100');
    // A plain equality (the eighth field of events' is person_id, the first of persons' id), which PostgreSQL can hash.
    expect(compiled.text).to.include(') s2 on (s1.c7 = s2.c0)');
  });

  it('every statement filters its table by the caller’s environment, and only that one', () => {
    const queries = [
      'select event from events',
      'select * from persons',
      'select * from sessions',
      'select count() from events e where e.person.properties.x = 1 group by e.event',
      'select * from groups',
      'select row_number() over (partition by distinct_id) from events',
      'select event from events order by timestamp limit 1 by distinct_id',
    ];
    for (const query of queries) {
      const compiled = compile(query);
      const team = numberOf(compiled, TEAM);
      expect(compiled.text).to.match(new RegExp(`where (e|p|g)\\.team_id = \\$${team}::int`));
      expect(compiled.params.filter((value) => value === TEAM)).to.have.length(1);
    }
  });

  it('prints the query back as HogQL, with placeholders as values and the row limit', () => {
    const compiled = compile("select  event AS name , count( )  from events where properties.$browser = {b} group by name order by count() desc", { b: "O'Neil" });
    expect(compiled.hogql).to.equal(
      "SELECT event AS name, count() FROM events WHERE properties.$browser = 'O\\'Neil' GROUP BY name ORDER BY count() DESC LIMIT 100",
    );
    expect(compiled.columns.map((column) => [column.name, column.clickhouseType])).to.deep.equal([
      ['name', 'String'],
      ['count()', 'Int64'],
    ]);
    expect(compiled.paginated).to.equal(true);
  });

  describe('parses and prints back the newer syntax (given → want hogql)', () => {
    const cases: [string, string][] = [
      [
        'select row_number() over (partition by distinct_id, event order by timestamp desc rows between 2 preceding and 1 following) as n from events',
        'SELECT row_number() OVER (PARTITION BY distinct_id, event ORDER BY timestamp DESC ROWS BETWEEN 2 PRECEDING AND 1 FOLLOWING) AS n FROM events LIMIT 100',
      ],
      ['select sum(properties.price) over (order by timestamp rows unbounded preceding) from events', 'SELECT sum(properties.price) OVER (ORDER BY timestamp ASC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM events LIMIT 100'],
      ['select count() over () from events', 'SELECT count() OVER () FROM events LIMIT 100'],
      [
        'select first_value(event) over (partition by distinct_id range between unbounded preceding and unbounded following) from events',
        'SELECT first_value(event) OVER (PARTITION BY distinct_id RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM events LIMIT 100',
      ],
      ['select event from events order by timestamp limit 1, 2 by distinct_id', 'SELECT event FROM events ORDER BY timestamp ASC LIMIT 2 OFFSET 1 BY distinct_id LIMIT 100'],
      ['select event from events limit 3 by distinct_id, event limit 10 offset 5', 'SELECT event FROM events LIMIT 3 BY distinct_id, event LIMIT 10 OFFSET 5'],
      ["select formatDateTime(toTimeZone(timestamp, 'Asia/Tokyo'), '%F') from events", "SELECT formatDateTime(toTimeZone(timestamp, 'Asia/Tokyo'), '%F') FROM events LIMIT 100"],
      ['select group_0.properties.name, session.$session_duration, pdi.person_id from events', 'SELECT group_0.properties.name, session.$session_duration, pdi.person_id FROM events LIMIT 100'],
      ["select arrayJoin(splitByChar(',', properties.tags)) as tag from events", "SELECT arrayJoin(splitByChar(',', properties.tags)) AS tag FROM events LIMIT 100"],
    ];
    for (const [query, want] of cases) {
      it(query, () => {
        const compiled = compile(query);
        expect(compiled.hogql).to.equal(want);
        // The printed text parses back to the same tree.
        expect(parseSelect(want)).to.deep.equal(parseSelect(query.includes(' limit ') ? want : `${query} limit 100`));
      });
    }
  });

  it('compiles LIMIT BY to a numbering of the rows and a wrapping statement that keeps those in range', () => {
    const compiled = compile('select event from events order by timestamp desc limit 2 offset 1 by distinct_id limit 5');
    expect(inner(compiled)).to.equal(
      'select lb.c0 as c0 from (select e.event as c0, e.timestamp as o0, row_number() over (partition by e.distinct_id order by e.timestamp desc) as lb_n' +
        ' from events e where e.team_id = $1::int) lb where lb.lb_n > 1 and lb.lb_n <= 3 order by lb.o0 desc limit 5 offset 0',
    );
  });

  it('compiles a window with its frame, offsets written as checked integers', () => {
    const compiled = compile('select lag(event, 2) over (partition by distinct_id order by timestamp rows between 3 preceding and current row) from events');
    expect(inner(compiled)).to.equal(
      'select lag(e.event, 2) over (partition by e.distinct_id order by e.timestamp asc nulls last rows between 3 preceding and current row) as c0 from events e where e.team_id = $1::int limit 101 offset 0',
    );
  });

  describe("ClickHouse's frame-bound window functions (query → SQL of the column)", () => {
    const cases: [string, string][] = [
      [
        'lagInFrame(event) over (partition by distinct_id order by timestamp rows between unbounded preceding and unbounded following)',
        "lag(e.event, 1, ''::text) over (partition by e.distinct_id order by e.timestamp asc nulls last rows between unbounded preceding and unbounded following)",
      ],
      // Further back than the frame reaches: always the default.
      ['lagInFrame(event, 3) over (order by timestamp rows between 2 preceding and current row)', "lag(''::text, 0, ''::text) over (order by e.timestamp asc nulls last rows between 2 preceding and current row)"],
      ['leadInFrame(event, 1) over (rows between current row and 1 following)', "lead(e.event, 1, ''::text) over (rows between current row and 1 following)"],
      ['first_value(event) over (order by timestamp rows between 2 preceding and 1 preceding)', "coalesce(first_value(e.event) over (order by e.timestamp asc nulls last rows between 2 preceding and 1 preceding), ''::text)"],
      ['nth_value(event, 2) over ()', "coalesce(nth_value(e.event, 2) over (), ''::text)"],
    ];
    for (const [call, want] of cases) {
      it(call, () => {
        expect(inner(compile(`select ${call} from events`))).to.equal(`select ${want} as c0 from events e where e.team_id = $1::int limit 101 offset 0`);
      });
    }
    it('a default given to lagInFrame() is a bound parameter', () => {
      const compiled = compile("select lagInFrame(event, 1, 'none; drop table events') over () from events");
      expect(compiled.params).to.include('none; drop table events');
      expect(inner(compiled)).to.not.include('drop table');
    });
  });

  it('the groups and session joins of events are filtered by the environment, as the groups table is', () => {
    const compiled = compile('select group_0.key, group_4.properties.x, session.$session_duration from events');
    const team = numberOf(compiled, TEAM);
    expect(compiled.params.filter((value) => value === TEAM)).to.have.length(1);
    const text = inner(compiled);
    expect(text).to.include(
      `left join groups g0 on g0.team_id = e.team_id and g0.team_id = $${team}::int and g0.group_type_index = 0 and g0.group_key = e.group_0`,
    );
    expect(text).to.include(
      `left join groups g4 on g4.team_id = e.team_id and g4.team_id = $${team}::int and g4.group_type_index = 4 and g4.group_key = e.group_4`,
    );
    expect(text).to.include(`left join (select e.team_id, e.properties ->> '$session_id' as session_id,`);
    expect(text).to.include(`from events e where e.team_id = $${team}::int and coalesce(e.properties ->> '$session_id', '') <> ''`);
    expect(text).to.include(`es on es.team_id = e.team_id and es.session_id = e.properties ->> '$session_id' where e.team_id = $${team}::int`);
    expect(inner(compile('select key from groups'))).to.equal('select g.group_key as c0 from groups g where g.team_id = $1::int limit 101 offset 0');
  });

  it('person_distinct_ids filters its distinct ids and their persons by the environment', () => {
    const compiled = compile('select distinct_id, person_id, person.properties.email from person_distinct_ids');
    const team = numberOf(compiled, TEAM);
    expect(compiled.params.filter((value) => value === TEAM)).to.have.length(1);
    expect(inner(compiled)).to.equal(
      `select pdi.distinct_id as c0, p.uuid as c1, (p.properties -> $1::text) as c2 from person_distinct_ids pdi join persons p on p.team_id = pdi.team_id and p.team_id = $${team}::int and p.id = pdi.person_id where pdi.team_id = $${team}::int limit 101 offset 0`,
    );
  });

  it("poe reads the person's properties stored on the event; pdi.person the environment's person", () => {
    expect(inner(compile('select poe.properties.email, poe.id from events'))).to.equal(
      'select (e.person_properties -> $1::text) as c0, e.person_id as c1 from events e where e.team_id = $2::int limit 101 offset 0',
    );
    const compiled = compile('select pdi.person.properties.email from events');
    const team = numberOf(compiled, TEAM);
    expect(inner(compiled)).to.include(
      `left join persons p on p.team_id = pdi.team_id and p.team_id = $${team}::int and p.id = pdi.person_id where e.team_id = $${team}::int`,
    );
  });

  describe('names whose head is an alias', () => {
    it('reads inside the named value: pair.1, list[2]', () => {
      const compiled = compile("select (1, 'a') as pair, pair.2 as letter, [7, 8] as list, list[2] as second from events");
      expect(compiled.columns.map((column) => column.type)).to.deep.equal(['array', 'string', 'array', 'int']);
    });
    it("a joined table's name wins over a column's alias", () => {
      const compiled = compile('select e.event as p, p.id from events e join persons p on p.id = e.person_id');
      expect(inner(compiled)).to.match(/\.c\d+ as c1/);
    });
    it('refuses an aggregate beside an arrayJoin element read by name', () => {
      expect(() => compile('select arrayJoin([1, 2]) as n, n + count() from events')).to.throw(HogQLError, /reads an arrayJoin\(\) element together with an aggregate/);
    });
    it('names a table function without an alias by its function', () => {
      expect(inner(compile('select numbers.number from numbers(2)'))).to.include('generate_series');
    });
  });

  describe('names of the new tables’ properties stay values', () => {
    const attempts: [string, string][] = [
      ["select poe.properties['x''); drop table events; --'] from events", "x'); drop table events; --"],
      ["select pdi.person.properties['x''); drop table events; --'] from events", "x'); drop table events; --"],
      ["select person.properties['x''); drop table events; --'] from person_distinct_ids", "x'); drop table events; --"],
    ];
    for (const [query, secret] of attempts) {
      it(query, () => {
        const compiled = compile(query);
        expect(compiled.params).to.include(secret);
        expect(compiled.text).to.not.include('drop table');
      });
    }
  });

  describe('format strings, timezones and patterns stay values', () => {
    const attempts: [string, string][] = [
      ["select formatDateTime(timestamp, '%Y''); drop table events; --') from events", `"'); drop table events; --"`],
      ["select extract(event, '(x)''; drop table events; --') from events", "'; drop table events; --"],
      ["select toHour(toTimeZone(timestamp, 'America/New_York')) from events", 'America/New_York'],
    ];
    for (const [query, secret] of attempts) {
      it(query, () => {
        const compiled = compile(query);
        expect(compiled.params.some((value) => typeof value === 'string' && value.endsWith(secret))).to.equal(true);
        expect(compiled.text).to.not.include('drop table');
      });
    }
  });

  describe('refuses the newer syntax where it cannot run (given → want message)', () => {
    const cases: [string, string][] = [
      ['select rank() over w from events', 'Unknown window "w": define it in a WINDOW clause.'],
      ['select rank() over (rows between 1 following and current row) from events', 'The frame of a window must start before it ends.'],
      ['select rank() over (rows between unbounded following and unbounded following) from events', 'The frame of a window must start before it ends.'],
      [
        'select rank() over (rows between -1 preceding and current row) from events',
        'Expected a frame bound (UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING, UNBOUNDED FOLLOWING) but found "-" at position 34.',
      ],
      ['select rank() over (rows between 1.5 preceding and current row) from events', 'A frame bound must be a non-negative integer.'],
      ['select rank() over (order by event) from events group by event having rank() over () > 1', 'Window functions such as rank() OVER (…) are not allowed in HAVING.'],
      ['select count() from events group by row_number() over ()', 'Window functions such as row_number() OVER (…) are not allowed in GROUP BY.'],
      ['select e.event from events e join persons p on row_number() over () = 1', 'Window functions such as row_number() OVER (…) are not allowed in ON.'],
      ['select rank(event) over () from events', 'rank() takes 0 arguments, got 1.'],
      ['select quantile(0.5)(timestamp) over () from events', 'quantile() cannot be computed over a window: PostgreSQL has no window form of a quantile.'],
      ['select event from events limit 1 by row_number() over ()', 'Window functions such as row_number() OVER (…) are not allowed in LIMIT BY.'],
      ['select event from events order by arrayJoin(splitByChar(\',\', event))', 'arrayJoin() must be a whole column of SELECT (which GROUP BY and ORDER BY may name), not inside another expression.'],
      ["select formatDateTime(timestamp, '%Y', event) from events", 'The timezone of formatDateTime() must be a string constant.'],
      ["select toTimeZone(timestamp, '../etc/passwd') from events", 'Unknown timezone "../etc/passwd" in toTimeZone().'],
      ["select JSONExtractInt(properties.x, event) from events", 'The keys of JSONExtractInt() must be string or integer constants.'],
      ['select group_5.key from events', 'Unknown field "group_5.key".'],
      ["select event from events where sumIf(properties.price, event = 'a') > 1", 'Aggregate functions such as sumIf() are not allowed in WHERE.'],
      ['select group_0.updated_at from events', 'The field "updated_at" of groups is not available: when a group last changed is not kept; created_at is.'],
      ['select group_0.secret from events', 'Unknown field "secret" of the group group_0.'],
    ];
    for (const [query, message] of cases) {
      it(query, () => {
        expect(() => compile(query)).to.throw(HogQLError, message);
      });
    }
  });
});
