/**
 * Each process of `npm start` loads only what it uses: the packages each entry point reaches through static
 * imports (those loaded when the process starts; a dynamic import loads when it runs). The supervisor reaches no
 * database driver, app or engine; no process reaches the AWS SDK, the Parquet writer or its codecs before an S3 run.
 */
import { expect } from 'chai';
import { build, type Metafile } from 'esbuild';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The npm packages `entry` reaches through static imports alone. */
async function staticPackages(entry: string): Promise<Set<string>> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const { inputs }: Metafile = result.metafile;
  const packages = new Set<string>();
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of inputs[file]?.imports ?? []) {
      if (imported.kind !== 'import-statement') continue;
      if (imported.external) {
        if (!imported.path.startsWith('node:')) packages.add(imported.path.split('/').slice(0, imported.path.startsWith('@') ? 2 : 1).join('/'));
      } else queue.push(imported.path);
    }
  }
  return packages;
}

const EXPORT_FILE_PACKAGES = ['@aws-sdk/client-s3', 'hyparquet-writer', '@hpcc-js/wasm-zstd', 'lz4-wasm-nodejs'];
const SERVING_PACKAGES = ['koa', 'openapi-backend', 'ajv', 'js-yaml'];

describe('unit: what each process of npm start loads when it starts', function () {
  this.timeout(60_000);

  it('the supervisor: its logger alone (no database driver, no app, no engine, no export file writers)', async () => {
    // main.ts imports each role's modules in that role's process only.
    expect([...(await staticPackages('handlers/server/main.ts'))]).to.deep.equal([]);
    expect([...(await staticPackages('handlers/server/primary.ts'))]).to.deep.equal(['pino']);
  });

  it('an HTTP worker: the app and the database, not the AWS SDK nor the Parquet writer', async () => {
    const reached = await staticPackages('handlers/server/http-worker.ts');
    expect([...reached]).to.include.members([...SERVING_PACKAGES, 'knex', 'pg']);
    for (const name of EXPORT_FILE_PACKAGES) expect(reached.has(name), name).to.equal(false);
  });

  it("the job engine's process: the engine, not the app, and the S3 packages only once an S3 run imports them", async () => {
    const reached = await staticPackages('handlers/server/jobs-process.ts');
    expect([...reached]).to.include.members(['knex', 'pg', 'pg-boss']);
    for (const name of [...EXPORT_FILE_PACKAGES, ...SERVING_PACKAGES]) expect(reached.has(name), name).to.equal(false);
  });
});
