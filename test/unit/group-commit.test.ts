import { expect } from 'chai';
import pino from 'pino';
import type { Db } from '../../db/pg/client.js';
import { GroupCommit, type GroupCommitOptions } from '../../db/pg/group-commit.js';

/**
 * A group commit over a database that is never asked anything: each transaction's work records its items and
 * waits until the test lets it go on, so that the test decides which transactions are in flight; a transaction
 * holding more than one item and one that `refuses` then fails.
 */
function harness(options: Partial<GroupCommitOptions<number>>, refuses: (item: number) => boolean = () => false) {
  const db = { client: { acquireConnection: async () => ({}), releaseConnection: async () => undefined } } as unknown as Db;
  const started: number[][] = [];
  const gates: Array<() => void> = [];
  const observed: Array<{ items: number; ok: boolean; overlapped: boolean }> = [];
  const commit = new GroupCommit<number>(
    db,
    async (_transaction, items) => {
      started.push(items);
      await new Promise<void>((resolve) => gates.push(resolve));
      if (items.length > 1 && items.some(refuses)) throw new Error('refused by the test');
    },
    {
      maxBatchSize: 1000,
      maxInFlight: 1,
      commitTimeoutMs: 60_000,
      size: () => 1,
      logger: pino({ level: 'silent' }),
      observe: ({ items, ok, overlapped }) => observed.push({ items, ok, overlapped }),
      ...options,
    },
  );
  const stored: number[] = [];
  return {
    started,
    stored,
    observed,
    submit: (...items: number[]) => items.forEach((item) => void commit.submit(item).then(() => stored.push(item))),
    /** Lets the `index`-th transaction started commit. */
    release: (index: number) => gates[index]!(),
    /** Lets everything queued and started run: a few turns of the event loop. */
    settle: async () => {
      for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    },
    drain: () => commit.drain(),
  };
}

describe('group commit (db/pg/group-commit.ts)', () => {
  it('with one transaction in flight, puts everything that queued meanwhile into the next one', async () => {
    const h = harness({ maxInFlight: 1 });
    h.submit(1);
    await h.settle();
    h.submit(2, 3, 4);
    await h.settle();
    expect(h.started).to.deep.equal([[1]]);
    h.release(0);
    await h.settle();
    expect(h.started).to.deep.equal([[1], [2, 3, 4]]);
    expect(h.stored).to.deep.equal([1]);
    h.release(1);
    await h.drain();
    expect(h.stored).to.deep.equal([1, 2, 3, 4]);
  });

  it('starts a second transaction while one is in flight only once the queue holds overlapFromSize', async () => {
    const h = harness({ maxInFlight: 2, overlapFromSize: 5 });
    h.submit(1);
    await h.settle();
    expect(h.started).to.deep.equal([[1]]);
    h.submit(2, 3, 4, 5);
    await h.settle();
    expect(h.started, 'four queued: they wait for the commit in flight').to.deep.equal([[1]]);
    h.submit(6);
    await h.settle();
    expect(h.started, 'five queued: a second transaction').to.deep.equal([[1], [2, 3, 4, 5, 6]]);
    h.submit(7, 8, 9, 10, 11, 12);
    await h.settle();
    expect(h.started, 'never more than maxInFlight').to.have.length(2);
    h.release(0);
    await h.settle();
    expect(h.started[2]).to.deep.equal([7, 8, 9, 10, 11, 12]);
    h.submit(13);
    await h.settle();
    expect(h.started, 'one queued beside one in flight: it waits').to.have.length(3);
    h.release(1);
    h.release(2);
    await h.settle();
    expect(h.started[3]).to.deep.equal([13]);
    h.release(3);
    await h.drain();
    expect(h.stored.sort((a, b) => a - b)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('starts the second transaction at once when a batch closed at maxBatchSize leaves enough behind', async () => {
    const h = harness({ maxInFlight: 2, overlapFromSize: 3, maxBatchSize: 4 });
    h.submit(1, 2, 3, 4, 5, 6, 7, 8, 9);
    await h.settle();
    expect(h.started).to.deep.equal([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    h.release(0);
    h.release(1);
    await h.settle();
    h.release(2);
    await h.drain();
    expect(h.started[2]).to.deep.equal([9]);
  });

  it('tells which transactions started beside another, retries of a failed batch each by its own start', async () => {
    const h = harness({ maxInFlight: 2, overlapFromSize: 2 }, (item) => item === 3);
    h.submit(1);
    await h.settle();
    h.submit(2, 3);
    await h.settle();
    expect(h.started).to.deep.equal([[1], [2, 3]]);
    h.release(0);
    await h.settle();
    h.release(1); // [2, 3] fails, alone now: its items are retried one by one, with nothing else in flight
    await h.settle();
    h.release(2);
    await h.settle();
    h.release(3);
    await h.drain();
    expect(h.started).to.deep.equal([[1], [2, 3], [2], [3]]);
    expect(h.observed).to.deep.equal([
      { items: 1, ok: true, overlapped: false },
      { items: 2, ok: false, overlapped: true },
      { items: 1, ok: true, overlapped: false },
      { items: 1, ok: true, overlapped: false },
    ]);
    expect(h.stored).to.deep.equal([1, 2, 3]);
  });

  it('counts the queue by the items’ sizes, and closes a batch at maxBatchSize without splitting an item', async () => {
    const sizes: Record<number, number> = { 1: 1, 2: 300, 3: 300, 4: 500, 5: 1 };
    const h = harness({ maxInFlight: 2, overlapFromSize: 600, maxBatchSize: 700, size: (item) => sizes[item]! });
    h.submit(1);
    await h.settle();
    h.submit(2);
    await h.settle();
    expect(h.started, '300 queued').to.deep.equal([[1]]);
    h.submit(3, 4);
    await h.settle();
    expect(h.started, '1,100 queued: a batch of 600, then 500 waits').to.deep.equal([[1], [2, 3]]);
    h.release(0);
    h.release(1);
    await h.settle();
    expect(h.started[2]).to.deep.equal([4]);
    h.release(2);
    h.submit(5);
    await h.settle();
    h.release(3);
    await h.drain();
    expect(h.started).to.deep.equal([[1], [2, 3], [4], [5]]);
  });

  describe('its deadline (commitTimeoutMs)', () => {
    /** A database whose connections are lent after `lendAfterMs` (never when null), recording those discarded. */
    function slowDb(lendAfterMs: number | null) {
      const lent: Array<{ __knex__disposed?: unknown }> = [];
      const released: unknown[] = [];
      const db = {
        client: {
          acquireConnection: () =>
            new Promise((resolve) => {
              if (lendAfterMs === null) return;
              setTimeout(() => {
                const connection = {};
                lent.push(connection);
                resolve(connection);
              }, lendAfterMs);
            }),
          releaseConnection: async (connection: unknown) => void released.push(connection),
        },
      } as unknown as Db;
      return { db, lent, released };
    }

    const options = { maxBatchSize: 1000, maxInFlight: 1, commitTimeoutMs: 100, size: () => 1, logger: pino({ level: 'silent' }) };
    const outcome = (promise: Promise<void>) =>
      promise.then(
        () => 'stored',
        (error: { status?: number; code?: string; headers?: Record<string, string> }) => `${error.status} ${error.code} ${error.headers?.['Retry-After']}`,
      );

    it('refuses the batch with 503 and discards the connection of a transaction that outlives it', async () => {
      const { db, lent, released } = slowDb(0);
      const commit = new GroupCommit<number>(db, () => new Promise<void>(() => undefined), options);
      const started = performance.now();
      expect(await Promise.all([outcome(commit.submit(1)), outcome(commit.submit(2))])).to.deep.equal([
        '503 service_unavailable 5',
        '503 service_unavailable 5',
      ]);
      expect(performance.now() - started).to.be.below(2000);
      expect(lent).to.have.length(1);
      expect(lent[0]!.__knex__disposed).to.be.a('string'); // never lent again
      expect(released).to.deep.equal(lent);
    });

    it('refuses the batch with 503 when no connection comes in time, and gives back the one that comes later', async () => {
      const { db, lent, released } = slowDb(300);
      let ran = false;
      const commit = new GroupCommit<number>(db, async () => void (ran = true), options);
      expect(await outcome(commit.submit(1))).to.equal('503 service_unavailable 5');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(ran).to.equal(false);
      expect(lent).to.have.length(1);
      expect(released).to.deep.equal(lent);
    });

    it('counts an item’s deadline from its submission: one queued behind a transaction that runs out of time waits no longer', async () => {
      const { db } = slowDb(0);
      const commit = new GroupCommit<number>(db, () => new Promise<void>(() => undefined), { ...options, commitTimeoutMs: 400 });
      const first = outcome(commit.submit(1));
      await new Promise((resolve) => setTimeout(resolve, 200));
      const queuedAt = performance.now();
      const second = await outcome(commit.submit(2));
      expect(performance.now() - queuedAt).to.be.below(400 + 150); // not 400 more after the first's 503
      expect([await first, second]).to.deep.equal(['503 service_unavailable 5', '503 service_unavailable 5']);
    });

    it('refuses with 503 when the pool never lends a connection', async () => {
      const { db } = slowDb(null);
      const commit = new GroupCommit<number>(db, async () => undefined, options);
      expect(await outcome(commit.submit(1))).to.equal('503 service_unavailable 5');
    });
  });
});
