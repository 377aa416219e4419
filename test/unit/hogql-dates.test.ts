/**
 * The date, time and interval functions at compile time: the type each answers (a Date where ClickHouse answers
 * one), the arguments each takes, refusals (400s) for zones, modes, units and intervals that are not constants
 * of the allowed kinds, and that no text of the query (a zone, a unit) reaches the SQL text except as a bound
 * parameter. Results are checked against ClickHouse in test/integration/query-hogql-dates.test.ts.
 */
import { expect } from 'chai';
import { HogQLError } from '../../db/hogql/errors.js';
import { compileSelect, parseSelect, type CompiledSelect } from '../../db/hogql/select/index.js';

const OPTIONS = { teamId: 7, timezone: 'Europe/Paris', defaultLimit: 100, maxLimit: 50_000 };

function compile(query: string): CompiledSelect {
  return compileSelect(parseSelect(query), OPTIONS);
}

/** The type and the ClickHouse type of one selected expression. */
function typeOf(expression: string): [string, string] {
  const column = compile(`select ${expression} from events`).columns[0]!;
  return [column.type, column.clickhouseType];
}

describe('unit: HogQL dates, times and intervals', () => {
  describe('types (given → HogQL type)', () => {
    const cases: [string, string][] = [
      ['toStartOfMonth(timestamp)', 'date'],
      ['toStartOfYear(timestamp)', 'date'],
      ['toStartOfQuarter(timestamp)', 'date'],
      ['toStartOfISOYear(timestamp)', 'date'],
      ['toMonday(timestamp)', 'date'],
      ['toStartOfWeek(timestamp, 1)', 'date'],
      ['toLastDayOfWeek(timestamp)', 'date'],
      ['toLastDayOfMonth(timestamp)', 'date'],
      ['toStartOfDay(timestamp)', 'datetime'],
      ["toStartOfDay(timestamp, 'Asia/Tokyo')", 'datetime'],
      ['toStartOfHour(timestamp)', 'datetime'],
      ['toStartOfMinute(timestamp)', 'datetime'],
      ['toStartOfFiveMinutes(timestamp)', 'datetime'],
      ['toStartOfInterval(timestamp, INTERVAL 1 DAY)', 'datetime'],
      ['toStartOfInterval(toDate(timestamp), INTERVAL 1 DAY)', 'date'],
      ['toStartOfInterval(timestamp, INTERVAL 1 WEEK)', 'date'],
      ['toStartOfInterval(timestamp, toIntervalMonth(3))', 'date'],
      ["dateTrunc('month', timestamp)", 'date'],
      ["dateTrunc('hour', timestamp)", 'datetime'],
      ['toWeek(timestamp, 3)', 'int'],
      ['toYearWeek(timestamp)', 'int'],
      ['toDayOfWeek(timestamp, 2)', 'int'],
      ['toYYYYMMDDhhmmss(timestamp)', 'int'],
      ['toUnixTimestamp64Milli(timestamp)', 'int'],
      ['fromUnixTimestamp(0)', 'datetime'],
      ['monthName(timestamp)', 'string'],
      ['toIntervalDay(1)', 'interval'],
      ['toIntervalDay(1) + toIntervalHour(2)', 'interval'],
      ['toIntervalHour(2) * 3', 'interval'],
      ['timestamp - INTERVAL 7 DAY', 'datetime'],
      ['toDate(timestamp) - INTERVAL 7 DAY', 'date'],
      ['toDate(timestamp) - INTERVAL 7 HOUR', 'datetime'],
      ['toDate(timestamp) + 1', 'date'],
      ['addMonths(toDate(timestamp), 1)', 'date'],
      ['addHours(toDate(timestamp), 1)', 'datetime'],
      ['yesterday()', 'date'],
      ['make_date(2024, 2, 29)', 'date'],
      ["timeSlots(timestamp, 3600)", 'array'],
    ];
    for (const [expression, type] of cases) {
      it(expression, () => {
        expect(typeOf(expression)[0]).to.equal(type);
      });
    }
  });

  describe('nullability: a constant interval never makes a datetime NULL, one from a value may', () => {
    const cases: [string, string][] = [
      ['timestamp - INTERVAL 7 DAY', "DateTime64(6, 'UTC')"],
      ['timestamp + 1', "DateTime64(6, 'UTC')"],
      ['timestamp - toIntervalDay(properties.days)', "Nullable(DateTime64(6, 'UTC'))"],
      ['timestamp + toIntervalYear(1000000)', "Nullable(DateTime64(6, 'UTC'))"],
      ['fromModifiedJulianDay(1)', 'Nullable(Date)'],
    ];
    for (const [expression, clickhouseType] of cases) {
      it(expression, () => {
        expect(typeOf(expression)[1]).to.match(new RegExp(`^${clickhouseType.replace(/[()]/g, '\\$&').replace("'UTC'", "'[^']+'")}$`));
      });
    }
  });

  describe('no text of the query in the SQL text', () => {
    const cases: [string, string][] = [
      ["toStartOfDay(timestamp, 'Asia/Tokyo')", 'Asia/Tokyo'],
      ["toWeek(timestamp, 3, 'America/New_York')", 'America/New_York'],
      ["toUnixTimestamp('2017-11-05 08:07:47', 'Asia/Tokyo')", 'Asia/Tokyo'],
      ["make_timestamp(2024, 2, 29, 23, 30, 0, 'Asia/Kolkata')", 'Asia/Kolkata'],
      ["dateTrunc('day', timestamp, 'Pacific/Auckland')", 'Pacific/Auckland'],
    ];
    for (const [expression, text] of cases) {
      it(expression, () => {
        const compiled = compile(`select ${expression} from events`);
        expect(compiled.text).not.to.contain(text);
        expect(compiled.params).to.include(text);
      });
    }
  });

  describe('refuses (given → the message)', () => {
    const cases: [string, RegExp][] = [
      ["toStartOfDay(timestamp, 'UTC'' or 1=1')", /Unknown timezone "UTC' or 1=1" in toStartOfDay\(\)/],
      ['toStartOfDay(timestamp, event)', /The timezone of toStartOfDay\(\) must be a string constant/],
      ["toStartOfHour(timestamp, 'UTC')", /toStartOfHour\(\) takes 1 argument, got 2/],
      ["toWeek(timestamp, 1, 'UTC', 4)", /toWeek\(\) takes 1 to 3 arguments, got 4/],
      ['toWeek(timestamp, -1)', /The mode of toWeek\(\) must be an integer constant from 0 to 9/],
      ['toYearWeek(timestamp, 1.5)', /The mode of toYearWeek\(\) must be an integer constant from 0 to 9/],
      ['toDayOfWeek(timestamp, properties.mode)', /The mode of toDayOfWeek\(\) must be 0, 1, 2 or 3/],
      ['toStartOfInterval(timestamp)', /toStartOfInterval\(\) takes 2 to 4 arguments, got 1/],
      ['toStartOfInterval(timestamp, INTERVAL 1000001 SECOND)', /length must be an integer constant from 1 to 1000000/],
      ['toStartOfInterval(timestamp, toIntervalDay(properties.n))', /length must be an integer constant from 1 to 1000000/],
      ['toStartOfInterval(timestamp, toIntervalDay(1) + toIntervalDay(1))', /must be a constant such as INTERVAL 15 MINUTE/],
      ['date_bin(INTERVAL 1 MONTH, timestamp, timestamp)', /The interval of date_bin\(\) with an origin must be of seconds, minutes, hours, days or weeks/],
      ['toStartOfInterval(timestamp, INTERVAL 1 YEAR, timestamp)', /The interval of toStartOfInterval\(\) with an origin must be of seconds/],
      ["toStartOfInterval(timestamp, INTERVAL 1 DAY, timestamp, 'Nowhere/Else')", /Unknown timezone "Nowhere\/Else" in toStartOfInterval\(\)/],
      ["toStartOfInterval(timestamp, INTERVAL 1 DAY, 'Nowhere/Else')", /Unknown timezone "Nowhere\/Else" in toStartOfInterval\(\)/],
      ["age('hour', timestamp)", /age\(\) takes 3 arguments, got 2/],
      ["age(event, timestamp, timestamp)", /The unit of age\(\) must be one of/],
      ["dateName(event, timestamp)", /The part of dateName\(\) must be one of/],
      ["date_part('epoch', timestamp)", /The part of date_part\(\) must be one of/],
      ["dateDiff('fortnight', timestamp, timestamp)", /dateDiff\(\) unit must be one of/],
      ['addDays(timestamp)', /addDays\(\) takes 2 arguments, got 1/],
      ['timeStampSub(timestamp, 5)', /must be an interval/],
      ["dateAdd(timestamp, 'x')", /needs an interval as x/],
      ['timeSlots(timestamp, properties.n)', /The duration of timeSlots\(\) must be an integer constant/],
      ['timeSlots(timestamp, 86400, 1)', /timeSlots\(\) may give at most 10000 slots/],
      ['toIntervalDay(1) % 2', /Cannot take the remainder of Interval and Integer values/],
      ['toIntervalDay(1) + 2', /Cannot add Interval and Integer values/],
      ['nowInBlock(timestamp)', /The function nowInBlock\(\) is not available: /],
      ['rowNumberInAllBlocks()', /The function rowNumberInAllBlocks\(\) is not available: /],
    ];
    for (const [expression, message] of cases) {
      it(expression, () => {
        expect(() => compile(`select ${expression} from events`)).to.throw(HogQLError, message);
      });
    }
  });

  it('a long chain of interval arithmetic compiles to SQL that grows with it, not faster', () => {
    const chain = (length: number) => `select timestamp${' + INTERVAL 1 DAY - toIntervalHour(properties.h)'.repeat(length)} from events`;
    const short = compile(chain(10)).text.length;
    const long = compile(chain(100)).text.length;
    expect(long).to.be.below(short * 12);
  });
});
