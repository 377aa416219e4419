import { expect } from 'chai';
import pg from 'pg';
import pino from 'pino';
import type { Knex } from 'knex';
import { ACCESS_CHANNEL, ACCESS_LISTENER_NAME, AccessCache } from '../../db/queries/access-cache.js';
import { notifyAccessChange, type AccessTable } from '../../db/queries/access-changes.js';
import { setMembership } from '../../db/queries/memberships.js';
import { deleteOrganization } from '../../db/queries/organizations.js';
import { findPrincipal, revokePersonalApiKey } from '../../db/queries/personal-api-keys.js';
import { createProject } from '../../db/queries/projects.js';
import { createUser, setCurrentTeam } from '../../db/queries/users.js';
import { connectionStringOf } from '../../db/pg/client.js';
import { testDb } from '../helpers/database.js';
import { MembershipLevel, newAccount, type Account } from '../helpers/fixtures.js';
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

/** A change made outside db/queries/, as an operator's psql makes it: announced by hand in its transaction. */
async function byHand(table: AccessTable, write: (trx: Knex.Transaction) => Promise<unknown>): Promise<void> {
  await testDb().transaction(async (trx) => {
    await write(trx);
    await notifyAccessChange(trx, table);
  });
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

  it('stops accepting a key that another process revoked as soon as PostgreSQL tells, well before entries expire', async () => {
    const account = await newAccount(testDb());
    const remembered = await eventually(() => served(account, 1), (counts) => counts.memory === 1);
    expect(remembered).to.deep.equal({ memory: 1, database: 0 });

    expect(await revokePersonalApiKey(testDb(), account.key)).to.equal(1); // as the admin CLI's revoke-key
    const res = await eventually(() => project(account), (answer) => answer.status !== 200);
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.include({ type: 'authentication_error', code: 'authentication_failed', attr: null });
  });

  it('honours a key narrowed to other organizations by hand and announced, on an organization’s own paths', async () => {
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
    await byHand('personal_api_keys', (trx) =>
      trx('personal_api_keys').where({ user_id: account.user.id }).update({ scoped_organizations: [elsewhere.organization.id] }),
    );
    const res = await eventually(organization, (answer) => answer.status !== 200);
    expect(res.status).to.equal(404);
  });

  it('honours a scope taken away by hand and announced, and a project left', async () => {
    const account = await newAccount(testDb());
    expect((await project(account)).status).to.equal(200);
    await byHand('personal_api_keys', (trx) => trx('personal_api_keys').where({ user_id: account.user.id }).update({ scopes: ['organization:read'] }));
    const narrowed = await eventually(() => project(account), (answer) => answer.status !== 200);
    expect(narrowed.status).to.equal(403);
    expect(narrowed.body.detail).to.equal("API key missing required scope 'project:read'");

    await byHand('personal_api_keys', (trx) => trx('personal_api_keys').where({ user_id: account.user.id }).update({ scopes: ['*'] }));
    expect((await eventually(() => project(account), (answer) => answer.status === 200)).status).to.equal(200);
    await byHand('organization_memberships', (trx) => trx('organization_memberships').where({ user_id: account.user.id }).delete());
    const gone = await eventually(() => project(account), (answer) => answer.status !== 200);
    expect(gone.status).to.equal(404);
  });

  it('keeps a change it was not told of until entries expire: a write by hand must announce itself', async () => {
    const account = await newAccount(testDb());
    await eventually(() => served(account, 1), (counts) => counts.memory === 1);
    await testDb()('personal_api_keys').where({ user_id: account.user.id }).update({ scopes: ['organization:read'] });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await project(account)).status).to.equal(200); // still the remembered scopes
    await notifyAccessChange(testDb(), 'personal_api_keys');
    expect((await eventually(() => project(account), (answer) => answer.status !== 200)).status).to.equal(403);
  });

  it('honours a membership level another process changed', async () => {
    const account = await newAccount(testDb());
    const organization = () => server.http.withKey(account.key).get(`/api/organizations/${account.organization.id}/`);
    await eventually(
      async () => {
        const before = await lookups();
        expect((await organization()).body.membership_level).to.equal(MembershipLevel.owner);
        return (await lookups()).memory - before.memory;
      },
      (memory) => memory === 2,
    );
    await setMembership(testDb(), account.organization.id, account.user.id, MembershipLevel.member); // as the admin CLI
    const demoted = await eventually(organization, (answer) => answer.body.membership_level !== MembershipLevel.owner);
    expect(demoted.body.membership_level).to.equal(MembershipLevel.member);
  });

  describe('changes made through another server', () => {
    let other: TestServer;

    before(async () => {
      other = await startTestServer();
    });
    after(() => other.close());

    /** GET of the account's organization, answered from what was remembered of it (its row, the key's access). */
    async function rememberedOrganization(account: Account) {
      const organization = () => server.http.withKey(account.key).get(`/api/organizations/${account.organization.id}/`);
      await eventually(
        async () => {
          const before = await lookups();
          expect((await organization()).status).to.equal(200);
          return (await lookups()).memory - before.memory;
        },
        (memory) => memory === 2,
      );
      return organization;
    }

    it('shows the name the other server gave an organization', async () => {
      const account = await newAccount(testDb());
      const organization = await rememberedOrganization(account);
      const renamed = await other.http.withKey(account.key).patch(`/api/organizations/${account.organization.id}/`, { name: 'Renamed' });
      expect(renamed.status, renamed.text).to.equal(200);
      expect((await eventually(organization, (answer) => answer.body.name === 'Renamed')).body.name).to.equal('Renamed');
    });

    it('forgets an organization the other server deleted', async () => {
      const account = await newAccount(testDb());
      const organization = await rememberedOrganization(account);
      const deleted = await other.http.withKey(account.key).delete(`/api/organizations/${account.organization.id}/`);
      expect(deleted.status).to.equal(204);
      expect((await eventually(organization, (answer) => answer.status !== 200)).status).to.equal(404);
    });

    it('follows an environment rollback the other server made, and the user’s current project with it', async () => {
      const account = await newAccount(testDb());
      const { environment: source } = await createProject(testDb(), account.organization.id, 'Rolled back');
      await setCurrentTeam(testDb(), account.user.id, account.organization.id, source.id);
      const client = server.http.withKey(account.key);
      const current = () => client.get('/api/projects/@current/');
      const sourceProject = () => client.get(`/api/projects/${source.id}/`);
      await eventually(
        async () => {
          const before = await lookups();
          expect((await current()).body.id).to.equal(source.id);
          expect((await sourceProject()).status).to.equal(200);
          return (await lookups()).memory - before.memory;
        },
        (memory) => memory === 2,
      );
      const rollback = await other.http
        .withKey(account.key)
        .post(`/api/organizations/${account.organization.id}/environments_rollback/`, { [source.id]: account.environment.id });
      expect(rollback.status, rollback.text).to.equal(200);
      expect((await eventually(sourceProject, (answer) => answer.status !== 200)).status).to.equal(404);
      expect((await current()).body.id).to.equal(account.environment.project_id);
    });
  });

  it('is told by each writer of a table that decides access once it commits, and not of a key’s last use', async () => {
    const listener = new pg.Client({ connectionString: connectionStringOf(testDb()) });
    await listener.connect();
    try {
      const heard: string[] = [];
      listener.on('notification', (notification) => heard.push(notification.payload ?? ''));
      await listener.query(`listen ${ACCESS_CHANNEL}`);
      const db = testDb();
      const account = await newAccount(db);
      expect(await findPrincipal(db, account.key)).to.not.equal(null); // refreshes the key's last_used_at
      const refused = await createUser(db, { email: account.user.email }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(refused).to.not.equal(null); // the same e-mail: rolled back, so never announced
      await revokePersonalApiKey(db, account.key);
      await deleteOrganization(db, account.organization.id);
      await db.raw(`select pg_notify('${ACCESS_CHANNEL}', 'end of test')`);
      // Notifications arrive in commit order: once the last is heard, every earlier one is.
      await eventually(async () => heard, (payloads) => payloads.includes('end of test'));
      const created = heard.slice(0, heard.indexOf('personal_api_keys') + 1);
      expect(created).to.include.members(['users', 'organizations', 'organization_memberships', 'environments', 'personal_api_keys']);
      expect(heard.slice(created.length)).to.deep.equal(['personal_api_keys', 'organizations', 'end of test']);
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
    // Citus adds a pg_terminate_backend of its own; the cast names PostgreSQL's.
    for (const pid of listeners) await testDb().raw('select pg_terminate_backend(?::int)', [pid]);
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

    it('forgets everything when any session announces an access change', async () => {
      await cache.remember('a', async () => ({ loaded: 1 }));
      await notifyAccessChange(testDb(), 'users');
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
