/**
 * Person filters that match more distinct ids than the listing looks up first: it probes the first events, then
 * reads on event by event or matches a hashed set of the persons' distinct ids (PersonFilterTuning in
 * db/queries/events/listing.ts). With the tuning shrunk, a small project takes each way; following `next` returns
 * every matching event exactly once, in order, whichever way each page took.
 */
import { expect } from 'chai';
import { createReadDb } from '../../db/pg/client.js';
import { ApiError } from '../../db/core/errors.js';
import { PERSON_FILTER_TUNING, listEvents, type PersonFilterStrategy, type PersonFilterTuning } from '../../db/queries/events/listing.js';
import { parseEventListRequest, type EventListRequest } from '../../handlers/events/request.js';
import type { EnvironmentRow } from '../../db/rows.js';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPersons, type NewPerson } from '../helpers/seed-persons.js';
import { testDb } from '../helpers/database.js';
import { micros, random, seededUuid } from '../helpers/event-data.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PERSONS = 120;
const EVENTS = 900;
const PAGE = 7;

interface Stored {
  uuid: string;
  at: bigint;
  event: string;
  n: number;
  /** The index of the event's person, or null for a distinct id without one. */
  person: number | null;
}

/** 5 % of persons are on enterprise, 75 % on free, 20 % on pro. */
const plan = (index: number) => (index < 6 ? 'enterprise' : index < 96 ? 'free' : 'pro');
/** `level` by index modulo 6: 1, "1", 1.0 (JSON of JS has no 1.0: rewritten in SQL), true, "true", "01". */
const LEVELS: unknown[] = [1, '1', 1, true, 'true', '01'];

interface Case {
  /** The way the tuning forces. */
  way: keyof typeof TUNINGS;
  name: string;
  properties: unknown[];
  params?: Record<string, string>;
  matches: (event: Stored) => boolean;
}

/** Ways that force one path: a probe of 5 events never fills a page of 7 (+1). */
const TUNINGS: Record<string, Omit<PersonFilterTuning, 'trace'>> = {
  probe: { lookupLimit: 5, probeEvents: 30, joinEvents: 100 },
  join: { lookupLimit: 5, probeEvents: 5, joinEvents: Infinity },
  subquery: { lookupLimit: 5, probeEvents: 5, joinEvents: 0 },
  // The listing before the probe: any matching id makes it read each event's person.
  plain: { lookupLimit: 0, probeEvents: 0, joinEvents: Infinity },
};

describe('events paging with person filters over many persons (each way, limit=7)', function () {
  this.timeout(300_000);
  let server: TestServer;
  let client: HttpClient;
  let base: string;
  const stored: Stored[] = [];
  const saved = { ...PERSON_FILTER_TUNING };
  let strategies: PersonFilterStrategy[] = [];
  let environment: EnvironmentRow;
  /** A listing's request as the handler parses it. */
  const listing = (request: EventListRequest) => parseEventListRequest(request, environment.timezone);

  before(async () => {
    server = await startTestServer();
    const account = await newAccount(testDb(), { scopes: ['query:read'] });
    environment = account.environment;
    client = server.http.withKey(account.key);
    base = `/api/projects/${account.environment.id}/events/`;
    const team = account.environment.id;
    const next = random(20261122);
    // Every tenth person has a second distinct id; ten distinct ids have no person.
    const persons: NewPerson[] = Array.from({ length: PERSONS }, (_, index) => ({
      distinctIds: index % 10 === 0 ? [`u${index}`, `u${index}-b`] : [`u${index}`],
      properties: { plan: plan(index), email: `user${index}@example.com`, level: LEVELS[index % 6] },
    }));
    await insertPersons(testDb(), team, persons);
    const ids = persons.flatMap((person, index) => person.distinctIds.map((id) => ({ id, person: index as number | null })));
    ids.push(...Array.from({ length: 10 }, (_, index) => ({ id: `anon-${index}`, person: null })));
    const emails = persons.filter((_, index) => index % 6 === 2).map((person) => String(person.properties!.email));
    await testDb().raw(
      `update persons set properties = jsonb_set(properties, '{level}', '1.0'::jsonb) where team_id = ? and properties ->> 'email' = any(?::text[])`,
      [team, emails],
    );
    // 80 instants over two days, some with microseconds: many events share a timestamp.
    const start = Date.parse('2026-06-01T00:00:00Z');
    const instants = Array.from({ length: 80 }, (_, index) => {
      const iso = new Date(start + Math.floor((index / 80) * 2 * 86_400_000)).toISOString();
      return index % 3 === 0 ? iso.replace('Z', `${String(index).padStart(3, '0')}Z`) : iso;
    });
    const events: NewEvent[] = Array.from({ length: EVENTS }, (_, index) => {
      const timestamp = instants[Math.floor(next() * instants.length)]!;
      const { id, person } = ids[Math.floor(next() * ids.length)]!;
      const event = next() < 0.5 ? 'a' : 'b';
      const uuid = seededUuid(next);
      stored.push({ uuid, at: micros(timestamp), event, n: index % 3, person });
      return { uuid, event, distinct_id: id, timestamp, properties: { n: index % 3 } };
    });
    await insertEvents(testDb(), team, events);
  });
  afterEach(() => {
    Object.assign(PERSON_FILTER_TUNING, saved, { trace: undefined });
    strategies = [];
  });
  after(() => server.close());

  function tune(name: keyof typeof TUNINGS): void {
    Object.assign(PERSON_FILTER_TUNING, TUNINGS[name], { trace: (strategy: PersonFilterStrategy) => strategies.push(strategy) });
  }

  const order = (direction: 'asc' | 'desc') => (x: Stored, y: Stored) => {
    const sign = direction === 'asc' ? 1 : -1;
    if (x.at !== y.at) return x.at < y.at ? -sign : sign;
    return x.uuid < y.uuid ? -sign : x.uuid > y.uuid ? sign : 0;
  };

  /**
   * Follows next from the first page to the end; returns the uuids in the order received. With `select`, the
   * first selected column is the uuid.
   */
  async function pageThrough(params: Record<string, string>, direction: 'asc' | 'desc'): Promise<string[]> {
    const orderBy = JSON.stringify([direction === 'asc' ? 'timestamp' : '-timestamp']);
    const query = new URLSearchParams({ ...params, limit: String(PAGE), orderBy });
    let path: string | null = `${base}?${query.toString()}`;
    const uuids: string[] = [];
    while (path) {
      const res: { status: number; text: string; body: any } = await client.get(path);
      expect(res.status, res.text).to.equal(200);
      uuids.push(...res.body.results.map((row: { id: string } | string[]) => (Array.isArray(row) ? row[0] : row.id)));
      expect(uuids.length, 'too many events').to.be.at.most(EVENTS);
      if (res.body.next) {
        expect(res.body.results).to.have.length(PAGE);
        const url: URL = new URL(res.body.next);
        path = `${url.pathname}${url.search}`;
      } else {
        path = null;
      }
    }
    return uuids;
  }

  function want(direction: 'asc' | 'desc', matches: (event: Stored) => boolean): string[] {
    return stored.filter(matches).sort(order(direction)).map((event) => event.uuid);
  }

  const person = (event: Stored, test: (index: number) => boolean) => event.person !== null && test(event.person);
  const cases: Case[] = [
    {
      way: 'probe',
      name: 'plan=free (75 %)',
      properties: [{ key: 'plan', value: 'free', type: 'person' }],
      matches: (e) => person(e, (i) => plan(i) === 'free'),
    },
    {
      way: 'probe',
      name: 'plan=free with event=a and n=1, which bound the probe',
      properties: [{ key: 'plan', value: 'free', type: 'person' }, { key: 'n', value: 1 }],
      params: { event: 'a' },
      matches: (e) => e.event === 'a' && e.n === 1 && person(e, (i) => plan(i) === 'free'),
    },
    {
      way: 'probe',
      name: 'plan in (free, pro) and a group reading the person, tested after the probe’s bound',
      properties: [
        { key: 'plan', value: ['free', 'pro'], operator: 'in', type: 'person' },
        { type: 'OR', values: [{ key: 'email', value: 'user', operator: 'icontains', type: 'person' }] },
      ],
      matches: (e) => person(e, (i) => plan(i) !== 'enterprise'),
    },
    {
      way: 'join',
      name: 'plan=pro (20 %)',
      properties: [{ key: 'plan', value: 'pro', type: 'person' }],
      matches: (e) => person(e, (i) => plan(i) === 'pro'),
    },
    {
      way: 'subquery',
      name: 'plan=enterprise (5 %)',
      properties: [{ key: 'plan', value: 'enterprise', type: 'person' }],
      matches: (e) => person(e, (i) => plan(i) === 'enterprise'),
    },
    {
      way: 'subquery',
      name: 'plan=free inside a window',
      properties: [{ key: 'plan', value: 'free', type: 'person' }],
      params: { after: '2026-06-01T12:00:00Z', before: '2026-06-02T12:00:00Z' },
      matches: (e) =>
        e.at > micros('2026-06-01T12:00:00Z') && e.at < micros('2026-06-02T12:00:00Z') && person(e, (i) => plan(i) === 'free'),
    },
  ];

  for (const item of cases) {
    for (const direction of ['desc', 'asc'] as const) {
      it(`${item.name}: every matching event once, ${direction}, through ${item.way}`, async () => {
        tune(item.way);
        const uuids = await pageThrough({ ...item.params, properties: JSON.stringify(item.properties) }, direction);
        const wanted = want(direction, item.matches);
        expect(wanted.length).to.be.greaterThan(3 * PAGE);
        expect(uuids).to.deep.equal(wanted);
        if (item.way === 'probe') {
          // A page the probe cannot fill (the last ones) goes on another way.
          expect(strategies).to.include('probe');
          expect(strategies.filter((strategy) => strategy === 'probe').length).to.be.greaterThan(strategies.length / 2);
        } else {
          expect(new Set(strategies)).to.deep.equal(new Set([item.way]));
        }
      });
    }
  }

  for (const way of ['probe', 'subquery'] as const) {
    it(`pages the rows of a select the same way (${way})`, async () => {
      tune(way);
      const properties = JSON.stringify([{ key: 'plan', value: way === 'probe' ? 'free' : 'enterprise', type: 'person' }]);
      const uuids = await pageThrough({ properties, select: JSON.stringify(['uuid', 'event']) }, 'asc');
      expect(uuids).to.deep.equal(want('asc', (e) => person(e, (i) => plan(i) === (way === 'probe' ? 'free' : 'enterprise'))));
      expect(strategies).to.include(way);
    });
  }

  it('counts with aggregates over every matching event, whatever the tuning', async () => {
    tune('probe');
    const query = new URLSearchParams({
      properties: JSON.stringify([{ key: 'plan', value: 'free', type: 'person' }]),
      select: JSON.stringify(['count()']),
    });
    const res = await client.get(`${base}?${query.toString()}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.results).to.deep.equal([[stored.filter((e) => person(e, (i) => plan(i) === 'free')).length]]);
    expect(strategies).to.deep.equal(['join']);
  });

  it('answers a value with a lone surrogate, which JSON text cannot hold, as before: no match', async () => {
    tune('subquery');
    const properties = JSON.stringify([{ key: 'plan', value: 'free\ud800', type: 'person' }]);
    const res = await client.get(`${base}?${new URLSearchParams({ properties })}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.results).to.deep.equal([]);
  });

  it('probes on a second session while it looks the ids up, and on its own when the pool has no other', async () => {
    const free = want('desc', (e) => person(e, (i) => plan(i) === 'free')).slice(0, PAGE);
    for (const sessions of [2, 1]) {
      const reader = createReadDb(testDb(), 5000, { poolMax: sessions });
      try {
        const ways: PersonFilterStrategy[] = [];
        const page = await listEvents(
          reader,
          environment,
          listing({ properties: JSON.stringify([{ key: 'plan', value: 'free', type: 'person' }]), limit: PAGE, offset: 0 }),
          5000,
          { ...TUNINGS.probe!, trace: (way) => ways.push(way) },
        );
        expect(page.kind).to.equal('events');
        expect(page.kind === 'events' && page.rows.map((row) => row.id)).to.deep.equal(free);
        expect(ways).to.deep.equal(['probe']);
        const pool = (reader.client as unknown as { pool: { numFree(): number; numUsed(): number } }).pool;
        expect(pool.numUsed(), 'sessions still lent').to.equal(0);
        expect(pool.numFree(), 'sessions opened').to.equal(sessions);
      } finally {
        await reader.destroy();
      }
    }
  });

  it('answers 504 when the probe beside the lookup runs out of time, without running it again on the page’s session', async () => {
    // The probe reads events, the lookup only persons: with events locked until the page has answered, the probe
    // waits past the statement timeout while the lookup answers. Every statement that waits for the lock is
    // counted: the probe run again on the page's session would be a second, and double the wait for the 504.
    const timeoutMs = 400;
    const reader = createReadDb(testDb(), timeoutMs, { poolMax: 2 });
    const waiting = new Set<string>();
    let answered = false;
    try {
      await testDb().transaction(async (trx) => {
        await trx.raw('lock table events in access exclusive mode');
        const page = listEvents(
          reader,
          environment,
          listing({ properties: JSON.stringify([{ key: 'plan', value: 'free', type: 'person' }]), limit: PAGE, offset: 0 }),
          timeoutMs,
          { ...TUNINGS.probe!, trace: () => undefined },
        ).finally(() => (answered = true));
        page.catch(() => undefined);
        while (!answered) {
          const { rows } = (await testDb().raw(
            `select pid, query_start::text as started from pg_stat_activity
              where datname = current_database() and wait_event_type = 'Lock' and query like '%from events e%'`,
          )) as { rows: { pid: number; started: string }[] };
          for (const row of rows) waiting.add(`${row.pid} ${row.started}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const outcome = await page.then(
          () => 'answered',
          (error: unknown) => error,
        );
        expect(outcome).to.be.instanceOf(ApiError);
        expect([(outcome as ApiError).status, (outcome as ApiError).code]).to.deep.equal([504, 'query_timeout']);
      });
      expect(waiting.size, 'statements that waited for events').to.equal(1);
    } finally {
      await reader.destroy();
    }
  });

  it('runs no probe beside the lookup for aggregates, which read every event anyway', async () => {
    const reader = createReadDb(testDb(), 5000, { poolMax: 2 });
    try {
      const page = await listEvents(
        reader,
        environment,
        listing({
          properties: JSON.stringify([{ key: 'plan', value: 'free', type: 'person' }]),
          select: JSON.stringify(['count()']),
          limit: PAGE,
          offset: 0,
        }),
        5000,
        { ...TUNINGS.probe!, trace: () => undefined },
      );
      expect(page.kind === 'rows' && page.results).to.deep.equal([[stored.filter((e) => person(e, (i) => plan(i) === 'free')).length]]);
      const pool = (reader.client as unknown as { pool: { numFree(): number } }).pool;
      expect(pool.numFree(), 'sessions opened').to.equal(1);
    } finally {
      await reader.destroy();
    }
  });

  it('looks up the distinct ids first when they are few (one person)', async () => {
    tune('subquery');
    const properties = JSON.stringify([{ key: 'email', value: 'user10@example.com', type: 'person' }]);
    for (const direction of ['desc', 'asc'] as const) {
      const uuids = await pageThrough({ properties }, direction);
      expect(uuids).to.deep.equal(want(direction, (e) => e.person === 10));
    }
    expect(new Set(strategies)).to.deep.equal(new Set(['lookup']));
  });

  describe('a property stored as a number, a string or a boolean matches as before, whichever way', () => {
    const levelCases: [string, unknown, number[]][] = [
      // `->>` prints the number 1 as "1" and 1.0 as "1.0"; the containment prefilter must not change that.
      ['"1"', '1', [0, 1]],
      ['"true"', 'true', [3, 4]],
      // A number is compared as a number: "01" and true are 1, "true" is not a number.
      ['1', 1, [0, 1, 2, 3, 5]],
    ];
    for (const [name, value, levels] of levelCases) {
      it(`level = ${name}`, async () => {
        const properties = JSON.stringify([{ key: 'level', value, type: 'person' }]);
        const wanted = want('desc', (e) => person(e, (i) => levels.includes(i % 6)));
        for (const way of ['plain', 'probe', 'join', 'subquery'] as const) {
          tune(way);
          expect(await pageThrough({ properties }, 'desc'), way).to.deep.equal(wanted);
        }
        expect(new Set(strategies)).to.include.members(['probe', 'join', 'subquery']);
      });
    }
  });
});
