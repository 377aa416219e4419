/**
 * `npm start`: open (or start) the database, migrate, set up a first organization on an empty database, and
 * serve the API and the capture endpoints on one port.
 */
import type { Server } from 'node:http';
import { bootstrap, hasAnyOrganization } from '../db/queries/bootstrap.js';
import { createApp } from './app.js';
import { readConfig } from './config.js';
import { openRuntime } from './runtime.js';

const config = readConfig();
const runtime = await openRuntime(config);
const { db, logger } = runtime;

let firstRun = null;
if (!(await hasAnyOrganization(db))) {
  firstRun = await bootstrap(db, {
    email: process.env.HEDGEROW_ADMIN_EMAIL || 'admin@hedgerow.local',
    organizationName: 'Default organization',
    projectName: 'Default project',
  });
}

const app = await createApp({ db, config, logger });
const server: Server = app.listen(config.port, config.host);
await new Promise<void>((resolve, reject) => {
  server.once('listening', resolve);
  server.once('error', reject);
});
const address = server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
const base = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;

const lines = [`Hedgerow is listening on ${base}`, `  API:     ${base}/api/`, `  Capture: ${base}/i/v0/e/ and ${base}/batch/`];
if (firstRun) {
  lines.push(
    '',
    'First run: created an organization, a project and an admin user.',
    `  Organization id:  ${firstRun.organization_id}`,
    `  Project id:       ${firstRun.project_id}`,
    `  Project API key:  ${firstRun.project_api_key}   (for the SDKs)`,
    `  Personal API key: ${firstRun.personal_api_key}   (shown once; only its hash is stored)`,
    `  User:             ${firstRun.user_email}`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
logger.info({ port }, 'listening');

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  server.close();
  await app.close(); // captured events already accepted are committed (or refused) before the database closes
  server.closeAllConnections();
  await runtime.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
