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
        'select distinct e.event as c0 from events e where e.team_id = $1::int and (e.distinct_id = $2::text) order by c0 desc nulls last limit 5 offset 2',
      ],
      [
        'select properties.$browser as b, count() from events group by b having count() > 1',
        'select (e.properties -> $1::text) as c0, count(*) as c1 from events e where e.team_id = $2::int group by (e.properties -> $1::text) having (count(*) > $3::bigint) limit 101 offset 0',
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
      `from events e left join person_distinct_ids pdi on pdi.team_id = $${team}::int and pdi.distinct_id = e.distinct_id` +
        `\n            left join persons p on p.id = pdi.person_id and p.team_id = $${team}::int where e.team_id = $${team}::int`,
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
      ['select relname from pg_catalog.pg_class', 'Unknown table "pg_catalog.pg_class". Tables: events, persons, sessions, groups.'],
      ['select * from pg_class', 'Unknown table "pg_class". Tables: events, persons, sessions, groups.'],
      ['select * from information_schema.tables', 'Unknown table "information_schema.tables". Tables: events, persons, sessions, groups.'],
      ['select 1 from events where event = {missing}', 'Placeholder {missing} is not given in values.'],
      ['select current_setting(\'x\') from events', 'Unknown function "current_setting".'],
      ['select team_id from events', 'Unknown field "team_id".'],
      ['select uuid from persons', 'Unknown field "uuid" of the table persons.'],
      ['select 1 from events e, persons p', 'Only INNER JOIN and LEFT JOIN are supported.'],
      ['select 1 from events e join events e on 1 = 1', 'Two joined tables are named "e"; give one an alias.'],
      ['select 1 from events e join pg_catalog.pg_class c on 1 = 1', 'Unknown table "pg_catalog.pg_class". Tables: events, persons, sessions, groups.'],
      ['with x as (select 1 from x) select 1 from x', 'The WITH query "x" refers to itself.'],
      ['select 1 from events union select 1 from events', 'Only UNION ALL is supported; UNION DISTINCT is not.'],
      ['select 1 from events where event in (select relname from pg_catalog.pg_class)', 'Unknown table "pg_catalog.pg_class". Tables: events, persons, sessions, groups.'],
      ['select event, count() from events', '"event" must be in GROUP BY or inside an aggregate function.'],
      ['select count() from events order by event', '"event" in ORDER BY must be in GROUP BY or inside an aggregate function.'],
      ['select quantile(2)(properties.x) from events', 'The level of quantile() must be a number constant from 0 to 1.'],
      ['select quantile(properties.x) from events', 'quantile() needs its parameters: quantile(p)(x).'],
      ["select dateTrunc('fortnight', timestamp) from events", 'dateTrunc() unit must be one of second, minute, hour, day, week, month, quarter, year.'],
      ['select 1 from events limit -1', 'LIMIT must be a non-negative integer.'],
      ['delete from events', 'Expected SELECT but found "delete" at position 1.'],
      ['', 'The query is empty.'],
    ];
    for (const [query, message] of cases) {
      it(query || '(empty)', () => {
        expect(() => compile(query)).to.throw(HogQLError, message);
      });
    }
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
    const queries = ['select event from events', 'select * from persons', 'select * from sessions', 'select count() from events e where e.person.properties.x = 1 group by e.event'];
    for (const query of queries) {
      const compiled = compile(query);
      const team = numberOf(compiled, TEAM);
      expect(compiled.text).to.match(new RegExp(`where (e|p)\\.team_id = \\$${team}::int`));
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
});
