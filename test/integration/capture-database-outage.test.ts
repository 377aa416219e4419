/**
 * PostgreSQL unreachable during capture: the app reaches the database through a TCP proxy the test cuts (the
 * machine's PostgreSQL keeps running). While it is cut capture answers 503, never 200; once the proxy is back,
 * capture works again by itself. Every answer is checked against the spec.
 */
import { expect } from 'chai';
import type { Server } from 'node:http';
import pino from 'pino';
import { createDb, type Db } from '../../db/pg/client.js';
import { createApp, type HedgerowApp } from '../../handlers/server/app.js';
import { readConfig } from '../../handlers/server/config.js';
import { contractViolations } from '../helpers/contract.js';
import { connectionStringOf } from '../../db/pg/client.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

describe('capture while the database is unreachable', function () {
  this.timeout(60_000);
  let proxy: TcpProxy;
  let db: Db;
  let app: HedgerowApp;
  let server: Server;
  let baseUrl: string;
  let known: Account;
  let unseen: Account;

  before(async () => {
    const url = connectionStringOf(testDb());
    const target = new URL(url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    db = createDb(proxy.urlFor(url), { poolMax: 4 });
    app = await createApp({ db, config: { ...readConfig(), rateLimitPerMinute: 0 }, logger: pino({ level: 'silent' }) });
    server = await new Promise((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    known = await newAccount(testDb());
    unseen = await newAccount(testDb());
  });

  after(async () => {
    proxy.restore();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await app.close();
    await db.destroy();
    await proxy.close();
  });

  async function capture(account: Account, event: string, uuid: string): Promise<{ status: number; body: any }> {
    const path = '/i/v0/e/';
    const response = await fetch(new URL(path, baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ api_key: account.environment.api_token, event, distinct_id: 'u', uuid }),
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const body = JSON.parse(text);
    expect(await contractViolations({ method: 'POST', path, status: response.status, contentType, body, text })).to.deep.equal([]);
    return { status: response.status, body };
  }

  const stored = (uuids: string[]) =>
    testDb()('events')
      .whereIn('team_id', [known.environment.id, unseen.environment.id])
      .whereIn('uuid', uuids)
      .orderBy('uuid')
      .pluck('uuid');
  const uuid = (n: number) => `0190f1c4-0000-7000-8000-${String(n).padStart(12, '0')}`;

  it('answers 503 while it is cut, stores nothing it did not acknowledge, and recovers by itself', async () => {
    expect((await capture(known, 'before', uuid(1))).status).to.equal(200);
    expect(await stored([uuid(1)])).to.deep.equal([uuid(1)]);

    proxy.cut();
    const during: number[] = [];
    for (let n = 2; n < 8; n += 1) {
      const res = await capture(n % 2 ? known : unseen, 'during', uuid(n));
      during.push(res.status);
      expect(res.body).to.deep.include({ type: 'server_error', code: 'service_unavailable' });
    }
    expect(during).to.deep.equal([503, 503, 503, 503, 503, 503]);
    expect(await stored([2, 3, 4, 5, 6, 7].map(uuid))).to.deep.equal([]);

    proxy.restore();
    let status = 0;
    for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
      status = (await capture(unseen, 'after', uuid(100))).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).to.equal(200);
    expect((await capture(known, 'after', uuid(101))).status).to.equal(200);
    expect(await stored([uuid(100), uuid(101)])).to.deep.equal([uuid(100), uuid(101)]);
  });

  it('answers 503 when the database goes away between a request’s arrival and its commit', async () => {
    const pending = Array.from({ length: 20 }, (_, n) => capture(known, 'racing', uuid(200 + n)));
    proxy.cut();
    const answers = await Promise.all(pending);
    proxy.restore();
    const acknowledged = answers.flatMap((answer, n) => (answer.status === 200 ? [uuid(200 + n)] : []));
    for (const answer of answers) expect([200, 503]).to.include(answer.status);
    // Whatever was acknowledged is stored; nothing answered 503 is half-stored in a way that breaks a retry.
    expect(await stored(acknowledged)).to.deep.equal(acknowledged.sort());
    for (let n = 0; n < 20; n += 1) {
      let status = 0;
      for (let attempt = 0; attempt < 50 && status !== 200; attempt += 1) {
        status = (await capture(known, 'racing', uuid(200 + n))).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).to.equal(200);
    }
    expect(await stored(Array.from({ length: 20 }, (_, n) => uuid(200 + n)))).to.have.length(20);
  });
});
