/**
 * Fair shares between users: any key with organization:write makes organizations, each with an environment of
 * its own, so shares per environment alone are multiplied at will. User A makes two more organizations and
 * saturates its synchronous and asynchronous queries from all three of its environments; user B, in another
 * organization, is answered all the same, within generous bounds, and never told the database is unavailable.
 * A's queries past its user's share are 429s with Retry-After. A database of its own: the engine started here
 * must find no other test's jobs.
 */
import { expect } from 'chai';
import pino from 'pino';
import { ApiError } from '../../db/core/errors.js';
import { createDb, createReadDb, type Db } from '../../db/pg/client.js';
import { onReadSession } from '../../db/pg/read-session.js';
import { sessionsHeldByUser, tenantReader } from '../../db/pg/session-shares.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { startEngine, type RunningEngine } from '../../handlers/jobs/index.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { MembershipLevel, newAccount, newMember, type Account } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { ENDLESS_QUERY } from '../helpers/queries.js';
import { insertEvents } from '../helpers/seed-events.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

const QUERY_TIMEOUT_MS = 60_000;
const TRIVIAL = 'select count() from events';
const SYNC_LIMIT = 3;
const ASYNC_LIMIT = 10;
const FIVE_EVENTS = ['alice', 'bob', 'carol', 'dave', 'erin'].map((distinct_id, day) => ({
  event: '$pageview',
  distinct_id,
  timestamp: `2024-01-0${day + 1}T10:00:00Z`,
}));

const SYNC_TOO_MANY_FOR_USER = {
  type: 'throttled_error',
  code: 'throttled',
  detail: 'Exceeded maximum concurrency limit: 3 queries at once for this user. Retry when one has finished.',
  attr: null,
};

describe('query: fair shares of the database between users, whatever environments they make', function () {
  this.timeout(120_000);
  let name: string;
  let db: Db;
  let server: TestServer;
  let a: Account;
  let b: Account;
  let clientA: HttpClient;
  let clientB: HttpClient;
  /** A's environments: its first, and those of the two organizations it made through the API. */
  let environmentsOfA: number[];

  const queryPath = (environmentId: number) => `/api/environments/${environmentId}/query/`;
  const runNow = (client: HttpClient, environmentId: number, query: string) =>
    client.post(queryPath(environmentId), { query: { kind: 'HogQLQuery', query } });
  const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
    const started = performance.now();
    const result = await work();
    return [result, performance.now() - started];
  };
  /** The endless statements running now (compiled, each names its environment). */
  const endlessRunning = async () =>
    (
      await db.raw(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and query like '%join%join%join%' and pid <> pg_backend_pid()`,
      )
    ).rows[0].n as number;
  const cancelEndless = () =>
    db.raw(
      `select pg_cancel_backend(pid) from pg_stat_activity
       where datname = current_database() and state = 'active' and query like '%join%join%join%' and pid <> pg_backend_pid()`,
    );
  /** User query slots held now: session advisory locks of the users' slot class (db/queries/query/shares.ts). */
  const userSlotsHeld = async () =>
    (
      await db.raw(
        `select count(*)::int as n from pg_locks
         where locktype = 'advisory' and objsubid = 2 and classid between x'48675500'::int and x'486755ff'::int`,
      )
    ).rows[0].n as number;

  before(async () => {
    name = await createDatabase('hedgerow_user_shares');
    db = createDb(databaseUrl(name));
    await migrateLatest(db);
    server = await startTestServer({
      db,
      config: {
        queryTimeoutMs: QUERY_TIMEOUT_MS,
        queryConcurrencyPerEnvironment: SYNC_LIMIT,
        queryConcurrencyPerUser: SYNC_LIMIT,
        asyncQueriesPerEnvironment: ASYNC_LIMIT,
        asyncQueriesPerUser: ASYNC_LIMIT,
      },
    });
    a = await newAccount(db, { scopes: ['query:read', 'organization:write'] });
    b = await newAccount(db, { scopes: ['query:read'] });
    clientA = server.http.withKey(a.key);
    clientB = server.http.withKey(b.key);
    environmentsOfA = [a.environment.id];
    for (const organization of ['Second of A', 'Third of A']) {
      const made = await clientA.post('/api/organizations/', { name: organization });
      expect(made.status).to.equal(201);
      environmentsOfA.push((made.body.teams as Array<{ id: number }>)[0]!.id);
    }
    for (const environment of [...environmentsOfA, b.environment.id]) await insertEvents(db, environment, FIVE_EVENTS);
  });

  after(async () => {
    await cancelEndless();
    await server.close();
    await db.destroy();
    await dropDatabase(name);
  });

  describe('synchronous queries', () => {
    afterEach(async () => {
      await cancelEndless();
      await waitFor('the endless statements to end', async () => (await endlessRunning()) === 0);
    });

    it('A runs its user’s share across its environments; the rest are 429s with Retry-After; B is answered at once', async () => {
      // Two in each of A's three environments: within each environment's share, past the user's.
      const saturating = environmentsOfA.flatMap((environment) => [0, 1].map(() => runNow(clientA, environment, ENDLESS_QUERY)));
      await waitFor('A to run its share', async () => (await endlessRunning()) === SYNC_LIMIT);
      expect(await userSlotsHeld()).to.equal(SYNC_LIMIT);

      for (const environment of environmentsOfA) {
        const refused = await runNow(clientA, environment, TRIVIAL);
        expect(refused.status).to.equal(429);
        expect(refused.headers.get('retry-after')).to.equal('1');
        expect(refused.body).to.deep.equal(SYNC_TOO_MANY_FOR_USER);
      }

      for (let round = 0; round < 3; round += 1) {
        const [answer, ms] = await timed(() => runNow(clientB, b.environment.id, TRIVIAL));
        expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
        expect(answer.body.results).to.deep.equal([[5]]);
        expect(ms, `B's query took ${Math.round(ms)} ms`).to.be.below(1_000);
      }
      const listing = await clientB.get(`/api/projects/${b.environment.id}/events/?after=2024-01-01T00:00:00Z`);
      expect(listing.status).to.equal(200);
      expect(listing.body.results).to.have.length(5);
      expect(await endlessRunning()).to.equal(SYNC_LIMIT);

      await cancelEndless();
      const ended = await Promise.all(saturating);
      // Three ran until cancelled (not 200s), three were refused at once: every one a 429 of the user's share.
      const refusedAtOnce = ended.filter((answer) => answer.status === 429);
      expect(refusedAtOnce).to.have.length(SYNC_LIMIT);
      for (const answer of refusedAtOnce) expect(answer.body).to.deep.equal(SYNC_TOO_MANY_FOR_USER);
      expect(ended.map((answer) => answer.status).filter((status) => status === 200 || status === 503)).to.deep.equal([]);
      expect(await userSlotsHeld()).to.equal(0);
      const again = await runNow(clientA, environmentsOfA[2]!, TRIVIAL);
      expect(again.status).to.equal(200);
      expect(again.body.results).to.deep.equal([[5]]);
    });

    it('without limits, one user holds at most all of a process’s read sessions but one, across its environments', async () => {
      const unlimited = await startTestServer({
        db,
        config: { queryTimeoutMs: QUERY_TIMEOUT_MS, queryConcurrencyPerEnvironment: 0, queryConcurrencyPerUser: 0 },
      });
      try {
        const http = unlimited.http;
        // Six of A's endless queries, two in each environment, on a pool of five sessions: four run, two wait.
        const settled: Array<{ status: number; body: unknown; retryAfter: string | null }> = [];
        const saturating = environmentsOfA.flatMap((environment) =>
          [0, 1].map(() =>
            runNow(http.withKey(a.key), environment, ENDLESS_QUERY).then((answer) => {
              settled.push({ status: answer.status, body: answer.body, retryAfter: answer.headers.get('retry-after') });
            }),
          ),
        );
        await waitFor('A to hold four sessions', async () => (await endlessRunning()) === 4);
        const [answer, ms] = await timed(() => runNow(http.withKey(b.key), b.environment.id, TRIVIAL));
        expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
        expect(ms).to.be.below(1_000);
        expect(await endlessRunning()).to.equal(4);
        // The two that wait for A's own sessions are refused once they have waited as long as a read waits for
        // the pool: 429s, never the 503 of an unavailable database.
        await waitFor('A’s waiting queries to be refused', async () => settled.length === 2);
        for (const refused of settled) {
          expect(refused.status).to.equal(429);
          expect(refused.retryAfter).to.equal('1');
          expect(refused.body).to.deep.equal({
            type: 'throttled_error',
            code: 'throttled',
            detail: 'Exceeded maximum concurrency limit: 4 database sessions at once for this user. Retry when a read has finished.',
            attr: null,
          });
        }
        await cancelEndless();
        await Promise.all(saturating);
        expect(settled.filter((ended) => ended.status === 200 || ended.status === 503)).to.deep.equal([]);
      } finally {
        await unlimited.close();
      }
    });
  });

  describe('a process’s read sessions (db/pg/session-shares.ts)', () => {
    it('a user holds all of the pool but one whichever environment it reads; past that it waits, then is a 429', async () => {
      const shortWaits = createDb(databaseUrl(name), { deadlines: { connectTimeoutMs: 300 } });
      const reader = createReadDb(shortWaits, 5_000, { poolMax: 2 });
      try {
        const firstOfA = tenantReader(reader, { environmentId: environmentsOfA[0]!, userId: a.user.id });
        const secondOfA = tenantReader(reader, { environmentId: environmentsOfA[1]!, userId: a.user.id });
        const readerB = tenantReader(reader, { environmentId: b.environment.id, userId: b.user.id });
        let release!: () => void;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        let holds = false;
        const holding = onReadSession(firstOfA, 5_000, async (read) => {
          await read('select 1', []);
          holds = true;
          await gate;
        });
        await waitFor('A to hold its session', async () => holds);
        expect(sessionsHeldByUser(reader, a.user.id)).to.equal(1);

        // A's other environment has room of its own, its user has none: it waits for A's session, then a 429.
        const waiting = onReadSession(secondOfA, 5_000, (read) => read('select 1 as n', [])).then(
          () => null,
          (error: unknown) => error,
        );
        const { rows } = await onReadSession(readerB, 5_000, (read) => read<{ n: number }>('select 2 as n', []));
        expect(rows).to.deep.equal([{ n: 2 }]);
        const refused = (await waiting) as ApiError;
        expect(refused).to.be.instanceOf(ApiError);
        expect(refused.status).to.equal(429);
        expect(refused.headers).to.deep.equal({ 'Retry-After': '1' });
        expect(refused.toBody()).to.deep.equal({
          type: 'throttled_error',
          code: 'throttled',
          detail: 'Exceeded maximum concurrency limit: 1 database session at once for this user. Retry when a read has finished.',
          attr: null,
        });

        // One that waits less long than that gets A's session when it comes back.
        const next = onReadSession(secondOfA, 5_000, (read) => read<{ n: number }>('select 3 as n', []));
        release();
        await holding;
        expect((await next).rows).to.deep.equal([{ n: 3 }]);
        expect(sessionsHeldByUser(reader, a.user.id)).to.equal(0);
      } finally {
        await reader.destroy();
        await shortWaits.destroy();
      }
    });
    it('a read that fits its shares never waits behind a read waiting for its user’s: a colleague in the same environment goes first', async () => {
      const shortWaits = createDb(databaseUrl(name), { deadlines: { connectTimeoutMs: 300 } });
      const reader = createReadDb(shortWaits, 5_000, { poolMax: 3 });
      const colleague = await newMember(db, a.organization, MembershipLevel.member, { scopes: ['query:read'] });
      try {
        let release!: () => void;
        const gate = new Promise<void>((resolve) => {
          release = resolve;
        });
        // A holds its user's two sessions, one in each of two environments.
        let holding = 0;
        const held = [0, 1].map((n) =>
          onReadSession(tenantReader(reader, { environmentId: environmentsOfA[n]!, userId: a.user.id }), 5_000, async (read) => {
            await read('select 1', []);
            holding += 1;
            await gate;
          }),
        );
        await waitFor('A to hold its two sessions', async () => holding === 2);
        const waitingOfA = onReadSession(tenantReader(reader, { environmentId: environmentsOfA[0]!, userId: a.user.id }), 5_000, (read) =>
          read<{ n: number }>('select 4 as n', []),
        );
        // A's first environment holds one session of two: the colleague's read there is lent the pool's third.
        const { rows } = await onReadSession(tenantReader(reader, { environmentId: environmentsOfA[0]!, userId: colleague.user.id }), 5_000, (read) =>
          read<{ n: number }>('select 5 as n', []),
        );
        expect(rows).to.deep.equal([{ n: 5 }]);
        release();
        await Promise.all(held);
        expect((await waitingOfA).rows).to.deep.equal([{ n: 4 }]);
        expect(sessionsHeldByUser(reader, a.user.id)).to.equal(0);
      } finally {
        await reader.destroy();
        await shortWaits.destroy();
      }
    });
  });

  describe('asynchronous queries', () => {
    let engine: RunningEngine;
    const statusPath = (environmentId: number, id: string) => `/api/environments/${environmentId}/query/${id}/`;
    const submit = (client: HttpClient, environmentId: number, id: string, query: string) =>
      client.post(queryPath(environmentId), { query: { kind: 'HogQLQuery', query }, refresh: 'async', client_query_id: id });
    const priorityOf = async (environmentId: number, id: string) =>
      (
        await db.raw(`select j.priority from query_statuses s join pgboss.job j on j.id = s.task_id::uuid where s.team_id = ? and s.id = ?`, [
          environmentId,
          id,
        ])
      ).rows[0].priority as number;
    const runningOfA = async () =>
      (await db('query_statuses').whereIn('team_id', environmentsOfA).where({ complete: false }).whereNotNull('runner_pid').select('id')).length;

    before(async () => {
      engine = await startEngine(
        {
          databaseUrl: databaseUrl(name),
          concurrency: 1,
          leaseMs: 60_000,
          tickIntervalMs: 0,
          clockOffsetMs: 0,
          noopDelayMs: 0,
          connectTimeoutMs: 5_000,
          statementTimeoutMs: 30_000,
          queryTimeoutMs: QUERY_TIMEOUT_MS,
        },
        pino({ level: 'silent' }),
      );
    });
    after(async () => {
      await cancelEndless();
      await engine.stop();
    });

    it('A fills its user’s queue from three environments and runs on two runners; B’s query runs at once; A past its limit is a 429', async () => {
      // Four in each of A's environments: within each environment's limit; the user's ten are reached at the third.
      const submitted: Array<{ environment: number; id: string; status: number; body: unknown; retryAfter: string | null }> = [];
      for (const environment of environmentsOfA) {
        for (let n = 0; n < 4; n += 1) {
          const id = `a-${environment}-${n}`;
          const answer = await submit(clientA, environment, id, ENDLESS_QUERY);
          submitted.push({ environment, id, status: answer.status, body: answer.body, retryAfter: answer.headers.get('retry-after') });
        }
      }
      const accepted = submitted.filter((answer) => answer.status === 202);
      expect(accepted).to.have.length(ASYNC_LIMIT);
      const refused = submitted.filter((answer) => answer.status !== 202);
      expect(refused.map((answer) => answer.id)).to.deep.equal([`a-${environmentsOfA[2]}-2`, `a-${environmentsOfA[2]}-3`]);
      for (const answer of refused) {
        expect(answer.status).to.equal(429);
        expect(answer.retryAfter).to.equal('5');
        expect(answer.body).to.deep.equal({
          type: 'throttled_error',
          code: 'throttled',
          detail: 'Exceeded maximum concurrency limit: 10 asynchronous queries queued or running for this user. Retry when one has finished.',
          attr: null,
        });
      }
      // The queue's places count the user's queries, whichever environment: its first, then its second, and so on.
      expect(await Promise.all(accepted.map((answer) => priorityOf(answer.environment, answer.id)))).to.deep.equal(accepted.map((_, n) => (n === 0 ? 0 : -n)));
      // Of the engine's three runners, A has two, across its environments: the third puts A's jobs back.
      await waitFor('A to run two queries', async () => (await runningOfA()) === 2);

      const started = performance.now();
      const queued = await submit(clientB, b.environment.id, 'b-trivial', TRIVIAL);
      expect(queued.status).to.equal(202);
      expect(await priorityOf(b.environment.id, 'b-trivial')).to.equal(0);
      const done = await waitFor('B’s query to complete', async () => {
        const response = await clientB.get(statusPath(b.environment.id, 'b-trivial'));
        return response.status !== 202 && response;
      });
      const tookMs = performance.now() - started;
      expect(done.status).to.equal(200);
      expect(done.body.query_status.results.results).to.deep.equal([[5]]);
      expect(tookMs, `B's asynchronous query took ${Math.round(tookMs)} ms`).to.be.below(5_000);
      expect(await runningOfA()).to.equal(2);

      for (const answer of accepted) expect((await clientA.delete(statusPath(answer.environment, answer.id))).status).to.equal(204);
      await waitFor('A’s statements to end', async () => (await endlessRunning()) === 0);
      // Cancelled, A's queries free its user's share: A submits again, from its third environment.
      const again = await submit(clientA, environmentsOfA[2]!, 'a-after', TRIVIAL);
      expect(again.status).to.equal(202);
      const after = await waitFor('A’s query to complete', async () => {
        const response = await clientA.get(statusPath(environmentsOfA[2]!, 'a-after'));
        return response.status !== 202 && response;
      });
      expect(after.status).to.equal(200);
    });
  });
});
