import { expect } from 'chai';
import pg from 'pg';
import pino from 'pino';
import { ACCESS_CHANNEL, ACCESS_LISTENER_NAME, AccessCache } from '../../db/queries/access-cache.js';
import { connectionStringOf } from '../../db/pg/client.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** Repeats `attempt` until `done` holds of its result or `withinMs` has passed; returns the last result. */
async function eventually<T>(attempt: () => Promise<T>, done: (result: T) => boolean, withinMs = 2000): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const result = await attempt();
    if (done(result) || Date.now() > deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function listenerPids(): Promise<number[]> {
  const { rows } = await testDb().raw<{ rows: { pid: number }[] }>(
    'select pid from pg_stat_activity where application_name = ? and datname = current_database()',
    [ACCESS_LISTENER_NAME],
  );
  return rows.map((row) => row.pid);
}

describe('access cache (who a personal API key is, remembered between requests)', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function lookups(): Promise<{ memory: number; database: number; listening: number; listens: number }> {
    const res = await server.http.get('/_metrics');
    expect(res.status).to.equal(200);
    const value = (series: string) => {
      const line = (res.text as string).split('\n').find((candidate) => candidate.startsWith(`${series} `));
      if (!line) throw new Error(`no ${series} in /_metrics`);
      return Number(line.slice(series.length + 1));
    };
    return {
      memory: value('hedgerow_api_key_lookups_total{source="memory"}'),
      database: value('hedgerow_api_key_lookups_total{source="database"}'),
      listening: value('hedgerow_api_access_cache_listening'),
      listens: value('hedgerow_api_access_cache_listens_total'),
    };
  }

  const project = (account: Account) => server.http.withKey(account.key).get(`/api/projects/${account.environment.id}/`);

  /**
   * How the next `count` requests of `account` were answered. Creating an account notifies, and notifications
   * arrive when they arrive: a request may be asked again of the database until the last one has.
   */
  async function served(account: Account, count: number): Promise<{ memory: number; database: number }> {
    const before = await lookups();
    for (let i = 0; i < count; i += 1) expect((await project(account)).status).to.equal(200);
    const after = await lookups();
    return { memory: after.memory - before.memory, database: after.database - before.database };
  }

  it('answers a key’s later requests from memory', async () => {
    const account = await newAccount(testDb());
    const first = await served(account, 1);
    expect(first).to.deep.equal({ memory: 0, database: 1 });
    const later = await eventually(() => served(account, 3), (counts) => counts.memory === 3);
    expect(later).to.deep.equal({ memory: 3, database: 0 });
    expect((await lookups()).listening).to.equal(1);
  });

  it('stops accepting a key that another session deleted as soon as PostgreSQL tells, well before entries expire', async () => {
    const account = await newAccount(testDb());
    const remembered = await eventually(() => served(account, 1), (counts) => counts.memory === 1);
    expect(remembered).to.deep.equal({ memory: 1, database: 0 });

    await testDb()('personal_api_keys').where({ user_id: account.user.id }).delete();
    const res = await eventually(() => project(account), (answer) => answer.status !== 200);
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.include({ type: 'authentication_error', code: 'authentication_failed', attr: null });
  });

  it('honours a key narrowed to other organizations by another session, on an organization’s own paths', async () => {
    const account = await newAccount(testDb());
    const organization = () => server.http.withKey(account.key).get(`/api/organizations/${account.organization.id}/`);
    const remembered = await eventually(
      async () => {
        const before = await lookups();
        expect((await organization()).status).to.equal(200);
        return (await lookups()).memory - before.memory;
      },
      (memory) => memory === 2,
    );
    expect(remembered).to.equal(2); // who the key is, then its access to the organization
    const elsewhere = await newAccount(testDb());
    await testDb()('personal_api_keys')
      .where({ user_id: account.user.id })
      .update({ scoped_organizations: [elsewhere.organization.id] });
    const res = await eventually(organization, (answer) => answer.status !== 200);
    expect(res.status).to.equal(404);
  });

  it('honours a scope that another session took away, and a project it left', async () => {
    const account = await newAccount(testDb());
    expect((await project(account)).status).to.equal(200);
    await testDb()('personal_api_keys').where({ user_id: account.user.id }).update({ scopes: ['organization:read'] });
    const narrowed = await eventually(() => project(account), (answer) => answer.status !== 200);
    expect(narrowed.status).to.equal(403);
    expect(narrowed.body.detail).to.equal("API key missing required scope 'project:read'");

    await testDb()('personal_api_keys').where({ user_id: account.user.id }).update({ scopes: ['*'] });
    expect((await eventually(() => project(account), (answer) => answer.status === 200)).status).to.equal(200);
    await testDb()('organization_memberships').where({ user_id: account.user.id }).delete();
    const gone = await eventually(() => project(account), (answer) => answer.status !== 200);
    expect(gone.status).to.equal(404);
  });

  it('is told of each table that decides access, and not of what does not (a key’s last use, its label)', async () => {
    const listener = new pg.Client({ connectionString: connectionStringOf(testDb()) });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (notification) => heard.push(notification.payload ?? ''));
      await listener.query(`listen ${ACCESS_CHANNEL}`);
      const account = await newAccount(testDb());
      const db = testDb();
      const key = db('personal_api_keys').where({ user_id: account.user.id });
      await key.clone().update({ last_used_at: new Date() });
      await key.clone().update({ label: 'renamed' });
      await key.clone().update({ scopes: ['project:read'] });
      // Statements that change no row notify as well (per statement): a change may come from any of them.
      for (const table of ['users', 'organizations', 'organization_memberships', 'environments']) {
        await db(table).whereRaw('false').update({ id: db.raw('id') });
      }
      await db('personal_api_keys').where({ id: '00000000-0000-0000-0000-000000000000' }).delete();
      await db.raw(`select pg_notify('${ACCESS_CHANNEL}', 'end of test')`);
      // Notifications arrive in commit order: once the last is heard, every earlier one is.
      await eventually(async () => heard, (payloads) => payloads.includes('end of test'));
      const created = heard.slice(0, heard.indexOf('personal_api_keys') + 1);
      expect(created).to.include.members(['users', 'organizations', 'organization_memberships', 'environments', 'personal_api_keys']);
      expect(heard.slice(created.length)).to.deep.equal([
        'personal_api_keys', // scopes (last_used_at and label said nothing)
        'users',
        'organizations',
        'organization_memberships',
        'environments',
        'personal_api_keys',
        'end of test',
      ]);
    } finally {
      await listener.end();
    }
  });

  it('asks the database while it cannot hear of changes, and remembers again once it listens again', async () => {
    const account = await newAccount(testDb());
    expect((await project(account)).status).to.equal(200);
    await eventually(() => served(account, 1), (counts) => counts.memory === 1);
    const sessions = (await lookups()).listens;
    const listeners = await listenerPids();
    expect(listeners.length).to.be.greaterThan(0);
    for (const pid of listeners) await testDb().raw('select pg_terminate_backend(?)', [pid]);
    // Listening again (on a new session) after a short wait: until then, and once, every lookup asks the database.
    const back = await eventually(lookups, (metrics) => metrics.listens === sessions + 1 && metrics.listening === 1, 5000);
    expect(back).to.include({ listens: sessions + 1, listening: 1 });
    const now = await listenerPids();
    for (const pid of listeners) expect(now).to.not.include(pid);
    expect((await served(account, 1)).database).to.equal(1); // what it knew before was forgotten
    expect(await eventually(() => served(account, 1), (counts) => counts.memory === 1)).to.deep.equal({ memory: 1, database: 0 });
  });

  describe('AccessCache', () => {
    let cache: AccessCache;

    beforeEach(async () => {
      cache = AccessCache.forDb(testDb(), pino({ level: 'silent' }));
      await cache.start();
    });
    afterEach(() => cache.stop());

    it('remembers found answers only', async () => {
      let loads = 0;
      const load = async () => ({ loaded: (loads += 1) });
      expect(await cache.remember('a', load)).to.deep.equal({ loaded: 1 });
      expect(await cache.remember('a', load)).to.deep.equal({ loaded: 1 });
      expect(await cache.remember('nobody', async () => null)).to.equal(null);
      let asked = false;
      await cache.remember('nobody', async () => ((asked = true), null));
      expect(asked).to.equal(true);
      expect(cache.lookups).to.deep.equal({ memory: 1, database: 3 });
    });

    it('does not remember an answer read while the cache was emptied (it may be older than the change)', async () => {
      await cache.remember('a', async () => {
        cache.clear();
        return { loaded: 1 };
      });
      expect(await cache.remember('a', async () => ({ loaded: 2 }))).to.deep.equal({ loaded: 2 });
      expect(await cache.remember('a', async () => ({ loaded: 3 }))).to.deep.equal({ loaded: 2 });
    });

    it('forgets everything when any session changes a table that decides access', async () => {
      await cache.remember('a', async () => ({ loaded: 1 }));
      await testDb()('users').where({ id: -1 }).update({ first_name: 'nobody' }); // no row: the statement still notifies
      const reloaded = await eventually(
        () => cache.remember('a', async () => ({ loaded: 2 })),
        (value) => value?.loaded === 2,
      );
      expect(reloaded).to.deep.equal({ loaded: 2 });
    });

    it('stops answering from memory when its listening session goes silent, and listens again', async () => {
      const target = new URL(connectionStringOf(testDb()));
      const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const silent = new AccessCache(proxy.urlFor(connectionStringOf(testDb())), pino({ level: 'silent' }), {
        heartbeatMs: 100,
        heartbeatTimeoutMs: 200,
        retryMs: 50,
      });
      try {
        await silent.start();
        expect(silent.isListening).to.equal(true);
        await silent.remember('a', async () => ({ loaded: 1 }));
        proxy.stall(); // no error, no end: only the heartbeat can tell
        expect(await eventually(async () => silent.isListening, (listening) => !listening)).to.equal(false);
        expect(await silent.remember('a', async () => ({ loaded: 2 }))).to.deep.equal({ loaded: 2 });
        proxy.restore();
        expect(await eventually(async () => silent.isListening, (listening) => listening, 5000)).to.equal(true);
        expect(silent.listens).to.equal(2);
      } finally {
        await silent.stop();
        await proxy.close();
      }
    });

    it('answers nothing from memory once stopped', async () => {
      await cache.remember('a', async () => ({ loaded: 1 }));
      await cache.stop();
      expect(cache.isListening).to.equal(false);
      expect(await cache.remember('a', async () => ({ loaded: 2 }))).to.deep.equal({ loaded: 2 });
      expect(await cache.remember('a', async () => ({ loaded: 3 }))).to.deep.equal({ loaded: 3 });
    });
  });
});
