/**
 * `npm run mock`, as the README gives it to front-end developers: Prism mocks the spec on PORT, answering with
 * the spec's examples. (test/contract/prism-mock.test.ts checks those answers operation by operation.)
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from '../helpers/processes.js';
import { freePort } from '../helpers/prism.js';

describe('npm run mock', function () {
  this.timeout(60_000);
  let child: ChildProcess;
  let baseUrl: string;

  before(async () => {
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    // Its own process group: npm starts a shell that starts Prism, and all of them are stopped together.
    child = spawn('npm', ['run', 'mock', '--silent'], { cwd: ROOT, env: { ...process.env, PORT: String(port) }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm run mock did not start:\n${output}`)), 45_000);
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Prism is listening')) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', collect);
      child.stderr?.on('data', collect);
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm run mock exited with ${code}:\n${output}`));
      });
    });
  });

  after(async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  });

  const cases: Array<{ what: string; path: string; headers: Record<string, string>; status: number; body: object }> = [
    { what: 'a public operation', path: '/_health', headers: {}, status: 200, body: { status: 'ok', host: 'web-1:8000' } },
    {
      what: 'an operation that needs a personal API key, given any',
      path: '/api/organizations/',
      headers: { authorization: 'Bearer phx_anything' },
      status: 200,
      body: { count: 1, next: null, previous: null },
    },
    { what: 'an operation that needs a personal API key, given none', path: '/api/organizations/', headers: {}, status: 401, body: {} },
  ];
  for (const { what, path, headers, status, body } of cases) {
    it(`answers ${what} with ${status}, from the spec's examples`, async () => {
      const response = await fetch(`${baseUrl}${path}`, { headers });
      expect(response.status).to.equal(status);
      expect(await response.json()).to.deep.include(body);
    });
  }
});
