/**
 * What the benchmarks that start servers share: starting a process and waiting for its `listening on <base URL>`,
 * stopping it, timing one piece of work, percentiles.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Started {
  child: ChildProcess;
  base: string;
}

/** How long a server may take to say where it listens before it is taken for stuck and stopped. */
const START_DEADLINE_MS = 60_000;

/** How long a stopped server may take to close its connections and pools before it is killed. */
const STOP_DEADLINE_MS = 30_000;

/**
 * Starts a server process and waits for it to print `listening on <base URL>`. Its output goes to a file, not
 * to a pipe: reading a line the server logs for each request would wake this process in the middle of the
 * measurements. A process that does not start is stopped here, since the caller never gets it to stop.
 */
export async function startProcess(name: string, command: string, args: string[], env: Record<string, string>): Promise<Started> {
  const logPath = join(tmpdir(), `hedgerow-bench-${name}-${randomBytes(4).toString('hex')}.log`);
  const log = openSync(logPath, 'w');
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', log, log] });
  closeSync(log);
  const output = () => readFileSync(logPath, 'utf8').slice(0, 20_000);
  try {
    const base = await new Promise<string>((resolve, reject) => {
      const started = Date.now();
      // Whichever comes first (the line, an exit, an error, the deadline) ends the wait and the others with it.
      const settle = (outcome: { base: string } | { error: Error }) => {
        clearInterval(poll);
        child.off('exit', exited);
        child.off('error', failed);
        if ('base' in outcome) resolve(outcome.base);
        else reject(outcome.error);
      };
      const exited = (code: number | null) => settle({ error: new Error(`${name} exited with ${code}:\n${output()}`) });
      const failed = (error: Error) => settle({ error });
      const poll = setInterval(() => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output());
        if (match) settle({ base: match[1]! });
        else if (Date.now() - started > START_DEADLINE_MS) settle({ error: new Error(`${name} did not start:\n${output()}`) });
      }, 50);
      child.once('exit', exited);
      child.once('error', failed);
    }).catch(async (error: unknown) => {
      await stopProcess(child);
      throw error;
    });
    return { child, base };
  } finally {
    rmSync(logPath, { force: true }); // the process keeps writing to the unlinked file
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  // Over already: it exited, was killed by a signal, or never started (spawn failed: no pid).
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  // A process stuck before it set up its SIGTERM handler (or in it) would otherwise hold the benchmark forever.
  const kill = setTimeout(() => child.kill('SIGKILL'), STOP_DEADLINE_MS);
  await exited;
  clearTimeout(kill);
}

/** Milliseconds `work` took. */
export async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
