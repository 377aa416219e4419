/**
 * Fair shares between users: any key with organization:write makes organizations, each with an environment of
 * its own, so shares per environment alone are multiplied at will. User A makes two more organizations and
 * saturates its synchronous and asynchronous queries from all three of its environments; user B, in another
 * organization, is answered all the same, within generous bounds, and never told the database is unavailable.
 * A's queries past its user's share are 429s with Retry-After. A database of its own: the engine started here
 * must find no other test's jobs.
 */
import { expect } from 'chai';
import { ApiError } from '../../db/core/errors.js';
import type { Db } from '../../db/pg/client.js';
import { onReadSession } from '../../db/pg/read-session.js';
import { sessionsHeldByUser, tenantReader } from '../../db/pg/session-shares.js';
import type { RunningEngine } from '../../handlers/jobs/index.js';
import { databaseUrl } from '../helpers/database.js';
import { throttledBody } from '../helpers/error-bodies.js';
import { MembershipLevel, newAccount, newMember, type Account } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import {
  ASYNC_LIMIT,
  cancelEndlessStatements,
  endlessStatements,
  FIVE_PAGEVIEWS,
  gate,
  holdReadSession,
  QUERY_TIMEOUT_MS,
  querySlotsHeld,
  startSharesDatabase,
  SYNC_LIMIT,
  timed,
  TRIVIAL_QUERY,
  withShortWaitReader,
  withUnlimitedServer,
  type SharesDatabase,
} from '../helpers/fair-shares.js';
import { failureOf } from '../helpers/failure.js';
import { ENDLESS_QUERY, startQueryEngine, untilAnswered } from '../helpers/queries.js';
import { insertEvents } from '../helpers/seed-events.js';
import { waitFor } from '../helpers/wait.js';


const SYNC_TOO_MANY_FOR_USER = throttledBody('Exceeded maximum concurrency limit: 3 queries at once for this user. Retry when one has finished.');

describe('query: fair shares of the database between users, whatever environments they make', function () {
  this.timeout(120_000);
  let shares: SharesDatabase;
  let db: Db;
  let a: Account;
  let b: Account;
  let clientA: HttpClient;
  let clientB: HttpClient;
  /** A's environments: its first, and those of the two organizations it made through the API. */
  let environmentsOfA: number[];

  const queryPath = (environmentId: number) => `/api/environments/${environmentId}/query/`;
  const runNow = (client: HttpClient, environmentId: number, query: string) =>
    client.post(queryPath(environmentId), { query: { kind: 'HogQLQuery', query } });
  /** How many endless statements run now. */
  const endlessRunning = async () => (await endlessStatements(db)).length;
  const cancelEndless = () => cancelEndlessStatements(db);
  const userSlotsHeld = () => querySlotsHeld(db, 'user');

  before(async () => {
    shares = await startSharesDatabase('hedgerow_user_shares', {
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      queryConcurrencyPerEnvironment: SYNC_LIMIT,
      queryConcurrencyPerUser: SYNC_LIMIT,
      asyncQueriesPerEnvironment: ASYNC_LIMIT,
      asyncQueriesPerUser: ASYNC_LIMIT,
    });
    db = shares.db;
    a = await newAccount(db, { scopes: ['query:read', 'organization:write'] });
    b = await newAccount(db, { scopes: ['query:read'] });
    clientA = shares.server.http.withKey(a.key);
    clientB = shares.server.http.withKey(b.key);
    environmentsOfA = [a.environment.id];
    for (const organization of ['Second of A', 'Third of A']) {
      const made = await clientA.post('/api/organizations/', { name: organization });
      expect(made.status).to.equal(201);
      environmentsOfA.push((made.body.teams as Array<{ id: number }>)[0]!.id);
    }
    for (const environment of [...environmentsOfA, b.environment.id]) await insertEvents(db, environment, FIVE_PAGEVIEWS);
  });

  after(() => shares.close());

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
        const refused = await runNow(clientA, environment, TRIVIAL_QUERY);
        expect(refused.status).to.equal(429);
        expect(refused.headers.get('retry-after')).to.equal('1');
        expect(refused.body).to.deep.equal(SYNC_TOO_MANY_FOR_USER);
      }

      for (let round = 0; round < 3; round += 1) {
        const [answer, ms] = await timed(() => runNow(clientB, b.environment.id, TRIVIAL_QUERY));
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
      const again = await runNow(clientA, environmentsOfA[2]!, TRIVIAL_QUERY);
      expect(again.status).to.equal(200);
      expect(again.body.results).to.deep.equal([[5]]);
    });

    it('without limits, one user holds at most all of a process’s read sessions but one, across its environments', async () => {
      await withUnlimitedServer(db, async (http) => {
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
        const [answer, ms] = await timed(() => runNow(http.withKey(b.key), b.environment.id, TRIVIAL_QUERY));
        expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
        // Had B waited for one of A's sessions it would have been refused after the pool's wait: the bound only
        // leaves room for a new session's first statement (on Citus it opens its connections to the workers).
        expect(ms).to.be.below(5_000);
        expect(await endlessRunning()).to.equal(4);
        // The two that wait for A's own sessions are refused once they have waited as long as a read waits for
        // the pool: 429s, never the 503 of an unavailable database.
        await waitFor('A’s waiting queries to be refused', async () => settled.length === 2);
        for (const refused of settled) {
          expect(refused.status).to.equal(429);
          expect(refused.retryAfter).to.equal('1');
          expect(refused.body).to.deep.equal(
            throttledBody('Exceeded maximum concurrency limit: 4 database sessions at once for this user. Retry when a read has finished.'),
          );
        }
        await cancelEndless();
        await Promise.all(saturating);
        expect(settled.filter((ended) => ended.status === 200 || ended.status === 503)).to.deep.equal([]);
      });
    });
  });

  describe('a process’s read sessions (db/pg/session-shares.ts)', () => {
    it('a user holds all of the pool but one whichever environment it reads; past that it waits, then is a 429', async () => {
      await withShortWaitReader(databaseUrl(shares.name), 2, async (reader) => {
        const firstOfA = tenantReader(reader, { environmentId: environmentsOfA[0]!, userId: a.user.id });
        const secondOfA = tenantReader(reader, { environmentId: environmentsOfA[1]!, userId: a.user.id });
        const readerB = tenantReader(reader, { environmentId: b.environment.id, userId: b.user.id });
        const release = gate();
        const holding = await holdReadSession(firstOfA, release.opened);
        expect(sessionsHeldByUser(reader, a.user.id)).to.equal(1);

        // A's other environment has room of its own, its user has none: it waits for A's session, then a 429.
        const waiting = failureOf(onReadSession(secondOfA, 5_000, (read) => read('select 1 as n', [])));
        const { rows } = await onReadSession(readerB, 5_000, (read) => read<{ n: number }>('select 2 as n', []));
        expect(rows).to.deep.equal([{ n: 2 }]);
        const refused = (await waiting) as ApiError;
        expect(refused).to.be.instanceOf(ApiError);
        expect(refused.status).to.equal(429);
        expect(refused.headers).to.deep.equal({ 'Retry-After': '1' });
        expect(refused.toBody()).to.deep.equal(
          throttledBody('Exceeded maximum concurrency limit: 1 database session at once for this user. Retry when a read has finished.'),
        );

        // One that waits less long than that gets A's session when it comes back.
        const next = onReadSession(secondOfA, 5_000, (read) => read<{ n: number }>('select 3 as n', []));
        release.open();
        await holding.released;
        expect((await next).rows).to.deep.equal([{ n: 3 }]);
        expect(sessionsHeldByUser(reader, a.user.id)).to.equal(0);
      });
    });
    it('a read that fits its shares never waits behind a read waiting for its user’s: a colleague in the same environment goes first', async () => {
      const colleague = await newMember(db, a.organization, MembershipLevel.member, { scopes: ['query:read'] });
      await withShortWaitReader(databaseUrl(shares.name), 3, async (reader) => {
        const release = gate();
        // A holds its user's two sessions, one in each of two environments.
        const held: Array<{ released: Promise<void> }> = [];
        for (const environmentId of environmentsOfA.slice(0, 2)) {
          held.push(await holdReadSession(tenantReader(reader, { environmentId, userId: a.user.id }), release.opened));
        }
        const waitingOfA = onReadSession(tenantReader(reader, { environmentId: environmentsOfA[0]!, userId: a.user.id }), 5_000, (read) =>
          read<{ n: number }>('select 4 as n', []),
        );
        // A's first environment holds one session of two: the colleague's read there is lent the pool's third.
        const { rows } = await onReadSession(tenantReader(reader, { environmentId: environmentsOfA[0]!, userId: colleague.user.id }), 5_000, (read) =>
          read<{ n: number }>('select 5 as n', []),
        );
        expect(rows).to.deep.equal([{ n: 5 }]);
        release.open();
        await Promise.all(held.map((holding) => holding.released));
        expect((await waitingOfA).rows).to.deep.equal([{ n: 4 }]);
        expect(sessionsHeldByUser(reader, a.user.id)).to.equal(0);
      });
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
      engine = await startQueryEngine(databaseUrl(shares.name), { queryTimeoutMs: QUERY_TIMEOUT_MS });
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
        expect(answer.body).to.deep.equal(
          throttledBody('Exceeded maximum concurrency limit: 10 asynchronous queries queued or running for this user. Retry when one has finished.'),
        );
      }
      // The queue's places count the user's queries, whichever environment: its first, then its second, and so on.
      expect(await Promise.all(accepted.map((answer) => priorityOf(answer.environment, answer.id)))).to.deep.equal(accepted.map((_, n) => (n === 0 ? 0 : -n)));
      // Of the engine's three runners, A has two, across its environments: the third puts A's jobs back.
      await waitFor('A to run two queries', async () => (await runningOfA()) === 2);

      const started = performance.now();
      const queued = await submit(clientB, b.environment.id, 'b-trivial', TRIVIAL_QUERY);
      expect(queued.status).to.equal(202);
      expect(await priorityOf(b.environment.id, 'b-trivial')).to.equal(0);
      const done = await untilAnswered(clientB, statusPath(b.environment.id, 'b-trivial'), 'B’s query to complete');
      const tookMs = performance.now() - started;
      expect(done.status).to.equal(200);
      expect(done.body.query_status.results.results).to.deep.equal([[5]]);
      expect(tookMs, `B's asynchronous query took ${Math.round(tookMs)} ms`).to.be.below(5_000);
      expect(await runningOfA()).to.equal(2);

      for (const answer of accepted) expect((await clientA.delete(statusPath(answer.environment, answer.id))).status).to.equal(204);
      await waitFor('A’s statements to end', async () => (await endlessRunning()) === 0);
      // Cancelled, A's queries free its user's share: A submits again, from its third environment.
      const again = await submit(clientA, environmentsOfA[2]!, 'a-after', TRIVIAL_QUERY);
      expect(again.status).to.equal(202);
      const after = await untilAnswered(clientA, statusPath(environmentsOfA[2]!, 'a-after'), 'A’s query to complete');
      expect(after.status).to.equal(200);
    });
  });
});
