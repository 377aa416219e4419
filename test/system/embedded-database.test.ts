/**
 * `npm start` with no DATABASE_URL: the server runs on the embedded PostgreSQL, keeps its data across a clean
 * restart and across a kill -9 (the orphaned postmaster is found and replaced), and leaves no password file.
 */
import { expect } from 'chai';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HttpClient } from '../helpers/http.js';
import { startServerProcess, type ServerProcess } from '../helpers/processes.js';

describe('embedded database (no DATABASE_URL)', function () {
  this.timeout(120_000);
  let dataDir: string;
  let server: ServerProcess | null = null;
  let key: string | undefined;

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hedgerow-embedded-'));
  });
  afterEach(function () {
    // A failure here is the server's to explain: show what it printed.
    if (this.currentTest?.state === 'failed' && server) process.stderr.write(`server output:\n${server.output()}\n`);
  });
  after(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  const keyFrom = (output: string) => /Personal API key: (phx_\S+)/.exec(output)?.[1];

  it('starts on an empty data directory, bootstraps, and serves an organization round trip', async () => {
    const passwordFilesBefore = (await readdir(tmpdir())).filter((f) => f.startsWith('pg-password')).length;
    server = await startServerProcess({ HEDGEROW_DATA_DIR: dataDir });
    key = keyFrom(server.output());
    expect(key, server.output()).to.match(/^phx_/);
    const http = new HttpClient(server.baseUrl, key!);
    const created = await http.post('/api/organizations/', { name: 'Survives restarts' });
    expect(created.status).to.equal(201);
    expect((await http.get(`/api/organizations/${created.body.id}/`)).body.name).to.equal('Survives restarts');
    expect((await http.get('/_readiness')).status).to.equal(200);
    expect((await readdir(tmpdir())).filter((f) => f.startsWith('pg-password')).length).to.equal(passwordFilesBefore);
    expect(await readdir(join(dataDir, 'postgres'))).to.include('PG_VERSION');

    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);

    server = await startServerProcess({ HEDGEROW_DATA_DIR: dataDir });
    expect(server.output()).to.not.include('First run');
    const restarted = new HttpClient(server.baseUrl, key!);
    const list = await restarted.get('/api/organizations/');
    expect(list.body.results.map((org: { name: string }) => org.name)).to.include('Survives restarts');
  });

  it('recovers after the server is killed with SIGKILL, keeping the data', async () => {
    const before = server!;
    const created = await new HttpClient(before.baseUrl, key!).post('/api/organizations/', { name: 'Before the kill' });
    expect(created.status).to.equal(201);
    before.child.kill('SIGKILL');
    await before.exited;

    server = await startServerProcess({ HEDGEROW_DATA_DIR: dataDir });
    const again = new HttpClient(server.baseUrl, key!);
    expect((await again.get('/_readiness')).status).to.equal(200);
    expect((await again.get(`/api/organizations/${created.body.id}/`)).body.name).to.equal('Before the kill');
    server.child.kill('SIGTERM');
    expect(await server.exited).to.equal(0);
  });

  it('refuses to share the data directory with a running Hedgerow', async () => {
    server = await startServerProcess({ HEDGEROW_DATA_DIR: dataDir });
    const second = startServerProcess({ HEDGEROW_DATA_DIR: dataDir });
    let failure: Error | null = null;
    await second.catch((error: Error) => (failure = error));
    expect(String(failure)).to.include('Another Hedgerow process');
    expect((await new HttpClient(server.baseUrl).get('/_readiness')).status).to.equal(200);
  });
});
