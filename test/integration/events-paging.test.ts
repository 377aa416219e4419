/**
 * Following `next` returns every matching event exactly once, in order, however many events share a timestamp:
 * 5,000 events over three days on a few hundred distinct timestamps, paged 37 at a time, in both orders.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { insertEvents, type NewEvent } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';
import { testDb } from '../helpers/database.js';
import { micros, random } from '../helpers/event-data.js';
import { newAccount } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const TOTAL = 5000;
const PAGE = 37;

interface Stored {
  uuid: string;
  at: bigint;
  event: string;
  distinctId: string;
}

describe('events paging through next (5,000 events, many equal timestamps, limit=37)', function () {
  this.timeout(300_000);
  let server: TestServer;
  let client: HttpClient;
  let base: string;
  let personId: string;
  const stored: Stored[] = [];

  before(async () => {
    server = await startTestServer();
    const account = await newAccount(testDb(), { scopes: ['query:read'] });
    client = server.http.withKey(account.key);
    base = `/api/projects/${account.environment.id}/events/`;
    const next = random(20261121);
    // 100 instants over three days, some with microseconds; each event takes one of them.
    const start = Date.parse('2026-05-01T00:00:00Z');
    const instants = Array.from({ length: 100 }, (_, index) => {
      const ms = start + Math.floor((index / 100) * 3 * 86_400_000);
      const iso = new Date(ms).toISOString();
      return index % 3 === 0 ? iso.replace('Z', `${String(index).padStart(3, '0')}Z`) : iso;
    });
    const events: NewEvent[] = Array.from({ length: TOTAL }, () => {
      const timestamp = instants[Math.floor(next() * instants.length)]!;
      const event = next() < 0.5 ? 'a' : 'b';
      const uuid = randomUUID();
      const distinctId = `user-${Math.floor(next() * 50)}`;
      stored.push({ uuid, at: micros(timestamp), event, distinctId });
      return { uuid, event, distinct_id: distinctId, timestamp };
    });
    await insertEvents(testDb(), account.environment.id, events);
    // One person with five of the distinct ids: its events are read id by id and merged.
    const person = await insertPerson(testDb(), account.environment.id, { distinctIds: ['user-1', 'user-2', 'user-3', 'user-4', 'user-5'] });
    personId = person.id;
  });
  after(() => server.close());

  /** Follows next from `first` to the end; returns the uuids in the order received. */
  async function pageThrough(first: string): Promise<{ uuids: string[]; pages: number }> {
    const uuids: string[] = [];
    let path: string | null = first;
    let pages = 0;
    while (path) {
      const res: { status: number; text: string; body: any } = await client.get(path);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.results.length).to.be.at.most(PAGE);
      uuids.push(...res.body.results.map((event: { id: string }) => event.id));
      pages += 1;
      expect(pages, 'too many pages').to.be.at.most(TOTAL / PAGE + 2);
      if (res.body.next) {
        expect(res.body.results).to.have.length(PAGE);
        const url: URL = new URL(res.body.next);
        path = `${url.pathname}${url.search}`;
      } else {
        path = null;
      }
    }
    return { uuids, pages };
  }

  const order = (direction: 'asc' | 'desc') => (x: Stored, y: Stored) => {
    const sign = direction === 'asc' ? 1 : -1;
    if (x.at !== y.at) return x.at < y.at ? -sign : sign;
    return x.uuid < y.uuid ? -sign : x.uuid > y.uuid ? sign : 0;
  };

  it('shares timestamps among many events (the case that loses events when paging by timestamp alone)', () => {
    const perInstant = new Map<bigint, number>();
    for (const event of stored) perInstant.set(event.at, (perInstant.get(event.at) ?? 0) + 1);
    expect(perInstant.size).to.be.at.most(100);
    expect(Math.max(...perInstant.values())).to.be.greaterThan(PAGE);
  });

  for (const direction of ['desc', 'asc'] as const) {
    it(`returns each event exactly once, newest ${direction === 'desc' ? 'first' : 'last'}`, async () => {
      const query = direction === 'asc' ? `?limit=${PAGE}&orderBy=${encodeURIComponent('["timestamp"]')}` : `?limit=${PAGE}`;
      const { uuids, pages } = await pageThrough(`${base}${query}`);
      expect(pages).to.equal(Math.ceil(TOTAL / PAGE));
      expect(uuids).to.have.length(TOTAL);
      expect(new Set(uuids).size).to.equal(TOTAL);
      expect(uuids).to.deep.equal([...stored].sort(order(direction)).map((event) => event.uuid));
    });
  }

  for (const direction of ['desc', 'asc'] as const) {
    it(`does the same for one person's five distinct ids, ${direction === 'desc' ? 'newest' : 'oldest'} first`, async () => {
      const query = new URLSearchParams({ limit: String(PAGE), person_id: personId, orderBy: direction === 'asc' ? '["timestamp"]' : '["-timestamp"]' });
      const { uuids } = await pageThrough(`${base}?${query.toString()}`);
      const mine = new Set(['user-1', 'user-2', 'user-3', 'user-4', 'user-5']);
      const want = stored.filter((event) => mine.has(event.distinctId)).sort(order(direction));
      expect(want.length).to.be.greaterThan(300);
      expect(uuids).to.deep.equal(want.map((event) => event.uuid));
    });
  }

  it('does the same inside a window and with a filter', async () => {
    const after = '2026-05-01T12:00:00Z';
    const before = '2026-05-03T12:00:00Z';
    const query = new URLSearchParams({ limit: String(PAGE), event: 'a', after, before, orderBy: '["timestamp"]' });
    const { uuids } = await pageThrough(`${base}?${query.toString()}`);
    const low = micros(after);
    const high = micros(before);
    const want = stored.filter((event) => event.event === 'a' && event.at > low && event.at < high).sort(order('asc'));
    expect(want.length).to.be.greaterThan(1000);
    expect(uuids).to.deep.equal(want.map((event) => event.uuid));
  });
});
