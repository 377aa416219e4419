/**
 * A database that stops answering (a half-open connection: connections stay open, nothing comes back) or goes
 * away, reached through a TCP proxy the test stalls or cuts (the machine's PostgreSQL keeps running). Every wait
 * for it has a deadline: capture answers 503 with Retry-After (never a late 200), and stores exactly once what it
 * acknowledged and nothing it refused; the management API answers 503 in the error format with Retry-After;
 * `/_readiness` answers within its own deadline; once the proxy is back, all of it works again without a restart.
 * Every answer is checked against the spec (test/helpers/http.ts).
 */
import { expect } from 'chai';
import type { Server } from 'node:http';
import type { ClientBase } from 'pg';
import pino from 'pino';
import { createDb, type Db } from '../../db/pg/client.js';
import { runQuery } from '../../db/pg/query.js';
import { createApp, type HedgerowApp } from '../../handlers/server/app.js';
import { readConfig } from '../../handlers/server/config.js';
import type { ApiError } from '../../db/core/errors.js';
import { connectionStringOf } from '../../db/pg/client.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { HttpClient, type ApiResponse } from '../helpers/http.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

const DEADLINES = { connectTimeoutMs: 1000, statementTimeoutMs: 1500 };
const CONFIG = { rateLimitPerMinute: 0, captureCommitTimeoutMs: 2000, readinessTimeoutMs: 1000, queryTimeoutMs: 1500 };
/** What "answers within a few seconds" means here, generously for a shared machine. */
const ANSWER_WITHIN_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a database that stalls or goes away: deadlines, 503s and recovery', function () {
  this.timeout(90_000);
  let proxy: TcpProxy;
  let db: Db;
  let app: HedgerowApp;
  let server: Server;
  let http: HttpClient;
  let account: Account;

  before(async () => {
    const url = connectionStringOf(testDb());
    const target = new URL(url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    db = createDb(proxy.urlFor(url), { poolMax: 4, deadlines: DEADLINES });
    app = await createApp({ db, config: { ...readConfig(), ...CONFIG }, logger: pino({ level: 'silent' }) });
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const address = server.address();
    http = new HttpClient(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    account = await newAccount(testDb());
  });

  after(async () => {
    proxy.restore();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
    await db.destroy();
    await proxy.close();
  });

  let sequence = 0;
  const nextUuid = () => `0190f1c4-0000-7000-9000-${(++sequence).toString(16).padStart(12, '0')}`;

  const capture = (uuid: string) =>
    http.post('/i/v0/e/', { api_key: account.environment.api_token, event: 'load', distinct_id: 'u', uuid }, { key: null });

  /** How many times each uuid is stored. */
  async function storedCounts(uuids: string[]): Promise<Map<string, number>> {
    const rows = await testDb()('events')
      .where('team_id', account.environment.id)
      .whereIn('uuid', uuids)
      .groupBy('uuid')
      .select('uuid', testDb().raw('count(*)::int as n'));
    return new Map(rows.map((row: { uuid: string; n: number }) => [row.uuid, row.n]));
  }

  function expectUnavailable(res: ApiResponse): void {
    expect(res.status, res.text).to.equal(503);
    expect(res.body).to.deep.include({ type: 'server_error', code: 'service_unavailable', attr: null });
    expect(res.body.detail).to.be.a('string').and.not.equal('');
    expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
  }

  async function eventually(work: () => Promise<number>, want: number): Promise<number> {
    let status = 0;
    for (let attempt = 0; attempt < 100 && status !== want; attempt += 1) {
      status = await work();
      if (status !== want) await sleep(200);
    }
    return status;
  }

  const managementCalls: Array<[string, (client: HttpClient) => Promise<ApiResponse>]> = [
    ['list organizations', (client) => client.get('/api/organizations/')],
    ['retrieve an organization', (client) => client.get(`/api/organizations/${account.organization.id}/`)],
    ['create an organization', (client) => client.post('/api/organizations/', { name: 'During the outage' })],
    ['rename an organization', (client) => client.patch(`/api/organizations/${account.organization.id}/`, { name: 'Renamed' })],
    ['list projects', (client) => client.get('/api/projects/')],
    ['list events', (client) => client.get(`/api/projects/${account.environment.id}/events/`)],
    ['list session recording playlists', (client) => client.get(`/api/environments/${account.environment.id}/session_recording_playlists/`)],
  ];

  it('answers every management operation 503 with Retry-After while the database is cut, and 200 once it is back', async () => {
    const client = http.withKey(account.key);
    expect((await client.get('/api/organizations/')).status).to.equal(200);
    proxy.cut();
    try {
      for (const [name, call] of managementCalls) {
        const started = performance.now();
        const res = await call(client);
        expectUnavailable(res);
        expect(performance.now() - started, name).to.be.below(ANSWER_WITHIN_MS);
      }
      expectUnavailable(await http.get('/_readiness'));
    } finally {
      proxy.restore();
    }
    expect(await eventually(async () => (await client.get('/api/organizations/')).status, 200)).to.equal(200);
    const names = (await testDb()('organizations').where('name', 'During the outage').count({ n: '*' }))[0]!;
    expect(Number(names.n)).to.equal(0);
    expect((await testDb()('organizations').where('id', account.organization.id).first()).name).to.equal(account.organization.name);
  });

  it('gives up on a statement of a silent database after its timeout and a second, and never lends its connection again', async () => {
    const connection = (await db.client.acquireConnection()) as ClientBase & { __knex__disposed?: unknown };
    proxy.stall();
    let failure: unknown = null;
    let viaKnex: unknown = null;
    const started = performance.now();
    try {
      [failure, viaKnex] = await Promise.all([
        runQuery(connection, 'select 1').then(() => null, (error: unknown) => error),
        db.raw('select 1').then(() => null, (error: unknown) => error),
      ]);
    } finally {
      proxy.restore();
      await db.client.releaseConnection(connection);
    }
    expect(performance.now() - started).to.be.below(DEADLINES.statementTimeoutMs + 1000 + 2000);
    expect((failure as Error).message).to.equal('Query read timeout');
    expect(connection.__knex__disposed).to.be.a('string');
    expect([(viaKnex as ApiError).status, (viaKnex as ApiError).code]).to.deep.equal([503, 'service_unavailable']);
    const next = (await db.client.acquireConnection()) as ClientBase;
    try {
      expect(next).to.not.equal(connection);
      expect((await runQuery(next, 'select 1 as one')).rows).to.deep.equal([{ one: 1 }]);
    } finally {
      await db.client.releaseConnection(next);
    }
  });

  it('answers 503 with Retry-After when a statement waits past the statement timeout (a lock held)', async () => {
    const fresh = await newAccount(testDb());
    await testDb().transaction(async (trx) => {
      await trx.raw('lock table organizations in access exclusive mode');
      const started = performance.now();
      expectUnavailable(await http.withKey(fresh.key).get('/api/organizations/'));
      expect(performance.now() - started).to.be.below(DEADLINES.statementTimeoutMs + 2000);
    });
    expect((await http.withKey(fresh.key).get('/api/organizations/')).status).to.equal(200);
  });

  it('under capture load, a stall gives only 503s (within seconds) or stored 200s, and capture recovers by itself', async () => {
    const answers: Array<{ uuid: string; status: number; sentAt: number; ms: number }> = [];
    let stop = false;
    const worker = async () => {
      while (!stop) {
        const uuid = nextUuid();
        const sentAt = performance.now();
        const res = await capture(uuid);
        answers.push({ uuid, status: res.status, sentAt, ms: performance.now() - sentAt });
        if (res.status === 503) expectUnavailable(res);
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    await sleep(500);
    const stalledAt = performance.now();
    proxy.stall();
    let restoredAt = Infinity;
    try {
      // Meanwhile, the management API and readiness answer within their deadlines.
      const client = http.withKey(account.key);
      const apiStarted = performance.now();
      expectUnavailable(await client.get('/api/projects/'));
      expect(performance.now() - apiStarted).to.be.below(ANSWER_WITHIN_MS);
      const readinessStarted = performance.now();
      expectUnavailable(await http.get('/_readiness'));
      expect(performance.now() - readinessStarted).to.be.below(CONFIG.readinessTimeoutMs + 2000);
      await sleep(Math.max(0, 7000 - (performance.now() - stalledAt)));
    } finally {
      proxy.restore();
      restoredAt = performance.now();
    }
    // Capture comes back without a restart.
    while (!answers.some((answer) => answer.sentAt > restoredAt && answer.status === 200)) {
      expect(performance.now() - restoredAt, 'capture recovered').to.be.below(30_000);
      await sleep(200);
    }
    stop = true;
    await Promise.all(workers);

    for (const answer of answers) {
      expect([200, 503]).to.include(answer.status);
      expect(answer.ms).to.be.below(ANSWER_WITHIN_MS);
    }
    const during = answers.filter((answer) => answer.sentAt > stalledAt && answer.sentAt + answer.ms < restoredAt);
    expect(during.length, 'requests answered during the stall').to.be.greaterThan(0);
    expect(during.every((answer) => answer.status === 503)).to.equal(true);
    const counts = await storedCounts(answers.map((answer) => answer.uuid));
    const acknowledged = answers.filter((answer) => answer.status === 200);
    expect(acknowledged.filter((answer) => counts.get(answer.uuid) !== 1)).to.deep.equal([]);
    // Refused requests sent once the database had stalled reached nothing that could store them.
    const refused = answers.filter((answer) => answer.status === 503 && answer.sentAt > stalledAt);
    expect(refused.filter((answer) => counts.has(answer.uuid))).to.deep.equal([]);

    expect(await eventually(async () => (await http.get('/_readiness')).status, 200)).to.equal(200);
    expect(await eventually(async () => (await http.withKey(account.key).get('/api/projects/')).status, 200)).to.equal(200);
  });
});
