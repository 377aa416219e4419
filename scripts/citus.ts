/**
 * `npm run citus -- up|down|status [--dir D]`: a local Citus cluster for development, tests and benchmarks, a
 * coordinator and two workers, each a cluster of Debian's PostgreSQL 15 made by `initdb` on a free loopback
 * port, all under one directory (default `.hedgerow-citus/`).
 *
 * `up` builds and installs Citus from ../shared/vendor/citus/ first when the installed one is not that version
 * (as root; otherwise it stops with the command that does it), starts the nodes (making them the first time),
 * joins them, and prints the coordinator's DATABASE_URL: database `hedgerow`, which `npm start` then migrates
 * and distributes. `down` stops the nodes and keeps their data; `status` says what runs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { clusterNodes, createClusterDatabase, joinDatabase, withClient, type ClusterNodes } from '../db/pg/citus.js';

const ROOT = path.resolve(import.meta.dirname, '..');
/** The vendored source: beside the project's checkout, unless HEDGEROW_CITUS_SOURCE names its folder. */
const VENDOR = path.resolve(process.env.HEDGEROW_CITUS_SOURCE ?? path.join(ROOT, '..', 'shared', 'vendor', 'citus'));
export const CITUS_RELEASE = '13.2.2';
/** The extension version that release installs (its citus.control), by which an installed build is recognised. */
const EXTENSION_VERSION = '13.2-1';
const SOURCE_ARCHIVE = path.join(VENDOR, `citus-${CITUS_RELEASE}.tar.gz`);
const COMPAT_PATCH = path.join(VENDOR, 'pg15.20-compat.patch');
const PG_MAJOR = '15';
const PG_BIN = `/usr/lib/postgresql/${PG_MAJOR}/bin`;
const PG_LIB = `/usr/lib/postgresql/${PG_MAJOR}/lib`;
const PG_SHARE = `/usr/share/postgresql/${PG_MAJOR}`;
const BUILD_PACKAGES = [
  'postgresql-server-dev-15', 'libcurl4-openssl-dev', 'liblz4-dev', 'libzstd-dev', 'libkrb5-dev', 'libssl-dev',
  'libselinux1-dev', 'libxslt1-dev', 'libpam0g-dev', 'libreadline-dev',
];
export const DEFAULT_DIR = path.join(ROOT, '.hedgerow-citus');
const DATABASE = 'hedgerow';
const NODE_NAMES = ['coordinator', 'worker-1', 'worker-2'] as const;
const HOST = '127.0.0.1';

/** Four shards per worker: enough to spread environments, few enough that a test's new database is made fast. */
const SHARD_COUNT = 8;

interface ClusterState {
  ports: Record<(typeof NODE_NAMES)[number], number>;
}

class StopError extends Error {}

const isRoot = process.getuid?.() === 0;

function log(line: string): void {
  process.stderr.write(`citus: ${line}\n`);
}

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
function runPostgresProgram(program: string, args: string[], options: { quiet?: boolean } = {}): string {
  const command = isRoot ? ['runuser', '-u', 'postgres', '--', path.join(PG_BIN, program), ...args] : [path.join(PG_BIN, program), ...args];
  return execFileSync(command[0]!, command.slice(1), { encoding: 'utf8', stdio: ['ignore', 'pipe', options.quiet ? 'ignore' : 'pipe'] });
}

/** The default_version of the installed extension, or null when none is. */
function installedExtensionVersion(): string | null {
  const control = path.join(PG_SHARE, 'extension', 'citus.control');
  if (!existsSync(control) || !existsSync(path.join(PG_LIB, 'citus.so'))) return null;
  return /default_version\s*=\s*'([^']+)'/.exec(readFileSync(control, 'utf8'))?.[1] ?? null;
}

function run(command: string, args: string[], cwd?: string): void {
  log(`${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new StopError(`${command} ${args.join(' ')} failed (exit ${result.status})`);
}

/** Builds and installs the vendored Citus unless that version is installed already. */
function ensureCitusInstalled(dir: string): void {
  if (!existsSync(path.join(PG_BIN, 'initdb'))) {
    throw new StopError(`Debian's PostgreSQL ${PG_MAJOR} is needed: apt-get install -y postgresql-${PG_MAJOR}`);
  }
  const installed = installedExtensionVersion();
  if (installed === EXTENSION_VERSION) return;
  if (!existsSync(SOURCE_ARCHIVE)) {
    throw new StopError(`the Citus source is missing: ${SOURCE_ARCHIVE} (HEDGEROW_CITUS_SOURCE names its folder)`);
  }
  if (!isRoot) {
    throw new StopError(`Citus ${CITUS_RELEASE} is not installed (found ${installed ?? 'none'}); as root run: npm run citus -- up`);
  }
  log(`building Citus ${CITUS_RELEASE} (found ${installed ?? 'none'}); this takes a few minutes`);
  run('apt-get', ['install', '-y', '--no-install-recommends', ...BUILD_PACKAGES]);
  const build = path.join(dir, 'build');
  rmSync(build, { recursive: true, force: true });
  mkdirSync(build, { recursive: true });
  run('tar', ['-xzf', SOURCE_ARCHIVE, '-C', build]);
  const source = path.join(build, `citus-${CITUS_RELEASE}`);
  run('patch', ['-p1', '-i', COMPAT_PATCH], source);
  run('./configure', [], source);
  run('make', ['-j2'], source);
  run('make', ['install'], source);
  rmSync(build, { recursive: true, force: true });
}

function statePath(dir: string): string {
  return path.join(dir, 'cluster.json');
}

function readState(dir: string): ClusterState | null {
  return existsSync(statePath(dir)) ? (JSON.parse(readFileSync(statePath(dir), 'utf8')) as ClusterState) : null;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function nodeDir(dir: string, name: string): string {
  return path.join(dir, name);
}

function isRunning(dir: string, name: string): boolean {
  const result = isRoot
    ? spawnSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, 'pg_ctl'), 'status', '-D', nodeDir(dir, name)], { stdio: 'ignore' })
    : spawnSync(path.join(PG_BIN, 'pg_ctl'), ['status', '-D', nodeDir(dir, name)], { stdio: 'ignore' });
  return result.status === 0;
}

function makeDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true });
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
}

function initNode(dir: string, name: string, port: number): void {
  const data = nodeDir(dir, name);
  runPostgresProgram('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'], { quiet: true });
  const settings = [
    `port = ${port}`,
    `listen_addresses = '${HOST}'`,
    `unix_socket_directories = '${dir}'`,
    `shared_preload_libraries = 'citus'`,
    'max_connections = 300',
    `citus.shard_count = ${SHARD_COUNT}`,
    // Each worker answers the coordinator's many sessions at once when the test suite runs in parallel.
    'citus.max_shared_pool_size = 200',
    // Citus keeps a maintenance process per database, and the tests make many databases: room for them and
    // for parallel query workers besides.
    'max_worker_processes = 64',
    // The nodes talk over loopback: no TLS between them, so that Citus does not turn on TLS with a certificate
    // of its own making when its extension is made (a client that checks certificates would refuse it).
    "citus.node_conninfo = 'sslmode=disable'",
  ];
  const conf = path.join(data, 'postgresql.conf');
  writeFileSync(conf, `${readFileSync(conf, 'utf8')}\n# Hedgerow's local Citus node\n${settings.join('\n')}\n`);
}

function startNode(dir: string, name: string): void {
  runPostgresProgram('pg_ctl', ['start', '-w', '-t', '60', '-D', nodeDir(dir, name), '-l', path.join(dir, `${name}.log`)], { quiet: true });
}

function adminUrl(port: number, database = 'postgres'): string {
  return `postgres://postgres@${HOST}:${port}/${database}`;
}

function nodesOf(state: ClusterState): ClusterNodes {
  return {
    coordinator: { host: HOST, port: state.ports.coordinator },
    workers: [state.ports['worker-1'], state.ports['worker-2']].map((port) => ({ host: HOST, port })),
  };
}

/** Starts the cluster (making it first when there is none) and answers the coordinator's maintenance URL. */
export async function up(dir: string): Promise<{ adminUrl: string; databaseUrl: string }> {
  ensureCitusInstalled(dir);
  let state = readState(dir);
  const fresh = state === null;
  if (state === null) {
    makeDirectory(dir);
    const ports = { coordinator: await freePort(), 'worker-1': await freePort(), 'worker-2': await freePort() };
    for (const name of NODE_NAMES) initNode(dir, name, ports[name]);
    state = { ports };
    writeFileSync(statePath(dir), `${JSON.stringify(state, null, 2)}\n`);
  }
  for (const name of NODE_NAMES) if (!isRunning(dir, name)) startNode(dir, name);
  const nodes = nodesOf(state);
  if (fresh) {
    for (const name of NODE_NAMES) await withClient(adminUrl(state.ports[name]), (client) => client.query('create extension citus'));
    await joinDatabase(adminUrl(state.ports.coordinator), nodes);
    await createClusterDatabase(adminUrl(state.ports.coordinator), nodes, DATABASE);
  }
  return { adminUrl: adminUrl(state.ports.coordinator), databaseUrl: adminUrl(state.ports.coordinator, DATABASE) };
}

export function down(dir: string): string[] {
  const stopped: string[] = [];
  for (const name of NODE_NAMES) {
    if (!existsSync(nodeDir(dir, name)) || !isRunning(dir, name)) continue;
    runPostgresProgram('pg_ctl', ['stop', '-w', '-m', 'fast', '-D', nodeDir(dir, name)], { quiet: true });
    stopped.push(name);
  }
  return stopped;
}

async function status(dir: string): Promise<string[]> {
  const state = readState(dir);
  if (state === null) return [`no cluster in ${dir} (npm run citus -- up makes one)`];
  const lines: string[] = [];
  for (const name of NODE_NAMES) {
    const port = state.ports[name];
    if (!isRunning(dir, name)) {
      lines.push(`${name}: stopped (port ${port})`);
      continue;
    }
    const { rows } = await withClient(adminUrl(port), (client) => client.query('select citus_version() as version'));
    lines.push(`${name}: running on ${HOST}:${port}, ${String(rows[0].version).split(' on ')[0]}`);
  }
  if (lines.every((line) => line.includes('running'))) {
    const nodes = await clusterNodes(adminUrl(state.ports.coordinator));
    lines.push(`workers joined: ${nodes?.workers.map((worker) => `${worker.host}:${worker.port}`).join(', ') ?? 'none'}`);
    lines.push(`DATABASE_URL=${adminUrl(state.ports.coordinator, DATABASE)}`);
  }
  return lines;
}

const USAGE = 'Usage: npm run citus -- up|down|status [--dir DIRECTORY]';

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: { dir: { type: 'string' } }, allowPositionals: true });
  const dir = path.resolve(values.dir ?? process.env.HEDGEROW_CITUS_DIR ?? DEFAULT_DIR);
  try {
    switch (positionals[0]) {
      case 'up': {
        const cluster = await up(dir);
        process.stdout.write(`DATABASE_URL=${cluster.databaseUrl}\n`);
        return 0;
      }
      case 'down':
        log(`stopped: ${down(dir).join(', ') || 'nothing was running'}`);
        return 0;
      case 'status':
        process.stdout.write(`${(await status(dir)).join('\n')}\n`);
        return 0;
      default:
        process.stderr.write(`${USAGE}\n`);
        return 2;
    }
  } catch (error) {
    if (!(error instanceof StopError)) throw error;
    process.stderr.write(`citus: ${error.message}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2));
}
