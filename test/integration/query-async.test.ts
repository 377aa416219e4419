/**
 * Asynchronous queries: POST …/query/ with an async execution mode answers 202 with the status, an engine runs
 * the job, GET …/query/<id>/ answers the status as PostHog does (202, 200 with the response, 400 with the error),
 * DELETE cancels the statement itself, statuses expire, a dead runner is reported, and no environment sees or
 * cancels another's. A database of its own: the engine started here must find no other test's jobs or exports.
 */
import { expect } from 'chai';
import { createDb, type Db } from '../../db/pg/client.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { createPersonalApiKey } from '../../db/queries/personal-api-keys.js';
import { deleteExpiredQueryStatuses, MAX_TAKEOVERS, RUNNER_STOPPED_MESSAGE } from '../../db/queries/query/status.js';
import type { RunningEngine } from '../../handlers/jobs/index.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { insertEvents } from '../helpers/seed-events.js';
import { ENDLESS_QUERY, runningEventReads, startQueryEngine, statusOfDeadRunner, untilAnswered } from '../helpers/queries.js';
import { waitFor } from '../helpers/wait.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const QUERY_TIMEOUT_MS = 30_000;
const RESULT_MAX_BYTES = 1024 * 1024;
const COUNT_BY_EVENT = 'select event, count() as c from events group by event order by c desc, event';
const TWENTY_MINUTES = 20 * 60_000;
const ms = (iso: unknown) => new Date(iso as string).getTime();

describe('query: asynchronous runs, their status and cancel', function () {
  this.timeout(90_000);
  let name: string;
  let db: Db;
  let server: TestServer;
  let account: Account;
  let client: HttpClient;
  let team: number;
  let submitPath: string;
  let statusPath: (id: string) => string;
  let other: Account;

  const submit = (body: Record<string, unknown>, query = COUNT_BY_EVENT) => client.post(submitPath, { query: { kind: 'HogQLQuery', query }, ...body });
  const statusRow = async (id: string) => db('query_statuses').where({ team_id: team, id }).first();

  before(async () => {
    name = await createDatabase('hedgerow_query_async');
    db = createDb(databaseUrl(name));
    await migrateLatest(db);
    server = await startTestServer({ db, config: { queryTimeoutMs: QUERY_TIMEOUT_MS } });
    account = await newAccount(db, { scopes: ['query:read'] });
    team = account.environment.id;
    client = server.http.withKey(account.key);
    submitPath = `/api/environments/${team}/query/`;
    statusPath = (id) => `/api/environments/${team}/query/${id}/`;
    await insertEvents(db, team, [
      { event: '$pageview', distinct_id: 'alice', timestamp: '2024-01-01T10:00:00Z' },
      { event: '$pageview', distinct_id: 'bob', timestamp: '2024-01-02T10:00:00Z' },
      { event: '$pageview', distinct_id: 'bob', timestamp: '2024-01-03T10:00:00Z' },
      { event: 'signup', distinct_id: 'bob', timestamp: '2024-01-04T10:00:00Z' },
      { event: 'purchase', distinct_id: 'carol', timestamp: '2024-01-05T10:00:00Z' },
    ]);
    other = await newAccount(db, { scopes: ['query:read'] });
    await insertEvents(db, other.environment.id, [{ event: 'secret', distinct_id: 'mallory', timestamp: '2024-01-01T00:00:00Z' }]);
  });

  after(async () => {
    await server.close();
    await db.destroy();
    await dropDatabase(name);
  });

  it('503 while no job engine has ever started on the database, and nothing is queued', async () => {
    const response = await submit({ refresh: 'async', client_query_id: 'before-any-engine' });
    expect(response.status).to.equal(503);
    expect(response.body).to.deep.equal({
      type: 'server_error',
      code: 'service_unavailable',
      detail: 'Asynchronous queries are run by the job engine, and none has started on this database yet.',
      attr: null,
    });
    expect(await db('query_statuses').count({ n: '*' })).to.deep.equal([{ n: '0' }]);
  });

  describe('with an engine running', () => {
    let engine: RunningEngine | null = null;

    const start = async (queryMaintenanceEveryMs?: number, queryTimeoutMs = QUERY_TIMEOUT_MS) => {
      engine = await startQueryEngine(databaseUrl(name), {
        ...(queryMaintenanceEveryMs !== undefined ? { queryMaintenanceEveryMs } : {}),
        queryTimeoutMs,
        queryResultMaxBytes: RESULT_MAX_BYTES,
      });
    };
    const stop = async () => {
      await engine?.stop();
      engine = null;
    };

    before(() => start());
    after(stop);

    const pollUntilDone = (id: string) => untilAnswered(client, statusPath(id), `query ${id} to finish`);

    // Every test below sits in a describe, so that mocha runs them in the order written (it runs a suite's own
    // tests before its child suites).
    describe('environments_query_retrieve', () => {
      it('async: 202 with the new status, then GET answers 202 until complete and 200 with the full response', async () => {
        const submitted = Date.now();
        const response = await submit({ refresh: 'async', client_query_id: 'count-by-event' });
        expect(response.status).to.equal(202);
        const status = response.body.query_status;
        expect(status.task_id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        expect(ms(status.start_time)).to.be.within(submitted - 1_000, Date.now() + 1_000);
        expect(response.body).to.deep.equal({
          query_status: {
            id: 'count-by-event',
            team_id: team,
            query_async: true,
            complete: false,
            error: false,
            error_message: null,
            results: null,
            start_time: status.start_time,
            pickup_time: null,
            end_time: null,
            expiration_time: new Date(ms(status.start_time) + TWENTY_MINUTES).toISOString(),
            task_id: status.task_id,
            insight_id: null,
            dashboard_id: null,
            labels: null,
            query_progress: null,
          },
        });

        const done = await pollUntilDone('count-by-event');
        const finished = done.body.query_status;
        expect(done.status).to.equal(200);
        const synchronous = await submit({});
        expect(synchronous.status).to.equal(200);
        expect(finished.results.timings.map((timing: { k: string }) => timing.k)).to.deep.equal(['./compile', './execute', '.']);
        expect(done.body).to.deep.equal({
          query_status: {
            ...status,
            complete: true,
            results: {
              results: [
                ['$pageview', 3],
                ['purchase', 1],
                ['signup', 1],
              ],
              columns: ['event', 'c'],
              types: [
                ['event', 'String'],
                ['c', 'Int64'],
              ],
              query: COUNT_BY_EVENT,
              hogql: synchronous.body.hogql,
              timings: finished.results.timings,
              hasMore: false,
              limit: 100,
              offset: 0,
              query_status: null,
            },
            pickup_time: finished.pickup_time,
            end_time: finished.end_time,
            expiration_time: new Date(ms(finished.end_time) + TWENTY_MINUTES).toISOString(),
          },
        });
        expect(ms(finished.pickup_time)).to.be.within(ms(status.start_time), ms(finished.end_time));
        // The same rows as the synchronous run.
        expect(finished.results.results).to.deep.equal(synchronous.body.results);

        const row = await statusRow('count-by-event');
        expect(row.query).to.deep.equal({ kind: 'HogQLQuery', query: COUNT_BY_EVENT });
        // The session is recorded only while its statement runs: back in its pool, it may run another query.
        expect(row).to.include({ runner_pid: null, runner_backend_start: null, task_id: status.task_id });
      });

      it('the results are answered as the text stored, not parsed and written again: its spacing and its integers as they are', async () => {
        await submit({ refresh: 'async', client_query_id: 'stored-text' });
        const done = await pollUntilDone('stored-text');
        expect(done.status).to.equal(200);
        // Text that a parse and a serialisation would change: spaces, an escape, and an integer beyond 2^53.
        const stored = '{ "results": [[12345678901234567891, "caf\\u00e9"]],  "columns": ["n", "s"] }';
        await db('query_statuses').where({ team_id: team, id: 'stored-text' }).update({ results: db.raw('?::json', [stored]) });
        const expected = `"results":${stored},`;
        // The answers' text, straight from the server (a proxy in between would parse and write it again).
        const direct = async (path: string, body?: unknown) => {
          const response = await fetch(new URL(path, server.directUrl), {
            method: body === undefined ? 'GET' : 'POST',
            headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          });
          return { status: response.status, text: await response.text() };
        };
        const read = await direct(statusPath('stored-text'));
        expect(read.status).to.equal(200);
        expect(read.text).to.contain(expected);
        // The same answer through the test client, which checks it against the spec.
        expect((await client.get(statusPath('stored-text'))).body.query_status.results.columns).to.deep.equal(['n', 's']);
        // A submit that finds the status answers it the same way.
        const again = await direct(submitPath, { query: { kind: 'HogQLQuery', query: COUNT_BY_EVENT }, refresh: 'async', client_query_id: 'stored-text' });
        expect(again.status).to.equal(200);
        expect(again.text).to.equal(read.text);
        expect(JSON.parse(read.text)).to.deep.equal({ query_status: { ...done.body.query_status, results: JSON.parse(stored) } });
      });

      it('an EventsQuery, also sent to …/query/EventsQuery/, runs asynchronously and answers what it answers at once', async () => {
        const query = { kind: 'EventsQuery', select: ['event', 'count()'], after: 'all', orderBy: ['event'] };
        const response = await client.post(`/api/environments/${team}/query/EventsQuery/`, { query, refresh: 'async', client_query_id: 'events-by-name' });
        expect(response.status).to.equal(202);
        expect(response.body.query_status).to.include({ id: 'events-by-name', complete: false, error: false });

        const done = await pollUntilDone('events-by-name');
        expect(done.status).to.equal(200);
        const synchronous = await client.post(submitPath, { query });
        expect(synchronous.status).to.equal(200);
        // The same answer but for the time it took and the window's end (5 s after the run), printed in `hogql`.
        const { timings, hogql, ...answer } = done.body.query_status.results;
        const { timings: timingsNow, hogql: hogqlNow, ...answerNow } = synchronous.body;
        expect(timings.map((timing: { k: string }) => timing.k)).to.deep.equal(timingsNow.map((timing: { k: string }) => timing.k));
        expect(hogql.replace(/timestamp < '[^']+'/, '')).to.equal(hogqlNow.replace(/timestamp < '[^']+'/, ''));
        expect(answer).to.deep.equal(answerNow);
        expect(answer.results).to.deep.equal([
          ['$pageview', 3],
          ['purchase', 1],
          ['signup', 1],
        ]);
        expect((await statusRow('events-by-name')).query).to.deep.equal(query);
      });

      it('submits of one id at once (a client retrying) make one status: each answers it, none fails', async () => {
        const answers = await Promise.all(Array.from({ length: 6 }, () => submit({ refresh: 'async', client_query_id: 'retried' })));
        expect(answers.map((answer) => answer.status).filter((status) => status !== 200 && status !== 202)).to.deep.equal([]);
        expect(new Set(answers.map((answer) => answer.body.query_status.task_id)).size).to.equal(1);
        expect(await db('query_statuses').where({ team_id: team, id: 'retried' }).count({ n: '*' })).to.deep.equal([{ n: '1' }]);

        const forced = await Promise.all(Array.from({ length: 4 }, () => submit({ refresh: 'force_async', client_query_id: 'retried' })));
        expect(forced.map((answer) => answer.status)).to.deep.equal([202, 202, 202, 202]);
        const [row] = await db('query_statuses').where({ team_id: team, id: 'retried' });
        // The last forced submit's run is the one the status names.
        expect(forced.map((answer) => answer.body.query_status.task_id)).to.include(row.task_id);
        expect((await pollUntilDone('retried')).status).to.equal(200);
      });

      it('a status that exists is answered as it is without running again, unless force_async', async () => {
        const first = await submit({ refresh: 'async', client_query_id: 'reused' });
        const done = await pollUntilDone('reused');
        expect(done.status).to.equal(200);
        const jobsBefore = (await db.raw(`select count(*)::int as n from pgboss.job where name = 'query-run'`)).rows[0].n;
        const jobs = async () => (await db.raw(`select count(*)::int as n from pgboss.job where name = 'query-run'`)).rows[0].n - jobsBefore + 1;
        expect(await jobs()).to.equal(1);

        // Complete: 200 with the status, as PostHog answers a submit whose status is complete.
        const again = await submit({ refresh: 'lazy_async', client_query_id: 'reused' });
        expect(again.status).to.equal(200);
        expect(again.body).to.deep.equal(done.body);
        expect(await jobs()).to.equal(1);

        const forced = await submit({ refresh: 'force_async', client_query_id: 'reused' });
        expect(forced.status).to.equal(202);
        expect(forced.body.query_status).to.include({ id: 'reused', complete: false, pickup_time: null, results: null });
        expect(forced.body.query_status.task_id).to.not.equal(first.body.query_status.task_id);
        const redone = await pollUntilDone('reused');
        expect(redone.status).to.equal(200);
        expect(redone.body.query_status.task_id).to.equal(forced.body.query_status.task_id);
        expect(redone.body.query_status.results.results).to.deep.equal(done.body.query_status.results.results);
        expect(await jobs()).to.equal(2);
      });

      it('execution modes as PostHog maps them: async: true queues whatever refresh says; every other mode runs now', async () => {
        for (const refresh of [undefined, 'blocking', 'force_blocking', true, false]) {
          const legacy = await submit({ async: true, ...(refresh === undefined ? {} : { refresh }) });
          expect(legacy.status, String(refresh)).to.equal(202);
          // A fresh uuid7, in hex.
          expect(legacy.body.query_status.id).to.match(/^[0-9a-f]{12}7[0-9a-f]{3}[89ab][0-9a-f]{15}$/);
          expect(await statusRow(legacy.body.query_status.id)).to.include({ complete: false });
          await pollUntilDone(legacy.body.query_status.id);
        }

        // The cache-only modes find nothing cached and run now, as PostHog upgrades them; so do the blocking ones.
        for (const refresh of [undefined, 'blocking', 'force_blocking', 'force_cache', 'async_except_on_cache_miss', true, false]) {
          const id = `now-${String(refresh)}`;
          const response = await submit({ async: false, client_query_id: id, ...(refresh === undefined ? {} : { refresh }) });
          expect(response.status, String(refresh)).to.equal(200);
          expect(response.body.query_status).to.equal(null);
          expect(response.body.results).to.deep.equal([
            ['$pageview', 3],
            ['purchase', 1],
            ['signup', 1],
          ]);
          expect(await statusRow(id)).to.equal(undefined);
        }
      });

      it('a query that fails answers 400 with its status and the message the synchronous run gives', async () => {
        const query = 'select nope from events';
        const synchronous = await submit({}, query);
        expect(synchronous.status).to.equal(400);
        const response = await submit({ refresh: 'async', client_query_id: 'broken' }, query);
        expect(response.status).to.equal(202);
        const failed = await pollUntilDone('broken');
        expect(failed.status).to.equal(400);
        expect(failed.body.query_status).to.include({ complete: true, error: true, error_message: synchronous.body.detail, results: null });
      });

      it('a result larger than the budget fails the run with the message of the synchronous 400, and nothing is stored', async () => {
        const big = await newAccount(db, { scopes: ['query:read'] });
        const filler = 'x'.repeat(10_000);
        await insertEvents(
          db,
          big.environment.id,
          Array.from({ length: 150 }, (_, index) => ({ event: 'big', distinct_id: `d${index}`, timestamp: '2024-01-01T00:00:00Z', properties: { filler } })),
        );
        const bigClient = server.http.withKey(big.key);
        const bigPath = `/api/environments/${big.environment.id}/query/`;
        const query = { kind: 'HogQLQuery', query: 'select properties from events limit 1000' };
        const response = await bigClient.post(bigPath, { query, refresh: 'async', client_query_id: 'too-large' });
        expect(response.status).to.equal(202);
        const failed = await untilAnswered(bigClient, `${bigPath}too-large/`, 'the run to finish');
        expect(failed.status).to.equal(400);
        expect(failed.body.query_status).to.include({
          complete: true,
          error: true,
          error_message: "The query's result is larger than 1 MB, the most one answer may hold. Add a LIMIT or select fewer columns.",
          results: null,
        });
        const row = await db('query_statuses').where({ team_id: big.environment.id, id: 'too-large' }).first();
        expect(row.results).to.equal(null);
      });

      it('NUL: a query holding one is stored and run as sent; an id holding one is refused, or found nowhere', async () => {
        const query = 'select event from events where event = {name} or \u0000';
        const synchronous = await client.post(submitPath, { query: { kind: 'HogQLQuery', query, values: { name: 'signup' }, name: '\u0000' } });
        const response = await client.post(submitPath, {
          query: { kind: 'HogQLQuery', query, values: { name: 'signup' }, name: '\u0000' },
          refresh: 'async',
          client_query_id: 'nul-in-text',
        });
        expect(response.status).to.equal(202);
        const done = await pollUntilDone('nul-in-text');
        // The parser refuses it: the status says what the synchronous run answers, its NUL shown as U+FFFD.
        expect(synchronous.status).to.equal(400);
        expect(synchronous.body.detail).to.equal('Unexpected character "\u0000" at position 50.');
        expect(done.status).to.equal(400);
        expect(done.body.query_status).to.include({ error: true, error_message: 'Unexpected character "\uFFFD" at position 50.' });
        expect((await statusRow('nul-in-text')).query).to.deep.equal({ kind: 'HogQLQuery', query, values: { name: 'signup' }, name: '\u0000' });

        const refused = await submit({ refresh: 'async', client_query_id: 'a\u0000b' });
        expect(refused.status).to.equal(400);
        expect(refused.body).to.deep.equal({
          type: 'validation_error',
          code: 'invalid_input',
          detail: 'A query id cannot contain the NUL character.',
          attr: 'client_query_id',
        });
        const nowhere = await client.get(statusPath('%00'));
        expect(nowhere.status).to.equal(404);
        expect(nowhere.body.detail).to.equal(`Query \u0000 not found for team ${team}`);
        expect((await client.delete(statusPath('%00'))).status).to.equal(204);
      });

      it('an id with a lone surrogate is refused (PostgreSQL would store \\ud800 and \\udfff both as U+FFFD); a pair is an id', async () => {
        for (const id of ['\ud800', 'a\udfffb', '\ud83d']) {
          const refused = await submit({ refresh: 'async', client_query_id: id });
          expect(refused.status, JSON.stringify(id)).to.equal(400);
          expect(refused.body).to.deep.equal({
            type: 'validation_error',
            code: 'invalid_input',
            detail: 'A query id cannot contain a lone surrogate (text that is not well-formed UTF-16).',
            attr: 'client_query_id',
          });
        }
        expect(await statusRow('\uFFFD')).to.equal(undefined);
        expect(await statusRow('a\uFFFDb')).to.equal(undefined);
        // A path cannot carry a lone surrogate: its UTF-8 bytes are not UTF-8, and the path is found by no route.
        for (const response of [await client.get(statusPath('%ED%A0%80')), await client.delete(statusPath('%ED%A0%80'))]) {
          expect(response.status).to.equal(404);
          expect(response.body).to.deep.equal({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
        }

        const pair = await submit({ refresh: 'async', client_query_id: 'smile-\ud83d\ude00' });
        expect(pair.status).to.equal(202);
        expect(pair.body.query_status.id).to.equal('smile-\ud83d\ude00');
        expect((await pollUntilDone('smile-\ud83d\ude00')).status).to.equal(200);
        expect((await statusRow('smile-\ud83d\ude00')).complete).to.equal(true);
      });
    });

    describe('environments_query_destroy', () => {
      it('DELETE cancels the running statement itself: it leaves pg_stat_activity and the status says so', async () => {
        const response = await submit({ refresh: 'async', client_query_id: 'endless' }, ENDLESS_QUERY);
        expect(response.status).to.equal(202);
        // The status and the sessions are read apart: on Citus the statuses are on a worker, the runner's session on
        // the coordinator.
        const row = await waitFor('the runner session', async () => {
          const status = (await db.raw(`select runner_pid, runner_backend_start::text as runner_backend_start from query_statuses where team_id = ? and id = 'endless'`, [team])).rows[0];
          if (!status?.runner_pid) return undefined;
          const active = await db.raw(
            `select 1 from pg_stat_activity where pid = ? and backend_start = ? and state = 'active' and query not like '%pg_backend_pid()%'`,
            [status.runner_pid, status.runner_backend_start],
          );
          return active.rows.length > 0 ? (status as { runner_pid: number }) : undefined;
        });
        expect(await runningEventReads(name)).to.be.greaterThan(0);
        const running = await client.get(statusPath('endless'));
        expect(running.status).to.equal(202);
        expect(running.body.query_status).to.include({ complete: false, error: false });
        expect(running.body.query_status.pickup_time).to.be.a('string');

        const cancelled = await client.delete(statusPath('endless'));
        expect(cancelled.status).to.equal(204);
        expect(cancelled.text).to.equal('');
        await waitFor(
          'the statement to leave pg_stat_activity',
          async () => (await db.raw(`select count(*)::int as n from pg_stat_activity where pid = ? and state = 'active'`, [row.runner_pid])).rows[0].n === 0,
          5_000,
        );
        // Nor does the join run on any node: on Citus, the worker's statement is cancelled with the coordinator's.
        await waitFor('no node to run the join', async () => (await runningEventReads(name)) === 0, 5_000);
        const status = await client.get(statusPath('endless'));
        expect(status.status).to.equal(400);
        expect(status.body.query_status).to.include({ complete: true, error: true, error_message: 'Query cancelled', results: null });

        // Cancelling again changes nothing, nor does the runner's end (its statement failed after the cancel).
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect((await client.delete(statusPath('endless'))).status).to.equal(204);
        expect((await client.get(statusPath('endless'))).body).to.deep.equal(status.body);
      });
    });

    describe('a status over time: renewed, timed out, cancelled while queued, expired, taken over, failed, private', () => {
      it('a running query keeps its status past its 20 minutes: the engine renews it until the query ends', async () => {
        await stop();
        await start(200);
        try {
          expect((await submit({ refresh: 'async', client_query_id: 'long-running' }, ENDLESS_QUERY)).status).to.equal(202);
          await waitFor('the runner session', async () => (await statusRow('long-running'))?.runner_pid);
          // As if it had been picked up 20 minutes ago: its status would expire within seconds, unless renewed
          // (every 200 ms here; a loaded machine may take longer, hence the seconds of slack).
          await db('query_statuses').where({ team_id: team, id: 'long-running' }).update({ expiration_time: db.raw(`now() + interval '4 seconds'`) });
          await waitFor('the status renewed', async () => {
            const row = await statusRow('long-running');
            return row && ms(row.expiration_time) > Date.now() + TWENTY_MINUTES - 60_000;
          });
          const running = await client.get(statusPath('long-running'));
          expect(running.status).to.equal(202);
          expect(running.body.query_status).to.include({ complete: false, error: false });
          expect(ms(running.body.query_status.expiration_time)).to.be.within(Date.now() + TWENTY_MINUTES - 5_000, Date.now() + TWENTY_MINUTES);

          // Still cancellable; once complete, its status is no longer renewed.
          expect((await client.delete(statusPath('long-running'))).status).to.equal(204);
          const cancelled = await client.get(statusPath('long-running'));
          expect(cancelled.body.query_status).to.include({ complete: true, error_message: 'Query cancelled' });
          await db('query_statuses').where({ team_id: team, id: 'long-running' }).update({ expiration_time: db.raw(`now() + interval '300 milliseconds'`) });
          await new Promise((resolve) => setTimeout(resolve, 800));
          expect((await client.get(statusPath('long-running'))).status).to.equal(404);
          expect(await statusRow('long-running')).to.equal(undefined);
        } finally {
          await stop();
          await start();
        }
      });

      it('a run past the query timeout is cancelled, and its status says that it timed out', async () => {
        await stop();
        await start(undefined, 500);
        try {
          expect((await submit({ refresh: 'async', client_query_id: 'timed-out' }, ENDLESS_QUERY)).status).to.equal(202);
          const failed = await pollUntilDone('timed-out');
          expect(failed.status).to.equal(400);
          expect(failed.body.query_status).to.include({
            complete: true,
            error: true,
            error_message: 'The query ran longer than 500 ms and was cancelled. Narrow it with a condition on timestamp, a LIMIT, or fewer joins.',
            results: null,
          });
        } finally {
          await stop();
          await start();
        }
      });

      it('DELETE of a queued query: its job is cancelled and it never runs; of a finished one: nothing changes', async () => {
        await stop();
        try {
          const queued = await submit({ refresh: 'async', client_query_id: 'queued' });
          expect(queued.status).to.equal(202);
          expect((await client.delete(statusPath('queued'))).status).to.equal(204);
          const job = await db.raw(`select state from pgboss.job where id = ?`, [queued.body.query_status.task_id]);
          expect(job.rows).to.deep.equal([{ state: 'cancelled' }]);
        } finally {
          await start();
        }
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        const status = await client.get(statusPath('queued'));
        expect(status.status).to.equal(400);
        expect(status.body.query_status).to.include({ complete: true, error: true, error_message: 'Query cancelled', pickup_time: null });

        const finished = await client.get(statusPath('count-by-event'));
        expect(finished.status).to.equal(200);
        expect((await client.delete(statusPath('count-by-event'))).status).to.equal(204);
        expect((await client.get(statusPath('count-by-event'))).body).to.deep.equal(finished.body);
        expect((await client.delete(statusPath('never-submitted'))).status).to.equal(204);
      });

      it('expired statuses answer 404 and are deleted by the engine (as it starts, and every minute)', async () => {
        await submit({ refresh: 'async', client_query_id: 'expiring' });
        await pollUntilDone('expiring');
        await db('query_statuses').where({ team_id: team, id: 'expiring' }).update({ expiration_time: db.raw(`now() - interval '1 second'`) });
        const gone = await client.get(statusPath('expiring'));
        expect(gone.status).to.equal(404);
        expect(gone.body).to.deep.equal({ type: 'invalid_request', code: 'not_found', detail: `Query expiring not found for team ${team}`, attr: null });
        expect((await client.delete(statusPath('expiring'))).status).to.equal(204);
        // A new submit of an expired id runs the query again.
        expect((await submit({ refresh: 'async', client_query_id: 'expiring' })).status).to.equal(202);
        await pollUntilDone('expiring');

        await db('query_statuses').where({ team_id: team, id: 'expiring' }).update({ expiration_time: db.raw(`now() - interval '1 second'`) });
        await stop();
        await start();
        expect(await statusRow('expiring')).to.equal(undefined);
        expect(await deleteExpiredQueryStatuses(db)).to.equal(0);
      });

      it('a run whose runner is gone is taken over when its status is read: a new job runs it from the start', async () => {
        const query = { kind: 'HogQLQuery', query: COUNT_BY_EVENT };
        await db('query_statuses').insert([
          { ...statusOfDeadRunner(db, team, 'dead-session'), query },
          // Its job is over (no job has its task id) and no runner ever recorded a session.
          { ...statusOfDeadRunner(db, team, 'dead-job'), query, runner_pid: null, runner_backend_start: null },
        ]);
        const synchronous = await submit({});
        for (const id of ['dead-session', 'dead-job']) {
          const before = await statusRow(id);
          expect((await client.get(statusPath(id))).status, id).to.be.oneOf([200, 202]);
          const after = await statusRow(id);
          expect(after.task_id, id).to.not.equal(before.task_id);
          expect(after.takeovers, id).to.equal(1);
          const done = await pollUntilDone(id);
          expect(done.status, id).to.equal(200);
          expect(done.body.query_status.results.results, id).to.deep.equal(synchronous.body.results);
          expect(ms(done.body.query_status.start_time), id).to.equal(before.start_time.getTime());
        }
      });

      it(`after ${MAX_TAKEOVERS} takeovers, a run whose runner is gone is reported failed instead`, async () => {
        await db('query_statuses').insert([
          { ...statusOfDeadRunner(db, team, 'dead-again'), takeovers: MAX_TAKEOVERS },
          { ...statusOfDeadRunner(db, team, 'dead-job-again'), takeovers: MAX_TAKEOVERS, runner_pid: null, runner_backend_start: null },
        ]);
        for (const id of ['dead-again', 'dead-job-again']) {
          const response = await client.get(statusPath(id));
          expect(response.status, id).to.equal(400);
          expect(response.body.query_status, id).to.include({ complete: true, error: true, error_message: RUNNER_STOPPED_MESSAGE, results: null });
          expect(ms(response.body.query_status.expiration_time) - ms(response.body.query_status.end_time)).to.equal(TWENTY_MINUTES);
        }
      });

      it('the engine takes over a run whose runner is gone without its status being read', async () => {
        await stop();
        await start(200);
        try {
          await db('query_statuses').insert({ ...statusOfDeadRunner(db, team, 'dead-unread'), query: { kind: 'HogQLQuery', query: 'select 41 + 1' } });
          const row = await waitFor('the run to be taken over and finished', async () => {
            const found = await statusRow('dead-unread');
            return found?.complete && found;
          });
          expect(row).to.include({ error: false, takeovers: 1 });
          expect(row.results.results).to.deep.equal([[42]]);
        } finally {
          await stop();
          await start();
        }
      });

      it('an engine stopped mid-run hands its query over, not counted as a takeover: the next engine runs it', async () => {
        expect((await submit({ refresh: 'async', client_query_id: 'handed-over' }, ENDLESS_QUERY)).status).to.equal(202);
        const running = await waitFor('the runner session', async () => {
          const row = await statusRow('handed-over');
          return row?.runner_pid && row;
        });
        await stop();
        try {
          // Written by the engine as it stopped: a new job, waiting for any engine.
          const handed = await statusRow('handed-over');
          expect(handed).to.include({ complete: false, error: false, pickup_time: null, runner_pid: null, takeovers: 0 });
          expect(handed.task_id).to.not.equal(running.task_id);
          const job = await db.raw('select state from pgboss.job where id = ?', [handed.task_id]);
          expect(job.rows).to.deep.equal([{ state: 'created' }]);
          const active = await db.raw(`select count(*)::int as n from pg_stat_activity where pid = ? and state = 'active'`, [running.runner_pid]);
          expect(active.rows).to.deep.equal([{ n: 0 }]);
          const waiting = await client.get(statusPath('handed-over'));
          expect(waiting.status).to.equal(202);
          expect(waiting.body.query_status).to.include({ complete: false, pickup_time: null, task_id: handed.task_id });
        } finally {
          await start();
        }
        await waitFor('the next engine to run it', async () => (await statusRow('handed-over'))?.runner_pid);
        expect((await client.delete(statusPath('handed-over'))).status).to.equal(204);
        expect((await client.get(statusPath('handed-over'))).body.query_status).to.include({ complete: true, error_message: 'Query cancelled' });
      });

      it('a status that failed without a message to show (a server error in its run) answers 500, as PostHog', async () => {
        await db('query_statuses').insert({
          team_id: team,
          id: 'server-error',
          query: { kind: 'HogQLQuery', query: 'select 1' },
          start_time: db.fn.now(),
          pickup_time: db.fn.now(),
          end_time: db.fn.now(),
          expiration_time: db.raw(`now() + interval '20 minutes'`),
          complete: true,
          error: true,
          error_message: null,
        });
        const response = await client.get(statusPath('server-error'));
        expect(response.status).to.equal(500);
        expect(response.body).to.deep.equal({ type: 'server_error', code: 'server_error', detail: 'A server error occurred.', attr: null });
      });

      it('another environment can neither read nor cancel a status; scopes: query:read', async () => {
        await submit({ refresh: 'async', client_query_id: 'private' }, ENDLESS_QUERY);
        await waitFor('the runner session', async () => (await statusRow('private'))?.runner_pid);
        const outsider = server.http.withKey(other.key);
        const theirs = `/api/environments/${other.environment.id}/query/private/`;
        const read = await outsider.get(theirs);
        expect(read.status).to.equal(404);
        expect(read.body.detail).to.equal(`Query private not found for team ${other.environment.id}`);
        expect((await outsider.delete(theirs)).status).to.equal(204);
        // Their key on this environment's path.
        for (const response of [await outsider.get(statusPath('private')), await outsider.delete(statusPath('private'))]) {
          expect(response.status).to.equal(404);
          expect(response.body).to.deep.equal({ type: 'invalid_request', code: 'not_found', detail: 'Project not found.', attr: null });
        }

        const { key: unscopedKey } = await createPersonalApiKey(db, { userId: account.user.id, label: 'no query scope', scopes: ['organization:read'] });
        const unscoped = server.http.withKey(unscopedKey);
        for (const response of [await unscoped.get(statusPath('private')), await unscoped.delete(statusPath('private'))]) {
          expect(response.status).to.equal(403);
          expect(response.body).to.deep.equal({
            type: 'authentication_error',
            code: 'permission_denied',
            detail: "API key missing required scope 'query:read'",
            attr: null,
          });
        }

        expect((await client.get(statusPath('private'))).body.query_status).to.include({ complete: false, error: false });
        expect((await client.delete(statusPath('private'))).status).to.equal(204);
      });
    });
  });
});
