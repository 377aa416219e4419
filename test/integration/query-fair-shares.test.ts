/**
 * Fair shares of the database between environments: environment A, in one organization, saturates its share of
 * synchronous and of asynchronous queries with queries that run until cancelled; environment B, in another, is
 * answered all the same, within generous bounds. A's queries past its share are 429s with Retry-After, and once
 * its queries are cancelled it queries again. A database of its own: the engine started here must find no other
 * test's jobs.
 */
import { expect } from 'chai';
import { ApiError } from '../../db/core/errors.js';
import type { Db } from '../../db/pg/client.js';
import { onReadSession, sessionFreeNow } from '../../db/pg/read-session.js';
import { environmentReader, sessionsHeldBy, sessionsPerEnvironment } from '../../db/pg/session-shares.js';
import { MAX_TAKEOVERS } from '../../db/queries/query/status.js';
import type { RunningEngine } from '../../handlers/jobs/index.js';
import { databaseUrl } from '../helpers/database.js';
import { throttledBody } from '../helpers/error-bodies.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
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
import { ENDLESS_QUERY, startQueryEngine, statusOfDeadRunner, untilAnswered } from '../helpers/queries.js';
import { insertEvents } from '../helpers/seed-events.js';
import { startTestServer } from '../helpers/server.js';
import { waitFor } from '../helpers/wait.js';

const SYNC_TOO_MANY = throttledBody('Exceeded maximum concurrency limit: 3 queries at once for this environment. Retry when one has finished.');

describe('query: fair shares of the database between environments', function () {
  this.timeout(120_000);
  let shares: SharesDatabase;
  let db: Db;
  let a: Account;
  let b: Account;
  let clientA: HttpClient;
  let clientB: HttpClient;

  const queryPath = (account: Account) => `/api/environments/${account.environment.id}/query/`;
  const runNow = (client: HttpClient, account: Account, query: string) => client.post(queryPath(account), { query: { kind: 'HogQLQuery', query } });
  const endlessRunning = () => endlessStatements(db);
  const cancelEndless = () => cancelEndlessStatements(db);
  const slotsHeld = () => querySlotsHeld(db, 'environment');

  before(async () => {
    shares = await startSharesDatabase('hedgerow_query_shares', {
      queryTimeoutMs: QUERY_TIMEOUT_MS,
      queryConcurrencyPerEnvironment: SYNC_LIMIT,
      asyncQueriesPerEnvironment: ASYNC_LIMIT,
    });
    db = shares.db;
    a = await newAccount(db, { scopes: ['query:read'] });
    b = await newAccount(db, { scopes: ['query:read'] });
    expect(a.organization.id).to.not.equal(b.organization.id);
    clientA = shares.server.http.withKey(a.key);
    clientB = shares.server.http.withKey(b.key);
    for (const account of [a, b]) await insertEvents(db, account.environment.id, FIVE_PAGEVIEWS);
  });

  after(() => shares.close());

  describe('synchronous queries', () => {
    afterEach(async () => {
      await cancelEndless();
      await waitFor('the endless statements to end', async () => (await endlessRunning()).length === 0);
    });

    it('A runs its share; its next query is a 429 with Retry-After; B is answered at once; A queries again once they end', async () => {
      const [alone, aloneMs] = await timed(() => runNow(clientB, b, TRIVIAL_QUERY));
      expect(alone.status).to.equal(200);
      expect(alone.body.results).to.deep.equal([[5]]);

      const saturating = Array.from({ length: SYNC_LIMIT }, () => runNow(clientA, a, ENDLESS_QUERY));
      await waitFor('A to run its share', async () => (await endlessRunning()).length === SYNC_LIMIT);
      expect(await slotsHeld()).to.equal(SYNC_LIMIT);

      const refused = await runNow(clientA, a, TRIVIAL_QUERY);
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('retry-after')).to.equal('1');
      expect(refused.body).to.deep.equal(SYNC_TOO_MANY);
      // The same share, whichever path and kind: an EventsQuery sent to …/query/EventsQuery/, and the project path.
      const eventsQuery = await clientA.post(`${queryPath(a)}EventsQuery/`, { query: { kind: 'EventsQuery', select: ['event'], after: 'all' } });
      expect(eventsQuery.status).to.equal(429);
      expect(eventsQuery.body).to.deep.equal(SYNC_TOO_MANY);
      const projectPath = await clientA.post(`/api/projects/${a.environment.id}/query/`, { query: { kind: 'HogQLQuery', query: TRIVIAL_QUERY } });
      expect(projectPath.status).to.equal(429);

      // B's queries, while A's run: answered, and soon (a generous bound; see the report for the figures).
      for (let round = 0; round < 3; round += 1) {
        const [answer, ms] = await timed(() => runNow(clientB, b, TRIVIAL_QUERY));
        expect(answer.status).to.equal(200);
        expect(answer.body.results).to.deep.equal([[5]]);
        expect(ms, `B's query took ${Math.round(ms)} ms (alone: ${Math.round(aloneMs)} ms)`).to.be.below(1_000);
      }
      const listing = await clientB.get(`/api/projects/${b.environment.id}/events/?after=2024-01-01T00:00:00Z`);
      expect(listing.status).to.equal(200);
      expect(listing.body.results).to.have.length(5);
      expect((await endlessRunning()).length).to.equal(SYNC_LIMIT);

      await cancelEndless();
      const ended = await Promise.all(saturating);
      expect(ended.map((answer) => answer.status).filter((status) => status === 200)).to.deep.equal([]);
      // Every slot was given back with its session: A runs its share again.
      // A session closed at its deadline gives its slot back once PostgreSQL has ended it.
      await waitFor('every slot given back', async () => (await slotsHeld()) === 0, 5_000);
      const again = await runNow(clientA, a, TRIVIAL_QUERY);
      expect(again.status).to.equal(200);
      expect(again.body.results).to.deep.equal([[5]]);
    });

    it('a query that fails or times out gives its slot back', async () => {
      const failed = await runNow(clientA, a, 'select nope from events');
      expect(failed.status).to.equal(400);
      // Time enough for a new session's first statement, which on Citus also opens its connection to the worker.
      const shortServer = await startTestServer({ db, config: { queryTimeoutMs: 1_500, queryConcurrencyPerEnvironment: 1 } });
      try {
        const timedOut = await shortServer.http.withKey(a.key).post(queryPath(a), { query: { kind: 'HogQLQuery', query: ENDLESS_QUERY } });
        expect(timedOut.status).to.equal(504);
        const next = await shortServer.http.withKey(a.key).post(queryPath(a), { query: { kind: 'HogQLQuery', query: TRIVIAL_QUERY } });
        expect(next.status, JSON.stringify(next.body)).to.equal(200);
      } finally {
        await shortServer.close();
      }
      // A session closed at its deadline gives its slot back once PostgreSQL has ended it.
      await waitFor('every slot given back', async () => (await slotsHeld()) === 0, 5_000);
    });

    it('the limit holds across processes: a second server of the same database refuses A past it', async () => {
      const second = await startTestServer({ db, config: { queryTimeoutMs: QUERY_TIMEOUT_MS, queryConcurrencyPerEnvironment: SYNC_LIMIT } });
      try {
        const saturating = [
          runNow(clientA, a, ENDLESS_QUERY),
          runNow(second.http.withKey(a.key), a, ENDLESS_QUERY),
          runNow(second.http.withKey(a.key), a, ENDLESS_QUERY),
        ];
        await waitFor('A to run its share', async () => (await endlessRunning()).length === SYNC_LIMIT);
        for (const client of [clientA, second.http.withKey(a.key)]) {
          const refused = await runNow(client, a, TRIVIAL_QUERY);
          expect(refused.status).to.equal(429);
          expect(refused.body).to.deep.equal(SYNC_TOO_MANY);
        }
        expect((await runNow(second.http.withKey(b.key), b, TRIVIAL_QUERY)).status).to.equal(200);
        await cancelEndless();
        await Promise.all(saturating);
      } finally {
        await second.close();
      }
    });

    it('without a limit, one environment holds at most all of a process’s read sessions but one: B still finds one', async () => {
      await withUnlimitedServer(db, async (http) => {
        // Five of A's endless queries on a pool of five sessions: four run, the fifth waits for one of A's own.
        let settled = 0;
        const saturating = Array.from({ length: 5 }, () =>
          runNow(http.withKey(a.key), a, ENDLESS_QUERY).finally(() => {
            settled += 1;
          }),
        );
        await waitFor('A to hold four sessions', async () => (await endlessRunning()).length === 4);
        const [answer, ms] = await timed(() => runNow(http.withKey(b.key), b, TRIVIAL_QUERY));
        expect(answer.status).to.equal(200);
        // A's queries never end: had B waited for one of their sessions it would still be waiting. The bound only
        // leaves room for a new session's first statement (on Citus it opens its connections to the workers).
        expect(ms).to.be.below(5_000);
        const listing = await http.withKey(b.key).get(`/api/projects/${b.environment.id}/events/?after=2024-01-01T00:00:00Z`);
        expect(listing.status).to.equal(200);
        expect((await endlessRunning()).length).to.equal(4);
        // Once one of A's ends, its fifth runs.
        expect(settled).to.equal(0);
        const [first] = await endlessRunning();
        // An int: Citus adds a pg_cancel_backend(bigint) of its cluster-wide process ids.
        await db.raw('select pg_cancel_backend(?::int)', [first!.pid]);
        await waitFor('one of A’s queries to end', async () => settled === 1);
        // The cancelled statement's session is given to the fifth as soon as its error is read, and may still show
        // the statement as active for a moment: the fifth runs once four run that are not the cancelled one (a
        // cancel sent before the fifth's statement starts would be lost, and it would run on).
        await waitFor('A’s fifth query to run', async () => {
          const running = await endlessRunning();
          return running.length === 4 && running.every(({ pid, started }) => pid !== first!.pid || started !== first!.started);
        });
        await cancelEndless();
        await waitFor('the endless statements to end', async () => (await endlessRunning()).length === 0);
        await cancelEndless();
        await Promise.all(saturating);
      });
    });
  });

  describe('a process’s read sessions (db/pg/session-shares.ts)', () => {
    it('an environment holds all of the pool but one; past that it waits, then is a 429; another’s read goes first', async () => {
      await withShortWaitReader(databaseUrl(shares.name), 2, async (reader) => {
        const readerA = environmentReader(reader, a.environment.id);
        const readerB = environmentReader(reader, b.environment.id);
        const release = gate();
        const holding = await holdReadSession(readerA, release.opened);
        expect(sessionsHeldBy(reader, a.environment.id)).to.equal(1);
        expect(sessionsPerEnvironment(reader)).to.equal(1);
        // A read that takes a second session only when one is free now does not take A's last.
        expect(sessionFreeNow(readerA)).to.equal(false);
        expect(sessionFreeNow(readerB)).to.equal(true);

        const waiting = failureOf(onReadSession(readerA, 5_000, (read) => read('select 1 as n', [])));
        const { rows } = await onReadSession(readerB, 5_000, (read) => read<{ n: number }>('select 2 as n', []));
        expect(rows).to.deep.equal([{ n: 2 }]);
        const refused = (await waiting) as ApiError;
        expect(refused).to.be.instanceOf(ApiError);
        expect(refused.status).to.equal(429);
        expect(refused.headers).to.deep.equal({ 'Retry-After': '1' });
        expect(refused.toBody()).to.deep.equal(
          throttledBody('Exceeded maximum concurrency limit: 1 database session at once for this environment. Retry when a read has finished.'),
        );

        // One that waits less long than that gets A's session when it comes back.
        const next = onReadSession(readerA, 5_000, (read) => read<{ n: number }>('select 3 as n', []));
        release.open();
        await holding.released;
        expect((await next).rows).to.deep.equal([{ n: 3 }]);
        expect(sessionsHeldBy(reader, a.environment.id)).to.equal(0);
      });
    });
  });

  describe('asynchronous queries', () => {
    let engine: RunningEngine;
    const statusPath = (account: Account, id: string) => `/api/environments/${account.environment.id}/query/${id}/`;
    const submit = (client: HttpClient, account: Account, id: string, query: string) =>
      client.post(queryPath(account), { query: { kind: 'HogQLQuery', query }, refresh: 'async', client_query_id: id });
    const jobOf = async (account: Account, id: string) =>
      (
        await db.raw(
          `select j.state, j.priority from query_statuses s join pgboss.job j on j.id = s.task_id::uuid where s.team_id = ? and s.id = ?`,
          [account.environment.id, id],
        )
      ).rows[0] as { state: string; priority: number };
    const runningOf = async (account: Account) =>
      (await db('query_statuses').where({ team_id: account.environment.id, complete: false }).whereNotNull('runner_pid').select('id')).map((row) => row.id as string);

    before(async () => {
      engine = await startQueryEngine(databaseUrl(shares.name), { queryTimeoutMs: QUERY_TIMEOUT_MS });
    });
    after(async () => {
      await cancelEndless();
      await engine.stop();
    });

    it('A fills its queue and the runners it may have; B’s query runs at once; A past its limit is a 429; A queries again once cancelled', async () => {
      const aIds = Array.from({ length: ASYNC_LIMIT }, (_, n) => `a-${n}`);
      for (const id of aIds) expect((await submit(clientA, a, id, ENDLESS_QUERY)).status, id).to.equal(202);
      // The queue's places: each environment's first query, then each one's second, and so on.
      expect((await Promise.all(aIds.map((id) => jobOf(a, id)))).map((job) => job.priority)).to.deep.equal(aIds.map((_, n) => (n === 0 ? 0 : -n)));
      // Of the engine's three runners, A has two: the third puts A's jobs back and waits for another's.
      await waitFor('A to run two queries', async () => (await runningOf(a)).length === 2);

      const refused = await submit(clientA, a, 'a-over', TRIVIAL_QUERY);
      expect(refused.status).to.equal(429);
      expect(refused.headers.get('retry-after')).to.equal('5');
      expect(refused.body).to.deep.equal(
        throttledBody('Exceeded maximum concurrency limit: 10 asynchronous queries queued or running for this environment. Retry when one has finished.'),
      );
      expect(await db('query_statuses').where({ team_id: a.environment.id, id: 'a-over' }).first()).to.equal(undefined);
      // A status that exists is answered as it is, limit or not.
      expect((await submit(clientA, a, 'a-3', ENDLESS_QUERY)).status).to.equal(202);

      const submitted = performance.now();
      const queued = await submit(clientB, b, 'b-trivial', TRIVIAL_QUERY);
      expect(queued.status).to.equal(202);
      expect((await jobOf(b, 'b-trivial')).priority).to.equal(0);
      const done = await untilAnswered(clientB, statusPath(b, 'b-trivial'), 'B’s query to complete');
      const tookMs = performance.now() - submitted;
      expect(done.status).to.equal(200);
      expect(done.body.query_status.results.results).to.deep.equal([[5]]);
      expect(tookMs, `B's asynchronous query took ${Math.round(tookMs)} ms`).to.be.below(5_000);

      // A's queued jobs were put back, not lost: still waiting, their statuses not complete.
      expect((await runningOf(a)).length).to.equal(2);
      // (A job being put back is active for an instant.)
      const states = await Promise.all(aIds.map((id) => jobOf(a, id)));
      expect(states.filter((job) => job.state !== 'active' && job.state !== 'created')).to.deep.equal([]);
      expect(states.filter((job) => job.state === 'created').length).to.be.within(ASYNC_LIMIT - 3, ASYNC_LIMIT - 2);
      expect(await db('query_statuses').where({ team_id: a.environment.id, complete: true }).whereIn('id', aIds).count({ n: '*' })).to.deep.equal([{ n: '0' }]);

      // Cancelled, A's queries free its share: A submits again and its query runs.
      for (const id of aIds) expect((await clientA.delete(statusPath(a, id))).status).to.equal(204);
      // Cancelled statements end within moments, but once, on a loaded machine through the Prism proxy, not
      // within the default 15 s: the wait allows more.
      await waitFor('A’s statements to end', async () => (await endlessRunning()).length === 0, 60_000);
      expect((await submit(clientA, a, 'a-after', TRIVIAL_QUERY)).status).to.equal(202);
      const after = await untilAnswered(clientA, statusPath(a, 'a-after'), 'A’s query to complete');
      expect(after.status).to.equal(200);
      expect(after.body.query_status.results.results).to.deep.equal([[5]]);
    });

    it('queries whose runner died are taken over and still count; once past their takeovers they count no longer', async () => {
      const dead = (takeovers: number) =>
        Array.from({ length: ASYNC_LIMIT }, (_, n) => ({ ...statusOfDeadRunner(db, a.environment.id, `dead-${takeovers}-${n}`), takeovers }));
      await db('query_statuses').insert(dead(0));
      // Each would run again: the limit is reached.
      const refused = await submit(clientA, a, 'refused', TRIVIAL_QUERY);
      expect(refused.status).to.equal(429);
      await db('query_statuses').where({ team_id: a.environment.id }).whereLike('id', 'dead-0-%').delete();

      await db('query_statuses').insert(dead(MAX_TAKEOVERS));
      const accepted = await submit(clientA, a, 'after-dead', TRIVIAL_QUERY);
      expect(accepted.status).to.equal(202);
      expect(await db('query_statuses').where({ team_id: a.environment.id, complete: true, error: true }).whereLike('id', 'dead-%').count({ n: '*' })).to.deep.equal([
        { n: String(ASYNC_LIMIT) },
      ]);
    });
  });
});
