import { expect } from 'chai';
import { HogQLError } from '../../db/hogql/errors.js';
import { compileSelect, parseSelect, type CompiledSelect } from '../../db/hogql/select/index.js';
import { printQuery } from '../../db/hogql/select/print.js';

const TEAM = 4242;
const OPTIONS = { teamId: TEAM, timezone: 'UTC', defaultLimit: 100, maxLimit: 50_000 };

function compile(query: string): CompiledSelect {
  return compileSelect(parseSelect(query), OPTIONS);
}

/** How many times the statement filters a table by the environment. */
function environmentFilters(compiled: CompiledSelect): number {
  const team = compiled.params.indexOf(TEAM) + 1;
  if (team === 0) return 0;
  return compiled.text.split(`team_id = $${team}::int`).length - 1;
}

describe('unit: HogQL SELECT statement grammar', () => {
  describe('parses and prints back (given → printed)', () => {
    const cases: [string, string][] = [
      ['select 1 + 1', 'SELECT 1 + 1'],
      ['select now()', 'SELECT now()'],
      ['select number from numbers(10)', 'SELECT number FROM numbers(10)'],
      ['select n.number from numbers(5, 10) n', 'SELECT n.number FROM numbers(5, 10) AS n'],
      ['select 1 from events a, persons b', 'SELECT 1 FROM events AS a, persons AS b'],
      ['select 1 from events a cross join persons b', 'SELECT 1 FROM events AS a CROSS JOIN persons AS b'],
      ['select 1 from events a right outer join persons b on a.person_id = b.id', 'SELECT 1 FROM events AS a RIGHT JOIN persons AS b ON a.person_id = b.id'],
      ['select 1 from events a full join events b on a.uuid = b.uuid', 'SELECT 1 FROM events AS a FULL JOIN events AS b ON a.uuid = b.uuid'],
      ['select 1 from events a global any left join events b on a.uuid = b.uuid', 'SELECT 1 FROM events AS a LEFT ANY JOIN events AS b ON a.uuid = b.uuid'],
      ['select 1 from events a left semi join events b on a.uuid = b.uuid', 'SELECT 1 FROM events AS a LEFT SEMI JOIN events AS b ON a.uuid = b.uuid'],
      ['select 1 from events a anti left join events b on a.uuid = b.uuid', 'SELECT 1 FROM events AS a LEFT ANTI JOIN events AS b ON a.uuid = b.uuid'],
      ['select 1 from events a inner all join events b using uuid', 'SELECT 1 FROM events AS a JOIN events AS b USING (uuid)'],
      ['select 1 from events a join events b using (uuid, event)', 'SELECT 1 FROM events AS a JOIN events AS b USING (uuid, event)'],
      ["select t from events array join splitByChar(',', event) as t", "SELECT t FROM events ARRAY JOIN splitByChar(',', event) AS t"],
      ["select t, u from events left array join splitByChar(',', event) as t, splitByChar(',', event) u", "SELECT t, u FROM events LEFT ARRAY JOIN splitByChar(',', event) AS t, splitByChar(',', event) AS u"],
      ['select count() over w from events window w as (partition by event)', 'SELECT count() OVER w FROM events WINDOW w AS (PARTITION BY event)'],
      ['select count() over (w order by timestamp) from events window w as (partition by event)', 'SELECT count() OVER (w ORDER BY timestamp ASC) FROM events WINDOW w AS (PARTITION BY event)'],
      ['select (1 as x) + x', 'SELECT (1 AS x) + x'],
      ['select event from events group by 1 order by 1 desc', 'SELECT event FROM events GROUP BY 1 ORDER BY 1 DESC'],
      ["select 1 from events prewhere event = 'a' where 1 = 1", "SELECT 1 FROM events WHERE (event = 'a') AND (1 = 1)"],
      ['select 1 from events sample 1', 'SELECT 1 FROM events'],
      ['select 1 from events as e final sample 1/1', 'SELECT 1 FROM events AS e'],
      ['select 1 union distinct select 2 intersect select 3 except select 4', 'SELECT 1 UNION DISTINCT SELECT 2 INTERSECT SELECT 3 EXCEPT SELECT 4'],
      ['select number from numbers(5) offset 2', 'SELECT number FROM numbers(5) OFFSET 2'],
      ['select top 3 event from events', 'SELECT event FROM events LIMIT 3'],
      ['select a.*, b.c from t a join u b on 1 = 1', 'SELECT a.*, b.c FROM t AS a JOIN u AS b ON 1 = 1'],
      ['select event from events order by event limit 1 with ties offset 2', 'SELECT event FROM events ORDER BY event ASC LIMIT 1 WITH TIES OFFSET 2'],
      ['with 1 + 1 as two, t as (select 1) select two from t', 'WITH (1 + 1) AS two, t AS (SELECT 1) SELECT two FROM t'],
      ['with (select count() from events) as total select total', 'WITH (SELECT count() FROM events) AS total SELECT total'],
      ['select (select count() from events) / 2', 'SELECT (SELECT count() FROM events) / 2'],
      ['(select 1) union all (select 2)', 'SELECT 1 UNION ALL SELECT 2'],
      ['select 0 union all (select 1 union all select 2)', 'SELECT 0 UNION ALL SELECT * FROM (SELECT 1 UNION ALL SELECT 2)'],
      ['select event from events order by event desc nulls first, timestamp nulls last', 'SELECT event FROM events ORDER BY event DESC NULLS FIRST, timestamp ASC'],
    ];
    for (const [query, printed] of cases) {
      it(query, () => {
        expect(printQuery(parseSelect(query))).to.equal(printed);
        // The printed text reads back as the same tree.
        expect(printQuery(parseSelect(printed))).to.equal(printed);
      });
    }
  });

  describe('compiles (given → SQL it holds)', () => {
    const cases: [string, string[]][] = [
      ['select 1 + 1', ['(select ($1::bigint + $1::bigint) as c0 limit 101 offset 0) q']],
      ['select number from numbers(2, 3)', ['from generate_series($1::bigint, $1::bigint + $2::bigint - 1) n']],
      ['select count() from events a cross join persons p', [') s1 cross join (select p.uuid as c0']],
      ['select count() from events a right join persons p on a.person_id = p.id', [' right join (select p.uuid as c0', 'on (s1.c7 = s2.c0)']],
      ['select a.event, b.event from events a full join events b on a.uuid = b.uuid', [' full join ', "coalesce(s1.c1, ''::text) as c0", "coalesce(s2.c1, ''::text) as c1"]],
      ['select a.event from events a left any join events b on a.uuid = b.uuid', [' left join lateral (select * from (', ' where (s1.c0 = s2.c0) limit 1) s2 on true']],
      ['select a.event from events a left semi join events b on a.uuid = b.uuid', [' cross join lateral (select * from (', ' limit 1) s2']],
      ['select a.event from events a left anti join events b on a.uuid = b.uuid', [') s2 on false', 'not exists (select 1 from (']],
      ['select uuid from events a join events b using (uuid)', ['coalesce(s1.c0, s2.c0) as c0', 'on ((s1.c0 = s2.c0))']],
      ["select t from events array join splitByChar(',', event) as t", ['cross join lateral (select (case when aj.v0 is null then', 'from rows from (jsonb_array_elements(coalesce(']],
      ["select t from events left array join splitByChar(',', event) as t", ['from (select 1) aj_row left join rows from (']],
      ['select groupArray(event) over (order by timestamp) from events', ["coalesce(jsonb_agg(to_jsonb(e.event)) filter (where e.event is not null) over (order by e.timestamp asc nulls last), '[]'::jsonb)"]],
      ['select countIf(event = {v}) over w from events window w as (partition by distinct_id)', ['count(*) filter (where (e.event = $1::text)) over (partition by e.distinct_id)']],
      ['select event, count() from events group by 1 order by 2 desc', ['group by e.event order by c1 desc']],
      ["select 1 from events where (event = 'a' as x) or x", ['((e.event = $3::text) or (e.event = $3::text))']],
    ];
    for (const [query, parts] of cases) {
      it(query, () => {
        const compiled = compileSelect(parseSelect(query, { v: 'a' }), OPTIONS);
        for (const part of parts) expect(compiled.text).to.include(part);
      });
    }
  });

  describe('filters every table it reads by the environment (given → filters)', () => {
    const cases: [string, number][] = [
      ['select 1', 0],
      ['select number from numbers(3)', 0],
      ['select 1 where 1 in (select count() from events)', 1],
      ['select event, (select count() from persons) from events', 2],
      ['select count() from events a, persons p', 4],
      ['select count() from events a cross join groups g', 4],
      ['select count() from events a right join persons p on a.person_id = p.id', 4],
      ['select count() from events a full join events b on a.uuid = b.uuid', 6],
      ['select count() from events a join events b using (uuid)', 6],
      ['select count() from events a left any join persons b on a.person_id = b.id', 4],
      ['select count() from events a left semi join persons b on a.person_id = b.id', 4],
      // The joined table is read twice: its null row, and the rows NOT EXISTS looks for.
      ['select count() from events a left anti join persons b on a.person_id = b.id', 5],
      // Read as a table, with its persons joined when an expression reads them.
      ["select count() from events array join splitByChar(',', event) as t", 1],
      ["select person.properties.email, t from events array join splitByChar(',', person.properties.tags) as t", 3],
      ["select t from events a join persons p on a.person_id = p.id array join splitByChar(',', a.event) as t", 4],
      ['select count() from numbers(3) n join (select distinct_id from events) e on 1 = 1', 1],
    ];
    for (const [query, filters] of cases) {
      it(query, () => {
        const compiled = compile(query);
        expect(environmentFilters(compiled)).to.equal(filters);
        // The environment is one parameter, never text.
        expect(compiled.text).to.not.include(String(TEAM));
      });
    }
  });

  it('no name of the query (aliases, windows, USING, ARRAY JOIN) reaches the SQL text', () => {
    const name = '`x; drop table events --`';
    const compiled = compile(
      `select ${name}, (1 as \`y'); --\`) from (select event as ${name} from events) a join (select event as ${name} from events) b using (${name}) array join splitByChar(',', ${name}) as \`z")--\` window \`w--\` as (order by 1)`,
    );
    for (const fragment of ['drop', '--', "');", '")']) expect(compiled.text).to.not.include(fragment);
  });

  describe('refuses (given → message)', () => {
    const cases: [string, string][] = [
      ['select number from numbers(1000001)', 'The count of numbers() may be at most 1000000, not 1000001.'],
      ['select number from numbers(9007199254740991, 1)', 'The first number of numbers() may be at most 9007199253740991, not 9007199254740991.'],
      ["select number from numbers('3')", 'The count of numbers() must be a non-negative integer constant.'],
      ['select number from numbers(1.5)', 'The count of numbers() must be a non-negative integer constant.'],
      ['select number from numbers()', 'numbers() takes 1 or 2 arguments (the count, or the first number and the count), got 0.'],
      ['select * from url(\'http://x\')', 'Unknown table function "url". Table functions: numbers.'],
      ['select * from pg_catalog.generate_series(1, 2)', 'Unknown table function "pg_catalog.generate_series". Table functions: numbers.'],
      ['select event', 'Unknown field "event": a SELECT without FROM has no fields.'],
      ['select 1 from events a cross any join events b', 'CROSS JOIN has no ANY.'],
      ['select 1 from events a left right join events b on 1 = 1', '"LEFT RIGHT JOIN" is not a join.'],
      ['select 1 from events a outer join events b on 1 = 1', '"OUTER JOIN" is not a join: OUTER goes with LEFT, RIGHT or FULL.'],
      ['select 1 from events a full join events b on a.uuid = b.uuid or 1 = 1', 'The ON of a FULL JOIN must be equalities joined by AND (a.x = b.y AND …), not "(a.uuid = b.uuid) OR (1 = 1)".'],
      ['select 1 from events a join events b using (nothing)', 'USING (nothing): the joined table has no column "nothing".'],
      ['select 1 from events a join events b on 1 = 1 join events c using (uuid)', 'USING (uuid): more than one table before the join has a column "uuid"; join ON a named one.'],
      ['select uuid from events a join events b on a.uuid = b.uuid', 'The field "uuid" is in more than one joined table; name its table, as in alias.uuid.'],
      ['select 1 from events a join events b on a.uuid = c.uuid join events c on 1 = 1', 'Unknown field "c.uuid".'],
      ["select t from events array join splitByChar(',', event) as t, splitByChar(',', event) as t", 'ARRAY JOIN names two arrays "t".'],
      ['select x.* from events e join persons p on e.person_id = p.id', 'Unknown table "x" in x.*.'],
      ['select x.* from events e', 'Unknown table "x" in x.*.'],
      ['select count() over w from events window w as (), w as ()', 'The window "w" is defined twice.'],
      ['select count() over (w partition by event) from events window w as ()', 'A window built on "w" cannot add PARTITION BY; put it in "w".'],
      ['select count() over w from events window w as (v), v as (w)', 'The window "w" is defined by itself.'],
      ['select argMax(event, timestamp) over () from events', 'argMax() cannot be computed over a window: it picks its value by an order, which PostgreSQL cannot do over a window; use first_value() or last_value() over a window ordered by the key.'],
      ['select count() from events group by -1', 'GROUP BY -1 names no column: the query selects 1 column.'],
      ['select event from events limit 1 by 3', 'LIMIT BY 3 names no column: the query selects 1 column.'],
      ['select top 1 event from events limit 2', 'Write either TOP or LIMIT, not both.'],
      ['select event from events order by event limit 1 with ties by event', 'LIMIT … BY has no WITH TIES.'],
      ['select (select 1, 2)', 'A subquery used as a value must select one column, not 2.'],
      ['select 1, 2 union all (select 1 union all select 2)', 'Each query of UNION ALL must select as many columns as the first (2), not 1.'],
      ['select distinct on (event) event from events', 'DISTINCT ON is not ClickHouse SQL; use LIMIT 1 BY the expressions instead.'],
      ['select event from events group by event with rollup', 'GROUP BY … WITH ROLLUP, CUBE or TOTALS is not supported.'],
      ['select event from events order by event with fill', 'ORDER BY … WITH FILL is not supported; LEFT JOIN the query to a series from numbers() instead.'],
      ["select event from events order by event collate 'de'", 'COLLATE is not supported.'],
      ['select count() over (order by event nulls first) from events', "NULLS FIRST and NULLS LAST are not supported in a window's ORDER BY."],
      ['select 1 from events sample 1 offset 0.5', "SAMPLE is only supported as SAMPLE 1 (every row): sampling needs ClickHouse's sampling key, which the tables here do not have."],
    ];
    for (const [query, message] of cases) {
      it(query, () => {
        expect(() => compileSelect(parseSelect(query, { n: 3 }), OPTIONS)).to.throw(HogQLError, message);
      });
    }
  });

  it('names that stand for each other twice over are refused before they are written out', () => {
    const columns = ['1 as x0', ...Array.from({ length: 30 }, (_unused, index) => `x${index} + x${index} as x${index + 1}`)];
    expect(() => compile(`select ${columns.join(', ')}`)).to.throw(HogQLError, 'The query\'s names stand for more than 10000 expressions written out in full.');
  });
});
