import { expect } from 'chai';
import {
  backfillWindows,
  floorToInterval,
  intervalEndsBetween,
  intervalStart,
  type ExportSchedule,
} from '../../handlers/jobs/schedule.js';

const iso = (date: Date | null) => (date === null ? null : date.toISOString());
const at = (text: string) => new Date(text);

describe('batch export schedule math', () => {
  describe('interval ends between two instants', () => {
    const cases: Array<{ name: string; schedule: ExportSchedule; after: string; until: string; ends: string[] }> = [
      {
        name: 'hour, UTC',
        schedule: { interval: 'hour', timezone: 'UTC', intervalOffset: 0 },
        after: '2024-03-01T10:15:00Z',
        until: '2024-03-01T13:00:00Z',
        ends: ['2024-03-01T11:00:00.000Z', '2024-03-01T12:00:00.000Z', '2024-03-01T13:00:00.000Z'],
      },
      {
        name: 'hour: an end equal to `after` is excluded, one equal to `until` included',
        schedule: { interval: 'hour', timezone: 'UTC', intervalOffset: 0 },
        after: '2024-03-01T10:00:00Z',
        until: '2024-03-01T11:00:00Z',
        ends: ['2024-03-01T11:00:00.000Z'],
      },
      {
        name: 'hour in a half-hour timezone stays on UTC hours (an interval schedule)',
        schedule: { interval: 'hour', timezone: 'Asia/Kolkata', intervalOffset: 0 },
        after: '2024-03-01T10:15:00Z',
        until: '2024-03-01T11:59:00Z',
        ends: ['2024-03-01T11:00:00.000Z'],
      },
      {
        name: 'every 5 minutes',
        schedule: { interval: 'every 5 minutes', timezone: 'UTC', intervalOffset: 0 },
        after: '2024-03-01T10:03:00Z',
        until: '2024-03-01T10:16:00Z',
        ends: ['2024-03-01T10:05:00.000Z', '2024-03-01T10:10:00.000Z', '2024-03-01T10:15:00.000Z'],
      },
      {
        name: 'every 15 minutes',
        schedule: { interval: 'every 15 minutes', timezone: 'UTC', intervalOffset: 0 },
        after: '2024-03-01T10:00:00Z',
        until: '2024-03-01T10:45:00Z',
        ends: ['2024-03-01T10:15:00.000Z', '2024-03-01T10:30:00.000Z', '2024-03-01T10:45:00.000Z'],
      },
      {
        name: 'day, UTC',
        schedule: { interval: 'day', timezone: 'UTC', intervalOffset: 0 },
        after: '2024-03-01T10:00:00Z',
        until: '2024-03-03T00:00:00Z',
        ends: ['2024-03-02T00:00:00.000Z', '2024-03-03T00:00:00.000Z'],
      },
      {
        name: 'day with offset_hour 5',
        schedule: { interval: 'day', timezone: 'UTC', intervalOffset: 5 * 3600 },
        after: '2024-03-01T04:00:00Z',
        until: '2024-03-02T06:00:00Z',
        ends: ['2024-03-01T05:00:00.000Z', '2024-03-02T05:00:00.000Z'],
      },
      {
        name: 'day in New York across the spring DST change (a 23-hour day)',
        schedule: { interval: 'day', timezone: 'America/New_York', intervalOffset: 0 },
        after: '2024-03-09T12:00:00Z',
        until: '2024-03-12T12:00:00Z',
        ends: ['2024-03-10T05:00:00.000Z', '2024-03-11T04:00:00.000Z', '2024-03-12T04:00:00.000Z'],
      },
      {
        name: 'day in Berlin across the autumn DST change (a 25-hour day)',
        schedule: { interval: 'day', timezone: 'Europe/Berlin', intervalOffset: 0 },
        after: '2024-10-26T12:00:00Z',
        until: '2024-10-28T12:00:00Z',
        ends: ['2024-10-26T22:00:00.000Z', '2024-10-27T23:00:00.000Z'],
      },
      {
        name: 'day at an hour the spring DST change skips moves forward by the gap',
        schedule: { interval: 'day', timezone: 'Europe/Berlin', intervalOffset: 2 * 3600 + 30 * 60 },
        after: '2024-03-30T12:00:00Z',
        until: '2024-04-01T12:00:00Z',
        // 02:30 on 31 March does not exist in Berlin: 03:30 CEST = 01:30Z; the next day 02:30 CEST = 00:30Z.
        ends: ['2024-03-31T01:30:00.000Z', '2024-04-01T00:30:00.000Z'],
      },
      {
        name: 'week, UTC, Sunday midnight',
        schedule: { interval: 'week', timezone: 'UTC', intervalOffset: 0 },
        after: '2024-03-01T00:00:00Z', // a Friday
        until: '2024-03-18T00:00:00Z',
        ends: ['2024-03-03T00:00:00.000Z', '2024-03-10T00:00:00.000Z', '2024-03-17T00:00:00.000Z'],
      },
      {
        name: 'week with offset_day 1 (Monday) and offset_hour 9 in Tokyo',
        schedule: { interval: 'week', timezone: 'Asia/Tokyo', intervalOffset: 86400 + 9 * 3600 },
        after: '2024-03-01T00:00:00Z',
        until: '2024-03-12T00:00:00Z',
        // Monday 09:00 JST = Monday 00:00Z.
        ends: ['2024-03-04T00:00:00.000Z', '2024-03-11T00:00:00.000Z'],
      },
      {
        name: 'nothing when until is not after `after`',
        schedule: { interval: 'hour', timezone: 'UTC', intervalOffset: 0 },
        after: '2024-03-01T10:00:00Z',
        until: '2024-03-01T10:00:00Z',
        ends: [],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        expect(intervalEndsBetween(c.schedule, at(c.after), at(c.until)).map(iso)).to.deep.equal(c.ends);
      });
    }

    it('stops at the limit, oldest first', () => {
      const schedule: ExportSchedule = { interval: 'every 5 minutes', timezone: 'UTC', intervalOffset: 0 };
      const ends = intervalEndsBetween(schedule, at('2024-01-01T00:00:00Z'), at('2024-02-01T00:00:00Z'), 2);
      expect(ends.map(iso)).to.deep.equal(['2024-01-01T00:05:00.000Z', '2024-01-01T00:10:00.000Z']);
    });
  });

  describe('interval start and floor', () => {
    const cases: Array<{ name: string; schedule: ExportSchedule; end: string; start: string }> = [
      { name: 'hour', schedule: { interval: 'hour', timezone: 'UTC', intervalOffset: 0 }, end: '2024-03-01T11:00:00Z', start: '2024-03-01T10:00:00.000Z' },
      {
        name: 'every 5 minutes',
        schedule: { interval: 'every 5 minutes', timezone: 'UTC', intervalOffset: 0 },
        end: '2024-03-01T11:00:00Z',
        start: '2024-03-01T10:55:00.000Z',
      },
      {
        name: 'a 23-hour DST day starts at the previous local midnight',
        schedule: { interval: 'day', timezone: 'America/New_York', intervalOffset: 0 },
        end: '2024-03-11T04:00:00Z',
        start: '2024-03-10T05:00:00.000Z',
      },
      { name: 'week', schedule: { interval: 'week', timezone: 'UTC', intervalOffset: 0 }, end: '2024-03-10T00:00:00Z', start: '2024-03-03T00:00:00.000Z' },
    ];
    for (const c of cases) {
      it(c.name, () => expect(iso(intervalStart(c.schedule, at(c.end)))).to.equal(c.start));
    }

    it('floors an instant to the latest end at or before it', () => {
      const schedule: ExportSchedule = { interval: 'day', timezone: 'Europe/Berlin', intervalOffset: 0 };
      expect(iso(floorToInterval(schedule, at('2024-03-05T10:00:00Z')))).to.equal('2024-03-04T23:00:00.000Z');
      expect(iso(floorToInterval(schedule, at('2024-03-04T23:00:00Z')))).to.equal('2024-03-04T23:00:00.000Z');
    });
  });

  describe('backfill windows', () => {
    const cases: Array<{ name: string; schedule: ExportSchedule; start: string | null; end: string; windows: Array<[string | null, string]> }> = [
      {
        name: 'hour: consecutive windows, the final partial one dropped',
        schedule: { interval: 'hour', timezone: 'UTC', intervalOffset: 0 },
        start: '2024-03-01T10:00:00Z',
        end: '2024-03-01T12:30:00Z',
        windows: [
          ['2024-03-01T10:00:00.000Z', '2024-03-01T11:00:00.000Z'],
          ['2024-03-01T11:00:00.000Z', '2024-03-01T12:00:00.000Z'],
        ],
      },
      {
        name: 'every 5 minutes from an unaligned start keeps its phase',
        schedule: { interval: 'every 5 minutes', timezone: 'UTC', intervalOffset: 0 },
        start: '2024-03-01T10:02:00Z',
        end: '2024-03-01T10:12:00Z',
        windows: [
          ['2024-03-01T10:02:00.000Z', '2024-03-01T10:07:00.000Z'],
          ['2024-03-01T10:07:00.000Z', '2024-03-01T10:12:00.000Z'],
        ],
      },
      {
        name: 'day in New York steps in local time across DST (23 hours)',
        schedule: { interval: 'day', timezone: 'America/New_York', intervalOffset: 0 },
        start: '2024-03-09T05:00:00Z',
        end: '2024-03-11T04:00:00Z',
        windows: [
          ['2024-03-09T05:00:00.000Z', '2024-03-10T05:00:00.000Z'],
          ['2024-03-10T05:00:00.000Z', '2024-03-11T04:00:00.000Z'],
        ],
      },
      {
        name: 'week in UTC',
        schedule: { interval: 'week', timezone: 'UTC', intervalOffset: 0 },
        start: '2024-03-03T00:00:00Z',
        end: '2024-03-20T00:00:00Z',
        windows: [
          ['2024-03-03T00:00:00.000Z', '2024-03-10T00:00:00.000Z'],
          ['2024-03-10T00:00:00.000Z', '2024-03-17T00:00:00.000Z'],
        ],
      },
      {
        name: 'a range shorter than one step has no window',
        schedule: { interval: 'day', timezone: 'UTC', intervalOffset: 0 },
        start: '2024-03-03T00:00:00Z',
        end: '2024-03-03T23:00:00Z',
        windows: [],
      },
      {
        name: 'no start: one window from the beginning of the data',
        schedule: { interval: 'hour', timezone: 'UTC', intervalOffset: 0 },
        start: null,
        end: '2024-03-03T23:00:00Z',
        windows: [[null, '2024-03-03T23:00:00.000Z']],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const windows = backfillWindows(c.schedule, c.start === null ? null : at(c.start), at(c.end));
        expect(windows.map((w) => [iso(w.start), iso(w.end)])).to.deep.equal(c.windows);
      });
    }

    it('pages: windows from a window\'s end on, at most `limit`, are the same grid as the full list, across a DST change', () => {
      const schedule: ExportSchedule = { interval: 'day', timezone: 'Europe/Berlin', intervalOffset: 3600 };
      const start = at('2024-03-28T00:00:00Z');
      const end = at('2024-04-03T12:00:00Z');
      const all = backfillWindows(schedule, start, end);
      const pages = [];
      for (let from: Date = start; ; ) {
        const page = backfillWindows(schedule, from, end, 2);
        pages.push(page.length);
        if (page.length === 0) break;
        from = page[page.length - 1]!.end;
      }
      expect(pages).to.deep.equal([2, 2, 2, 0]);
      const paged = [];
      for (let from: Date = start, page = backfillWindows(schedule, from, end, 2); page.length > 0; page = backfillWindows(schedule, from, end, 2)) {
        paged.push(...page);
        from = page[page.length - 1]!.end;
      }
      expect(paged.map((w) => [iso(w.start), iso(w.end)])).to.deep.equal(all.map((w) => [iso(w.start), iso(w.end)]));
      expect(iso(all[3]!.start)).to.equal('2024-03-31T00:00:00.000Z');
    });
  });
});
