/**
 * Dates, times and intervals through POST …/query/, against ClickHouse's answers (its documentation's examples,
 * its week-mode table, its calendar arithmetic). Two environments hold one event each, at 23:30 UTC on the leap
 * day 2024-02-29: one in UTC, one in Europe/Paris (where it is already 1 March, and where summer time starts on
 * 31 March 2024). Each case is a group of calls in one query and the exact row it must answer. Then refusals:
 * 400s, never a 500, for hostile zones, modes and intervals, and NULL where a value leaves the representable range.
 */
import { expect } from 'chai';
import { insertEvents } from '../helpers/seed-events.js';
import { HogQLQueryClient, hogqlQueryServer, itRefuses } from '../helpers/hogql-query-cases.js';

const EVENT = {
  event: 'leap',
  distinct_id: 'alice',
  timestamp: '2024-02-29T23:30:00.123456Z',
  properties: { days: 3, hours: 1.5, stamp: '2024-03-30 09:00:00', huge: 1e300, text: 'x' },
};

interface Case {
  name: string;
  /** Expressions, selected from the one event. */
  calls: string[];
  row: unknown[];
}

/** Cases in the UTC environment. */
const UTC_CASES: Case[] = [
  {
    name: "toStartOf… of ClickHouse's documentation (2023-04-21 10:20:30, a Friday)",
    calls: [
      "toMonday(toDateTime('2023-04-21 10:20:30'))",
      "toStartOfWeek(toDateTime('2023-04-21 10:20:30'))",
      "toStartOfWeek(toDateTime('2023-04-21 10:20:30'), 1)",
      "toLastDayOfWeek(toDateTime('2023-04-21 10:20:30'))",
      "toLastDayOfWeek(toDateTime('2023-04-21 10:20:30'), 1)",
      "toStartOfMonth(toDateTime('2023-04-21 10:20:30'))",
      "toStartOfQuarter(toDateTime('2023-04-21 10:20:30'))",
      "toStartOfYear(toDateTime('2023-04-21 10:20:30'))",
      "toLastDayOfMonth(toDateTime('2023-04-21 10:20:30'))",
      "toStartOfDay(toDateTime('2023-04-21 10:20:30'))",
      "toStartOfHour(toDateTime('2023-04-21 10:20:30'))",
      "toStartOfMinute(toDateTime('2023-04-21 10:20:30'))",
      "toStartOfSecond(toDateTime('2023-04-21 10:20:30.999'))",
    ],
    row: [
      '2023-04-17',
      '2023-04-16',
      '2023-04-17',
      '2023-04-22',
      '2023-04-23',
      '2023-04-01',
      '2023-04-01',
      '2023-01-01',
      '2023-04-30',
      '2023-04-21T00:00:00.000Z',
      '2023-04-21T10:00:00.000Z',
      '2023-04-21T10:20:00.000Z',
      '2023-04-21T10:20:30.000Z',
    ],
  },
  {
    name: 'toStartOfFiveMinutes, TenMinutes, FifteenMinutes (the documentation: 10:17, 10:20, 10:23)',
    calls: [
      "toStartOfFiveMinutes(toDateTime('2023-04-21 10:17:00'))",
      "toStartOfTenMinutes(toDateTime('2023-04-21 10:17:00'))",
      "toStartOfFifteenMinutes(toDateTime('2023-04-21 10:17:00'))",
      "toStartOfFiveMinutes(toDateTime('2023-04-21 10:20:00'))",
      "toStartOfTenMinutes(toDateTime('2023-04-21 10:23:00'))",
      "toStartOfFifteenMinutes(toDateTime('2023-04-21 10:23:00'))",
    ],
    row: ['2023-04-21T10:15:00.000Z', '2023-04-21T10:10:00.000Z', '2023-04-21T10:15:00.000Z', '2023-04-21T10:20:00.000Z', '2023-04-21T10:20:00.000Z', '2023-04-21T10:15:00.000Z'],
  },
  {
    name: 'toStartOfInterval: seconds and minutes from the epoch, hours from midnight, days, weeks from a Monday, months, years',
    calls: [
      "toStartOfInterval(toDateTime('2023-01-01 14:45:00'), INTERVAL 1 MINUTE)",
      "toStartOfInterval(toDateTime('2023-01-01 14:45:00'), INTERVAL 20 MINUTE)",
      "toStartOfInterval(toDateTime('2023-01-01 14:45:07'), toIntervalSecond(5))",
      "toStartOfInterval(toDateTime('2023-01-01 14:45:00'), INTERVAL 5 HOUR)",
      "toStartOfInterval(toDateTime('2023-01-01 14:45:00'), INTERVAL 1 DAY)",
      "toStartOfInterval(toDate('2023-01-01'), INTERVAL 1 DAY)",
      "toStartOfInterval(toDateTime('2023-01-01 14:45:00'), INTERVAL 1 WEEK)",
      "toStartOfInterval(toDateTime('2023-01-01 14:45:00'), INTERVAL 2 WEEK)",
      "toStartOfInterval(toDate('2023-01-03'), INTERVAL 3 WEEK)",
      "toStartOfInterval(toDateTime('2023-05-17 14:45:00'), INTERVAL 1 MONTH)",
      "toStartOfInterval(toDateTime('2023-05-17 14:45:00'), INTERVAL 1 QUARTER)",
      "toStartOfInterval(toDateTime('2023-05-17 14:45:00'), INTERVAL 1 YEAR)",
      "toStartOfInterval(toDateTime('2023-05-17 14:45:00'), INTERVAL 10 YEAR)",
      "toStartOfInterval(toDateTime('2023-05-17 14:45:00'), INTERVAL 7 MONTH)",
      "toStartOfInterval(toDateTime('2023-05-17 14:45:00'), INTERVAL 3 YEAR)",
      "toStartOfInterval(toDateTime('2023-05-17 14:45:00'), INTERVAL 4 DAY)",
      "toStartOfInterval(toDateTime('2023-01-01 14:45:00'), INTERVAL 1 HOUR, 'Asia/Kolkata')",
      "toStartOfInterval(toDateTime('2023-01-01 14:45:00'), toIntervalMinute(1), toDateTime('2023-01-01 14:35:30'))",
      "toStartOfInterval(toDateTime('2023-01-01 14:45:00'), toIntervalMinute(1), '2023-01-01 14:35:30', 'UTC')",
      "date_bin(INTERVAL 15 MINUTE, toDateTime('2023-01-01 14:45:00'), toDateTime('2023-01-01 14:35:30'))",
    ],
    row: [
      '2023-01-01T14:45:00.000Z',
      '2023-01-01T14:40:00.000Z',
      '2023-01-01T14:45:05.000Z',
      '2023-01-01T10:00:00.000Z',
      '2023-01-01T00:00:00.000Z',
      '2023-01-01',
      '2022-12-26',
      // Weeks counted from Monday 1970-01-05 (day 4): 2022-12-26 is day 19352, 4 + 1382 × 14.
      '2022-12-26',
      // 2023-01-03 is day 19360: three weeks from day 4 are 21 days, 4 + 921 × 21 = 19345, 2022-12-19.
      '2022-12-19',
      '2023-05-01',
      '2023-04-01',
      '2023-01-01',
      '2020-01-01',
      // Months from January 1900: May 2023 is month 1480, 7 × 211 = 1477 is February 2023.
      '2023-02-01',
      // Years from year 0: 2023 rounds down to 3 × 674 = 2022.
      '2022-01-01',
      // Days from 1970-01-01: 2023-05-17 is day 19494, 4 × 4873 = 19492 is 2023-05-15.
      '2023-05-15T00:00:00.000Z',
      // 14:45 UTC is 20:15 in Kolkata: its hour started at 20:00 there, 14:30 UTC.
      '2023-01-01T14:30:00.000Z',
      // ClickHouse's documentation: minutes counted from an origin at 14:35:30.
      '2023-01-01T14:44:30.000Z',
      '2023-01-01T14:44:30.000Z',
      '2023-01-01T14:35:30.000Z',
    ],
  },
  {
    name: "week numbers: ClickHouse's example (2016-12-27) and the modes around New Year",
    calls: [
      "toWeek(toDate('2016-12-27'))",
      "toWeek(toDate('2016-12-27'), 1)",
      "toWeek(toDate('2016-12-27'), 9)",
      "toYearWeek(toDate('2016-12-27'))",
      "toYearWeek(toDate('2016-12-27'), 1)",
      "toYearWeek(toDate('2016-12-27'), 9)",
      "toWeek(toDate('2021-01-01'), 0)",
      "toWeek(toDate('2021-01-01'), 3)",
      "toYearWeek(toDate('2021-01-01'), 3)",
      "toWeek(toDate('2021-01-03'), 0)",
      "toWeek(toDate('2021-01-03'), 2)",
      "toYearWeek(toDate('2021-01-03'), 2)",
      "toWeek(toDate('2024-12-30'), 3)",
      "toYearWeek(toDate('2024-12-30'), 3)",
      "toISOWeek(toDate('2017-01-01'))",
      "toISOYear(toDate('2017-01-01'))",
      "toStartOfISOYear(toDate('2017-01-01'))",
    ],
    row: [52, 52, 1, 201652, 201652, 201701, 0, 53, 202053, 1, 1, 202101, 1, 202501, 52, 2016, '2016-01-04'],
  },
  {
    name: 'toDayOfWeek modes (2023-04-21, a Friday; 2023-04-23, a Sunday), toDayOfYear, date_part',
    calls: [
      "toDayOfWeek(toDateTime('2023-04-21'))",
      "toDayOfWeek(toDateTime('2023-04-21'), 1)",
      "toDayOfWeek(toDateTime('2023-04-21'), 2)",
      "toDayOfWeek(toDateTime('2023-04-21'), 3)",
      "toDayOfWeek(toDate('2023-04-23'), 0)",
      "toDayOfWeek(toDate('2023-04-23'), 1)",
      "toDayOfWeek(toDate('2023-04-23'), 2)",
      "toDayOfWeek(toDate('2023-04-23'), 3)",
      "toDayOfYear(toDate('2024-12-31'))",
      "date_part('doy', toDate('2023-12-31'))",
      "date_part('dow', toDate('2023-04-23'))",
      "date_part('quarter', toDateTime('2023-04-21 10:20:30'))",
    ],
    row: [5, 4, 5, 6, 7, 6, 0, 1, 366, 365, 7, 2],
  },
  {
    name: 'toYYYYMM…, monthName, dateName (the documentation: 2021-04-14 11:22:33)',
    calls: [
      "toYYYYMM(toDateTime('2021-04-14 11:22:33'))",
      "toYYYYMMDD(toDateTime('2021-04-14 11:22:33'))",
      "toYYYYMMDDhhmmss(toDateTime('2021-04-14 11:22:33'))",
      "monthName(toDateTime('2021-04-14 11:22:33'))",
      "dateName('year', toDateTime('2021-04-14 11:22:33'))",
      "dateName('month', toDateTime('2021-04-14 11:22:33'))",
      "dateName('day', toDateTime('2021-04-14 11:22:33'))",
      "dateName('weekday', toDateTime('2021-04-14 11:22:33'))",
      "dateName('quarter', toDateTime('2021-04-14 11:22:33'))",
      "dateName('dayofyear', toDateTime('2021-04-14 11:22:33'))",
      "dateName('hour', toDateTime('2021-04-14 11:22:33'))",
    ],
    row: [202104, 20210414, 20210414112233, 'April', '2021', 'April', '14', 'Wednesday', '2', '104', '11'],
  },
  {
    name: 'Unix timestamps and Modified Julian Days',
    calls: [
      "toUnixTimestamp('2017-11-05 08:07:47', 'Asia/Tokyo')",
      "toUnixTimestamp(toDateTime('2017-11-05 08:07:47'))",
      'fromUnixTimestamp(423543535)',
      'toUnixTimestamp64Milli(timestamp)',
      'fromUnixTimestamp64Milli(1709249400123)',
      'toDateTime(423543535)',
      'to_timestamp(423543535)',
      "toModifiedJulianDay('2020-01-01')",
      'fromModifiedJulianDay(58849)',
      'fromModifiedJulianDay(99999999)',
    ],
    row: [
      1509836867,
      1509869267,
      // ClickHouse's documentation shows 1983-06-04 10:58:55 on a server 8 hours east of UTC.
      '1983-06-04T02:58:55.000Z',
      1709249400123,
      '2024-02-29T23:30:00.123Z',
      '1983-06-04T02:58:55.000Z',
      '1983-06-04T02:58:55.000Z',
      58849,
      '2020-01-01',
      null,
    ],
  },
  {
    name: 'age counts whole units, dateDiff the boundaries crossed (the documentation)',
    calls: [
      "age('hour', toDateTime('2018-01-01 22:30:00'), toDateTime('2018-01-02 23:00:00'))",
      "dateDiff('hour', toDateTime('2018-01-01 22:00:00'), toDateTime('2018-01-02 23:00:00'))",
      "age('day', toDate('2021-12-29'), toDate('2022-01-01'))",
      "age('month', toDate('2021-12-29'), toDate('2022-01-01'))",
      "age('year', toDate('2021-12-29'), toDate('2022-01-01'))",
      "dateDiff('day', toDate('2021-12-29'), toDate('2022-01-01'))",
      "dateDiff('month', toDate('2021-12-29'), toDate('2022-01-01'))",
      "date_diff('year', toDate('2021-12-29'), toDate('2022-01-01'))",
      "age('month', toDate('2024-01-31'), toDate('2024-02-29'))",
      "age('month', toDate('2024-01-29'), toDate('2024-02-29'))",
      "age('minute', toDateTime('2024-01-01 10:00:59'), toDateTime('2024-01-01 10:02:00'))",
      "dateDiff('hour', toDateTime('2024-01-01 10:20:00'), toDateTime('2024-01-01 10:40:00'))",
      // Kolkata's hours (+05:30) start at :30 past UTC's: 10:20 and 10:40 UTC are in two of them.
      "dateDiff('hour', toTimeZone(toDateTime('2024-01-01 10:20:00'), 'Asia/Kolkata'), toDateTime('2024-01-01 10:40:00'))",
      "dateDiff('hh', toDateTime('2024-01-01 10:20:00'), toDateTime('2024-01-01 12:40:00'))",
      "dateDiff('wk', toDate('2024-01-07'), toDate('2024-01-08'))",
    ],
    row: [24, 25, 3, 0, 0, 3, 1, 1, 0, 1, 1, 0, 1, 2, 1],
  },
  {
    name: 'adding months and years clamps to the last day of the month; Dates stay Dates',
    calls: [
      "addMonths(toDate('2024-01-31'), 1)",
      "addMonths(toDateTime('2024-01-31 12:00:00'), 1)",
      "subtractYears(toDate('2024-02-29'), 1)",
      "addYears(toDate('2024-02-29'), 4)",
      "addQuarters(toDate('2023-11-30'), 1)",
      "subtractQuarters(toDate('2024-05-31'), 1)",
      "addWeeks(toDate('2024-02-26'), 1)",
      "subtractWeeks(toDate('2024-03-04'), 1)",
      "addDays(toDate('2024-02-28'), 1)",
      "subtractDays(toDate('2024-03-01'), 1)",
      "addHours(toDate('2024-02-28'), 25)",
      "subtractHours(toDateTime('2024-03-01 00:30:00'), 1)",
      "addMinutes(toDateTime('2024-02-29 23:59:00'), 2)",
      "subtractMinutes(toDateTime('2024-03-01 00:01:00'), 2)",
      "addSeconds(toDateTime('2024-02-29 23:59:59'), 1)",
      "subtractSeconds(toDateTime('2024-03-01 00:00:00'), 1)",
      "addDays('2024-02-28 10:00:00', 1)",
    ],
    row: [
      '2024-02-29',
      '2024-02-29T12:00:00.000Z',
      '2023-02-28',
      '2028-02-29',
      '2024-02-29',
      '2024-02-29',
      '2024-03-04',
      '2024-02-26',
      '2024-02-29',
      '2024-02-29',
      '2024-02-29T01:00:00.000Z',
      '2024-02-29T23:30:00.000Z',
      '2024-03-01T00:01:00.000Z',
      '2024-02-29T23:59:00.000Z',
      '2024-03-01T00:00:00.000Z',
      '2024-02-29T23:59:59.000Z',
      '2024-02-29T10:00:00.000Z',
    ],
  },
  {
    name: 'interval arithmetic: from properties, sums of intervals, intervals times numbers, INTERVAL n unit',
    calls: [
      'timestamp - toIntervalDay(properties.days)',
      'timestamp + INTERVAL properties.days DAY',
      'timestamp + properties.hours',
      "toDateTime('2024-01-01 00:00:00') + (toIntervalDay(1) + toIntervalHour(2))",
      "toDateTime('2024-01-01 00:00:00') + toIntervalHour(2) * 3",
      "toDateTime('2024-01-01 00:00:00') - 2 * INTERVAL 1 WEEK",
      "toDate('2024-03-01') - INTERVAL 1 DAY",
      "toDate('2024-03-01') - INTERVAL 1 HOUR",
      "toDate('2024-01-31') + INTERVAL 1 MONTH",
      "toDateTime('2024-01-01 00:00:00') + INTERVAL '7 day'",
      "timeStampAdd(toDateTime('2024-01-01 00:00:00'), INTERVAL 1 YEAR)",
      "timeStampSub(toDateTime('2024-01-01 00:00:00'), INTERVAL 1 SECOND)",
      "date_add(toDate('2024-02-28'), INTERVAL 2 DAY)",
      "date_subtract(toDateTime('2024-03-31 12:00:00'), INTERVAL 1 MONTH)",
      "dateAdd('month', 1, toDate('2024-01-31'))",
      "dateSub(toDateTime('2024-03-01 00:00:00'), INTERVAL 1 DAY)",
      'make_interval(0, 1, 1, 1, 1, 1) + toDateTime(\'2024-01-31 00:00:00\')',
      "timestamp > '2024-02-29 23:00:00'",
      "timestamp < '2024-03-01'",
    ],
    row: [
      '2024-02-26T23:30:00.123456Z',
      '2024-03-03T23:30:00.123456Z',
      '2024-02-29T23:30:01.623456Z',
      '2024-01-02T02:00:00.000Z',
      '2024-01-01T06:00:00.000Z',
      '2023-12-18T00:00:00.000Z',
      '2024-02-29',
      '2024-02-29T23:00:00.000Z',
      '2024-02-29',
      '2024-01-08T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
      '2023-12-31T23:59:59.000Z',
      '2024-03-01',
      '2024-02-29T12:00:00.000Z',
      '2024-02-29',
      '2024-02-29T00:00:00.000Z',
      '2024-03-01T01:01:01.000Z',
      true,
      true,
    ],
  },
  {
    name: 'dateTrunc and date_trunc: a Date for year to week, a DateTime below',
    calls: [
      "dateTrunc('year', toDateTime('2024-02-29 23:30:00'))",
      "dateTrunc('quarter', toDateTime('2024-02-29 23:30:00'))",
      "dateTrunc('month', toDateTime('2024-02-29 23:30:00'))",
      "date_trunc('week', toDateTime('2024-02-29 23:30:00'))",
      "dateTrunc('day', toDateTime('2024-02-29 23:30:00'))",
      "dateTrunc('hour', toDateTime('2024-02-29 23:30:00'))",
      "dateTrunc('day', toDateTime('2024-02-29 23:30:00'), 'Asia/Tokyo')",
    ],
    row: [
      '2024-01-01',
      '2024-01-01',
      '2024-02-01',
      '2024-02-26',
      '2024-02-29T00:00:00.000Z',
      '2024-02-29T23:00:00.000Z',
      // 23:30 UTC is 08:30 on 1 March in Tokyo, whose day started at 15:00 UTC on 29 February.
      '2024-02-29T15:00:00.000Z',
    ],
  },
  {
    name: 'time slots, zones and their offsets, yesterday, make_date',
    calls: [
      "timeSlot(toDateTime('2000-01-02 03:04:05'))",
      "timeSlots(toDateTime('2012-01-01 12:20:00'), 600)",
      "timeSlots(toDateTime('2012-01-01 12:20:00'), 3600, 1800)",
      'timeZoneOf(timestamp)',
      "timeZoneOf(toTimeZone(timestamp, 'Asia/Kolkata'))",
      "timeZoneOffset(toTimeZone(toDateTime('2021-04-21 10:20:30'), 'America/New_York'))",
      "timeZoneOffset(toTimeZone(toDateTime('2021-01-21 10:20:30'), 'America/New_York'))",
      'yesterday() = today() - 1',
      'make_date(2024, 2, 29)',
      'make_date(2023, 2, 29)',
      'make_date(2023, 13, 1)',
      'make_timestamp(2024, 2, 29, 23, 30, 0)',
      "make_timestamp(2024, 2, 29, 23, 30, 0, 'Asia/Tokyo')",
      "formatDateTime(toDateTime('2021-01-03 14:05:06'), '%G-%V %c %r')",
      "formatDateTime(toDateTime('2021-01-03 04:05:06'), '%e|%k|%l|%w|%C|%z|%d%e')",
      "formatDateTime(toDate('2010-01-04'), '%g')",
    ],
    row: [
      '2000-01-02T03:00:00.000Z',
      ['2012-01-01T12:00:00.000Z', '2012-01-01T12:30:00.000Z'],
      ['2012-01-01T12:00:00.000Z', '2012-01-01T12:30:00.000Z', '2012-01-01T13:00:00.000Z'],
      'UTC',
      'Asia/Kolkata',
      -14400,
      -18000,
      true,
      '2024-02-29',
      null,
      null,
      '2024-02-29T23:30:00.000Z',
      '2024-02-29T14:30:00.000Z',
      '2020-53 01 02:05 PM',
      ' 3| 4| 4|0|20|+0000|03 3',
      '10',
    ],
  },
  {
    name: 'values beyond the range are NULL (or, rounding down, ClickHouse\'s first year), never an error',
    calls: [
      'timestamp + toIntervalYear(properties.huge)',
      'timestamp + properties.huge',
      'toIntervalYear(properties.huge) * 2 + timestamp',
      'toStartOfInterval(timestamp, INTERVAL 1000000 YEAR)',
      'toStartOfInterval(timestamp, INTERVAL 1000000 MONTH)',
      'toStartOfInterval(timestamp, INTERVAL 1000000 HOUR)',
      "toDateTime('2024-01-01 00:00:00') + toIntervalYear(200000) * 1000",
      'fromUnixTimestamp(1e300)',
      "toWeek(toDate('0001-01-01'), 3)",
      "toYearWeek(toDate('0001-01-05'))",
      "toStartOfISOYear(toDate('0001-01-01'))",
      'addYears(timestamp, 9007199254740991)',
      'toDate(timestamp) + 2147483648',
      'make_date(properties.huge, 1, 1)',
      'fromUnixTimestamp64Milli(-1e300)',
    ],
    row: [null, null, null, '1900-01-01', '1900-01-01', '2024-02-29T00:00:00.000Z', null, null, null, null, null, null, null, null, null],
  },
];

/** Cases in the Europe/Paris environment: the event is at 00:30 on 1 March there; summer time starts 31 March. */
const PARIS_CASES: Case[] = [
  {
    name: "the project's zone: days, hours and starts on its wall clock",
    calls: [
      'toDate(timestamp)',
      'toHour(timestamp)',
      'toStartOfDay(timestamp)',
      "toStartOfDay(timestamp, 'UTC')",
      'toStartOfMonth(timestamp)',
      'toYYYYMMDD(timestamp)',
      'toDayOfWeek(timestamp)',
      'timeZoneOf(timestamp)',
      'timeZoneOffset(timestamp)',
      "toStartOfInterval(timestamp, INTERVAL 6 HOUR)",
      "formatDateTime(timestamp, '%F %T %z')",
      "formatDateTime(toDateTime('2024-07-01 12:00:00'), '%z')",
      "formatDateTime(timestamp, '%z', 'America/St_Johns')",
      "dateDiff('day', toDateTime('2024-02-29 23:59:00'), timestamp)",
    ],
    row: [
      '2024-03-01',
      0,
      '2024-02-29T23:00:00.000Z',
      '2024-02-29T00:00:00.000Z',
      '2024-03-01',
      20240301,
      5,
      'Europe/Paris',
      3600,
      '2024-02-29T23:00:00.000Z',
      '2024-03-01 00:30:00 +0100',
      '+0200',
      // Newfoundland is three and a half hours west of UTC in winter.
      '-0330',
      1,
    ],
  },
  {
    name: 'across the change to summer time: a day keeps the wall clock, 24 hours do not',
    calls: [
      "toDateTime('2024-03-30 09:00:00') + INTERVAL 1 DAY",
      "toDateTime('2024-03-30 09:00:00') + INTERVAL 24 HOUR",
      "addDays(toDateTime(properties.stamp), 1)",
      "toStartOfDay(toDateTime('2024-03-31 12:00:00'))",
      "toHour(toDateTime('2024-03-31T01:30:00Z'))",
      "timeZoneOffset(toDateTime('2024-03-31 12:00:00'))",
      "dateDiff('hour', toDateTime('2024-03-31 00:00:00'), toDateTime('2024-03-31 04:00:00'))",
      "age('day', toDateTime('2024-03-30 12:00:00'), toDateTime('2024-03-31 12:00:00'))",
      "toDateTime('2024-04-30 12:00:00') - INTERVAL 1 MONTH",
    ],
    row: [
      '2024-03-31T07:00:00.000Z',
      '2024-03-31T08:00:00.000Z',
      '2024-03-31T07:00:00.000Z',
      '2024-03-30T23:00:00.000Z',
      3,
      7200,
      3,
      1,
      '2024-03-30T11:00:00.000Z',
    ],
  },
];

interface Refusal {
  call: string;
  detail: string;
}

const REFUSALS: Refusal[] = [
  { call: "toStartOfDay(timestamp, 'UTC''; drop table events; --')", detail: 'Unknown timezone "UTC\'; drop table events; --" in toStartOfDay().' },
  { call: "toWeek(timestamp, 1, 'Mars/Olympus')", detail: 'Unknown timezone "Mars/Olympus" in toWeek().' },
  { call: 'toWeek(timestamp, 10)', detail: 'The mode of toWeek() must be an integer constant from 0 to 9.' },
  { call: 'toStartOfWeek(timestamp, properties.days)', detail: 'The mode of toStartOfWeek() must be an integer constant from 0 to 9.' },
  { call: 'toDayOfWeek(timestamp, 4)', detail: 'The mode of toDayOfWeek() must be 0, 1, 2 or 3.' },
  {
    call: 'toStartOfInterval(timestamp, INTERVAL properties.days DAY)',
    detail: "The interval of toStartOfInterval()'s length must be an integer constant from 1 to 1000000.",
  },
  { call: 'toStartOfInterval(timestamp, INTERVAL 0 DAY)', detail: "The interval of toStartOfInterval()'s length must be an integer constant from 1 to 1000000." },
  { call: 'toStartOfInterval(timestamp, 5)', detail: 'The interval of toStartOfInterval() must be a constant such as INTERVAL 15 MINUTE or toIntervalHour(2).' },
  { call: 'timeSlots(timestamp, 31536000, 1)', detail: 'timeSlots() may give at most 10000 slots.' },
  { call: "dateName('fortnight', timestamp)", detail: 'The part of dateName() must be one of year, quarter, month, week, dayofyear, day, weekday, hour, minute, second.' },
  { call: "age('decade', timestamp, timestamp)", detail: 'The unit of age() must be one of second, minute, hour, day, week, month, quarter, year.' },
  { call: 'timeStampAdd(timestamp, 1)', detail: 'The second argument of timeStampAdd() must be an interval, such as INTERVAL 1 DAY.' },
  { call: 'toIntervalDay(1) / 2', detail: 'Cannot divide Interval and Integer values.' },
  { call: 'toTime(timestamp)', detail: "The function toTime() is not available: ClickHouse's toTime() changed meaning between versions (a DateTime on 1970-01-02, then a value of its Time type); there is no one answer to copy." },
];

describe('query: HogQL dates, times and intervals', function () {
  this.timeout(60_000);
  const paris = new HogQLQueryClient();
  const utc = hogqlQueryServer(async ({ db, server, account: first }) => {
    await insertEvents(db, first.environment.id, [EVENT]);
    const second = await paris.connectNewAccount(server, db);
    await db('environments').where({ id: second.environment.id }).update({ timezone: 'Europe/Paris' });
    await insertEvents(db, second.environment.id, [{ ...EVENT, event: 'other' }]);
  });

  const selectOf = (calls: readonly string[]) => `select ${calls.join(', ')} from events limit 1`;

  for (const [zone, cases] of [['UTC', UTC_CASES], ['Europe/Paris', PARIS_CASES]] as const) {
    for (const c of cases) {
      it(`${zone}: ${c.name}`, async () => {
        const response = await (zone === 'UTC' ? utc : paris).post(selectOf(c.calls));
        expect(response.status, JSON.stringify(response.body)).to.equal(200);
        const row = response.body.results[0] as unknown[];
        // Compared call by call, so that a failure names the call.
        expect(Object.fromEntries(c.calls.map((call, index) => [call, row[index]]))).to.deep.equal(
          Object.fromEntries(c.calls.map((call, index) => [call, c.row[index]])),
        );
      });
    }
  }

  it("reads one environment's event only", async () => {
    const response = await utc.post('select event, count() from events group by event');
    expect(response.status).to.equal(200);
    expect(response.body.results).to.deep.equal([['leap', 1]]);
  });

  itRefuses(
    REFUSALS.map((refusal) => ({ name: refusal.call, query: selectOf([refusal.call]), detail: refusal.detail })),
    utc,
  );
});
