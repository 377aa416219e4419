/**
 * `npm run test:citus`: the integration, system and contract suites against a local Citus cluster
 * (scripts/citus.ts), which it starts (building Citus first if need be) and stops again when it started it. Every
 * database the tests make is made on all the cluster's nodes and distributed as it is migrated
 * (test/helpers/postgres.ts), so the suites run on sharded tables.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { down, up } from './citus.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const dir = path.resolve(process.env.HEDGEROW_CITUS_TEST_DIR ?? path.join(ROOT, '.hedgerow-citus-test'));
const SUITES = [
  'test/integration/**/*.test.ts',
  'test/system/**/*.test.ts',
  'test/contract/**/*.test.ts',
  // What only a cluster can show: that each environment's statements run on one node.
  'test/citus/**/*.test.ts',
];
/** Files named on the command line run instead of the suites (`npm run test:citus -- test/citus/foo.test.ts`). */
const files = process.argv.slice(2);

const cluster = await up(dir);
process.stderr.write(`test:citus: coordinator ${cluster.adminUrl}\n`);
let status: number | null = 1;
try {
  const mocha = path.join(ROOT, 'node_modules', '.bin', 'mocha');
  const result = spawnSync(mocha, files.length > 0 ? files : SUITES, {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, HEDGEROW_TEST_ADMIN_URL: cluster.adminUrl, HEDGEROW_TEST_CITUS: '1' },
  });
  status = result.status;
} finally {
  down(dir);
}
process.exitCode = status ?? 1;
