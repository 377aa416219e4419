/**
 * The spec and its reference page as `npm start` serves them: from the built tree, which resolves the document
 * and Redoc's bundle from its own location, not the sources'.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { SPEC_PATH } from '../../handlers/openapi/spec.js';
import { connectionStringOf } from '../../db/pg/client.js';
import { testDb } from '../helpers/database.js';
import { HttpClient } from '../helpers/http.js';
import { startServerProcess, type ServerProcess, stopServerProcess } from '../helpers/processes.js';

describe('system: the spec served by the built server', function () {
  this.timeout(120_000);
  let server: ServerProcess;

  before(async () => {
    const databaseUrl = connectionStringOf(testDb());
    server = await startServerProcess({ DATABASE_URL: databaseUrl, HEDGEROW_WORKERS: '1' });
  });

  after(async () => {
    if (server) await stopServerProcess(server);
  });

  const cases = [
    { path: '/openapi.yaml', text: readFileSync(SPEC_PATH, 'utf8') },
    { path: '/docs/redoc.standalone.js', text: readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8') },
  ];
  for (const { path, text } of cases) {
    it(`serves ${path} as installed`, async () => {
      const res = await new HttpClient(server.baseUrl).get(path);
      expect(res.status).to.equal(200);
      expect(res.text === text, `${path} differs from the installed file`).to.equal(true);
    });
  }
});
