import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, type Db } from '../../db/pg/client.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { HttpClient } from '../helpers/http.js';
import { runAdmin, startServerProcess, type ServerProcess } from '../helpers/processes.js';

describe('admin CLI (npm run admin)', function () {
  this.timeout(60_000);
  let name: string;
  let env: Record<string, string>;
  let db: Db;

  before(async () => {
    name = await createDatabase('hedgerow_cli');
    env = { DATABASE_URL: databaseUrl(name) };
    db = createDb(databaseUrl(name));
  });
  after(async () => {
    await db.destroy();
    await dropDatabase(name);
  });

  it('prints its help', async () => {
    const result = await runAdmin(['--help'], env);
    expect(result.code).to.equal(0);
    for (const command of ['bootstrap', 'create-user', 'create-organization', 'create-project', 'create-key', 'revoke-key']) {
      expect(result.stdout).to.include(command);
    }
  });

  it('bootstraps an empty database once, with --json, then refuses', async () => {
    const first = await runAdmin(['bootstrap', '--json', '--email', 'Root@Example.com'], env);
    expect(first.code, first.stderr).to.equal(0);
    const created = JSON.parse(first.stdout);
    expect(Object.keys(created).sort()).to.deep.equal(
      ['organization_id', 'personal_api_key', 'project_api_key', 'project_id', 'user_email'].sort(),
    );
    expect(created.user_email).to.equal('root@example.com');
    expect(created.personal_api_key).to.match(/^phx_[A-Za-z0-9]{43}$/);
    expect(created.project_api_key).to.match(/^phc_/);
    const key = await db('personal_api_keys').first();
    expect(key.scopes).to.deep.equal(['*']);
    expect(key.secure_value).to.match(/^sha256\$[0-9a-f]{64}$/);
    expect(JSON.stringify(key)).to.not.include(created.personal_api_key);

    const again = await runAdmin(['bootstrap', '--json'], env);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.include('already has an organization');
    expect(await db('organizations').count<{ count: string }[]>('* as count')).to.deep.equal([{ count: '1' }]);
  });

  it('creates a user, an organization, a project and a scoped key, and revokes the key', async () => {
    const user = await runAdmin(['create-user', '--email', 'ada@example.com', '--first-name', 'Ada', '--json'], env);
    expect(user.code, user.stderr).to.equal(0);
    const organization = JSON.parse(
      (await runAdmin(['create-organization', '--name', 'Analytical Engines', '--owner', 'ada@example.com', '--json'], env))
        .stdout,
    );
    expect(organization.slug).to.equal('analytical-engines');
    const project = JSON.parse(
      (await runAdmin(['create-project', '--organization', organization.organization_id, '--name', 'Web', '--json'], env))
        .stdout,
    );
    expect(project.project_api_key).to.match(/^phc_/);
    const key = JSON.parse(
      (
        await runAdmin(
          ['create-key', '--user', 'ada@example.com', '--scopes', 'organization:read,query:read', '--projects', String(project.project_id), '--json'],
          env,
        )
      ).stdout,
    );
    expect(key.scopes).to.deep.equal(['organization:read', 'query:read']);
    expect(key.scoped_teams).to.deep.equal([project.project_id]);
    const stored = await db('personal_api_keys').where({ id: key.id }).first();
    expect(stored.mask_value).to.equal(key.mask_value);

    const revoked = await runAdmin(['revoke-key', key.personal_api_key, '--json'], env);
    expect(JSON.parse(revoked.stdout)).to.deep.equal({ revoked: 1 });
    expect(await db('personal_api_keys').where({ id: key.id }).first()).to.equal(undefined);
  });

  it('fails with exit code 1 and a clear message on bad input', async () => {
    const noScope = await runAdmin(['create-key', '--user', 'ada@example.com', '--scopes', 'everything'], env);
    expect(noScope.code).to.equal(1);
    expect(noScope.stderr).to.include('not a scope: everything');
    const duplicate = await runAdmin(['create-user', '--email', 'ADA@example.com'], env);
    expect(duplicate.code).to.equal(1);
    expect(duplicate.stderr).to.include('already exists');
    const unknown = await runAdmin(['frobnicate'], env);
    expect(unknown.code).to.equal(1);
  });

  describe('on the embedded database of a running server', () => {
    let dataDir: string;
    let server: ServerProcess | null = null;

    before(async function () {
      this.timeout(120_000);
      dataDir = await mkdtemp(join(tmpdir(), 'hedgerow-admin-embedded-'));
      server = await startServerProcess({ HEDGEROW_DATA_DIR: dataDir });
    });
    after(async function () {
      this.timeout(60_000);
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    });

    it('refuses in one line on stderr with exit code 1, and leaves the server serving', async () => {
      const result = await runAdmin(['create-user', '--email', 'grace@example.com'], { HEDGEROW_DATA_DIR: dataDir });
      expect(result.code, result.stderr).to.equal(1);
      expect(result.stderr.trimEnd().split('\n'), result.stderr).to.have.length(1);
      expect(result.stderr).to.match(/^admin create-user: Another Hedgerow process \(pid \d+\) is using the embedded database in /);
      expect(result.stderr).to.include('Stop it first');
      expect((await new HttpClient(server!.baseUrl).get('/_readiness')).status).to.equal(200);
    });
  });
});
