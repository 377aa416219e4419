/**
 * Run before `npm test`: makes sure of what the tests need from the machine, so that the README's test command
 * passes on its own on a fresh machine. PostgreSQL must answer at the tests' admin URL (started here when it is
 * installed and we are root) and Debian's Chromium must be at /usr/bin/chromium for the posthog-js browser test
 * (installed here when we are root and have apt). Where it cannot do that itself it stops at once, naming the
 * one command that fixes it. Silent when everything is there.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { ADMIN_URL } from '../test/helpers/database.js';

/** What the remedies depend on, gathered from the machine once (and given by hand in the unit test). */
export interface Machine {
  isRoot: boolean;
  /** Whether an executable of this name is on the PATH. */
  has: (command: string) => boolean;
  /** Installed PostgreSQL major versions (Debian's /etc/postgresql/<version>/main). */
  postgresVersions: string[];
  /** Whether the admin URL points at this machine, where starting a server can help. */
  adminUrlIsLocal: boolean;
}

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** A remedy: the command we may run ourselves (`run`), and the one the user is told when we cannot or it fails. */
export interface Remedy {
  run: string[] | null;
  tell: string;
}

/** `refused`: nothing listens there (as opposed to a server that answered with an error, such as a login refused). */
export function postgresRemedy(machine: Machine, refused: boolean): Remedy {
  if (!refused) {
    return {
      run: null,
      tell: 'let the postgres user connect without a password, or set HEDGEROW_TEST_ADMIN_URL to a URL that may create databases',
    };
  }
  if (!machine.adminUrlIsLocal) {
    return { run: null, tell: 'start the PostgreSQL server that HEDGEROW_TEST_ADMIN_URL names' };
  }
  const version = [...machine.postgresVersions].sort((a, b) => Number(b) - Number(a))[0];
  if (version === undefined || !machine.has('pg_ctlcluster')) {
    const install = 'apt-get install -y postgresql && pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start';
    return { run: null, tell: machine.isRoot ? install : `sudo sh -c '${install}'` };
  }
  const start = ['pg_ctlcluster', '--skip-systemctl-redirect', version, 'main', 'start'];
  return machine.isRoot ? { run: start, tell: start.join(' ') } : { run: null, tell: `sudo ${start.join(' ')}` };
}

export function chromiumRemedy(machine: Machine): Remedy {
  if (!machine.has('apt-get')) {
    return { run: null, tell: `install Chromium so that ${CHROMIUM_PATH} exists (Debian's package: chromium)` };
  }
  // Chromium's recommended packages (printer set-up and its samba libraries, upower, a notification daemon, fonts)
  // are hundreds of megabytes the headless tests never use; its dependencies bring a font of their own.
  const install = ['apt-get', 'install', '-y', '--no-install-recommends', 'chromium'];
  return machine.isRoot ? { run: install, tell: install.join(' ') } : { run: null, tell: `sudo ${install.join(' ')}` };
}

function thisMachine(): Machine {
  const onPath = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
  const host = new URL(ADMIN_URL).hostname;
  return {
    isRoot: process.getuid?.() === 0,
    has: onPath,
    postgresVersions: existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').filter((name) => /^\d+$/.test(name)) : [],
    adminUrlIsLocal: ['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(host),
  };
}

interface PostgresFailure {
  message: string;
  refused: boolean;
}

/** Errors of the socket rather than of PostgreSQL: no server is listening where the URL points. */
const NOT_LISTENING = new Set(['ECONNREFUSED', 'ENOENT', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

async function postgresAnswers(): Promise<PostgresFailure | null> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { message: message || String(error), refused: NOT_LISTENING.has(code ?? '') || /timeout/i.test(message) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

function stop(what: string, remedy: Remedy): never {
  process.stderr.write(`npm test needs ${what}. To fix it:\n  ${remedy.tell}\n`);
  process.exit(1);
}

/** Runs a remedy's command with its output shown (an install is worth seeing); true when it succeeded. */
function attempt(command: string[]): boolean {
  process.stderr.write(`prerequisites: running ${command.join(' ')}\n`);
  try {
    execFileSync(command[0]!, command.slice(1), { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return true;
  } catch {
    return false;
  }
}

async function ensurePostgres(machine: Machine): Promise<void> {
  const failure = await postgresAnswers();
  if (failure === null) return;
  const what = `PostgreSQL at ${ADMIN_URL.replace(/\/\/[^@/]*@/, '//…@')} (${failure.message})`;
  const remedy = postgresRemedy(machine, failure.refused);
  if (!remedy.run || !attempt(remedy.run)) stop(what, remedy);
  // The cluster accepts connections a moment after pg_ctlcluster returns on a cold machine.
  for (let tries = 0; tries < 30; tries += 1) {
    if ((await postgresAnswers()) === null) return;
    await sleep(1_000);
  }
  stop(what, remedy);
}

function ensureChromium(machine: Machine): void {
  if (existsSync(CHROMIUM_PATH)) return;
  const what = `Chromium at ${CHROMIUM_PATH} for the posthog-js browser test`;
  const remedy = chromiumRemedy(machine);
  if (!remedy.run) stop(what, remedy);
  // A fresh machine's package lists may be missing or stale: refresh them once, then try again.
  const installed = attempt(remedy.run) || (attempt(['apt-get', 'update']) && attempt(remedy.run));
  if (!installed || !existsSync(CHROMIUM_PATH)) stop(what, remedy);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const machine = thisMachine();
  await ensurePostgres(machine);
  ensureChromium(machine);
}
