/** Runs Hedgerow's own entry points (server, admin CLI) as child processes, as a user would. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { privateBuild } from '../../scripts/build.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Whether a process `pid` still exists: signal 0 checks without signalling it. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The environment without any DATABASE_URL inherited from the caller, plus `extra`. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  if (!('DATABASE_URL' in extra)) delete env.DATABASE_URL;
  return env;
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runAdmin(args: string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { cwd: ROOT, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Resolves when the process has exited. */
  exited: Promise<number | null>;
}

/** The server as `npm start` builds it, built once per test run from the sources as they are now. */
let built: ReturnType<typeof privateBuild> | undefined;

function builtServer(): ReturnType<typeof privateBuild> {
  if (!built) {
    built = privateBuild('test');
    // A failed build is reported to every caller that awaits it; only a finished one has a tree to remove.
    built.then((build) => process.once('exit', () => build.remove())).catch(() => undefined);
  }
  return built;
}

/**
 * Starts the server as `npm start` does (built JavaScript, its node options) and waits for "listening".
 * `detached`: in a process group of its own, as a terminal runs it (a signal to the group reaches every process).
 */
export async function startServerProcess(env: Record<string, string>, options: { detached?: boolean } = {}): Promise<ServerProcess> {
  const { command, args } = await builtServer();
  const child = spawn(command, args, { cwd: ROOT, env: cleanEnv({ PORT: '0', HOST: '127.0.0.1', ...env }), detached: options.detached ?? false });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const check = () => {
      const match = /Hedgerow is listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { child, baseUrl, output: () => output, exited };
}

/** Stops a server started by startServerProcess (SIGTERM, as an operator would), unless it has already exited. */
export async function stopServerProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

/** Starts `npm run worker` (the batch export engine alone, built as `npm start` is) and waits for its start line. */
export async function startExportWorkerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const { dir } = await builtServer();
  const child = spawn(process.execPath, ['--enable-source-maps', `${dir}/handlers/server/worker.js`], { cwd: ROOT, env: cleanEnv(env) });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 60_000);
    child.stdout!.on('data', () => {
      if (output.includes('Hedgerow batch export worker started')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  return { child, baseUrl: '', output: () => output, exited };
}
