/**
 * Durability: the server (its own process, as `npm start` runs it) is killed with SIGKILL while clients are
 * capturing. Every event that was answered 200 is in the database after the restart, none twice; and when the
 * clients then re-send everything they sent (as the SDKs retry), each event is stored exactly once.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { connectionStringOf } from '../../db/pg/client.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startServerProcess, type ServerProcess, stopServerProcess } from '../helpers/processes.js';

describe('capture durability across SIGKILL', function () {
  this.timeout(120_000);
  let account: Account;
  let databaseUrl: string;
  const servers: ServerProcess[] = [];

  before(async () => {
    account = await newAccount(testDb());
    databaseUrl = connectionStringOf(testDb());
  });

  after(async () => {
    for (const server of servers) await stopServerProcess(server);
  });

  const start = async () => {
    const server = await startServerProcess({ DATABASE_URL: databaseUrl, HEDGEROW_RATE_LIMIT_PER_MINUTE: '0' });
    servers.push(server);
    return server;
  };

  /** One event per request, or a batch of five, alternately: what the SDKs send. */
  function requestFor(events: Array<{ uuid: string; n: number }>): { path: string; body: string } {
    const batch = events.map(({ uuid, n }) => ({ event: 'load', distinct_id: `user-${n % 17}`, uuid, properties: { n } }));
    return events.length === 1
      ? { path: '/i/v0/e/', body: JSON.stringify({ api_key: account.environment.api_token, ...batch[0] }) }
      : { path: '/batch/', body: JSON.stringify({ api_key: account.environment.api_token, batch }) };
  }

  async function send(baseUrl: string, events: Array<{ uuid: string; n: number }>): Promise<number> {
    const { path, body } = requestFor(events);
    const response = await fetch(new URL(path, baseUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
    return response.status;
  }

  it('keeps every acknowledged event once the server is killed mid-load, and stores retries once', async () => {
    const first = await start();
    const attempted: Array<Array<{ uuid: string; n: number }>> = [];
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const client = async () => {
      while (!stop) {
        const events = Array.from({ length: attempted.length % 2 ? 5 : 1 }, () => ({ uuid: randomUUID(), n: n++ }));
        attempted.push(events);
        try {
          if ((await send(first.baseUrl, events)) === 200) acknowledged.push(...events.map((event) => event.uuid));
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = Array.from({ length: 16 }, () => client());
    for (let wait = 0; wait < 600 && acknowledged.length < 1500; wait += 1) await new Promise((resolve) => setTimeout(resolve, 25));
    first.child.kill('SIGKILL');
    await first.exited;
    stop = true;
    await Promise.all(clients);
    expect(acknowledged.length).to.be.greaterThan(100);

    const second = await start();
    const teamId = account.environment.id;
    const storedAcknowledged = await testDb()('events').where({ team_id: teamId }).whereIn('uuid', acknowledged).count<{ count: string }[]>('* as count');
    expect(Number(storedAcknowledged[0]!.count)).to.equal(acknowledged.length);

    // The SDKs re-send what was not acknowledged (and sometimes what was): everything is stored exactly once.
    for (const events of attempted) expect(await send(second.baseUrl, events)).to.equal(200);
    const all = attempted.flat();
    const rows = await testDb()('events').where({ team_id: teamId }).select('uuid');
    expect(rows.length).to.equal(all.length);
    expect(new Set(rows.map((row) => row.uuid))).to.deep.equal(new Set(all.map((event) => event.uuid)));
  });
});
