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

/**
 * Starts a server process and waits for it to print `listening on <base URL>`. Its output goes to a file, not
 * to a pipe: reading a line the server logs for each request would wake this process in the middle of the
 * measurements.
 */
export async function startProcess(name: string, command: string, args: string[], env: Record<string, string>): Promise<Started> {
  const logPath = join(tmpdir(), `hedgerow-bench-${name}-${randomBytes(4).toString('hex')}.log`);
  const log = openSync(logPath, 'w');
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', log, log] });
  closeSync(log);
  const output = () => readFileSync(logPath, 'utf8').slice(0, 20_000);
  try {
    return await new Promise<Started>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`${name} exited with ${code}:\n${output()}`));
      child.once('exit', exited);
      child.once('error', reject);
      const started = Date.now();
      const poll = setInterval(() => {
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output());
        if (match || Date.now() - started > 60_000) {
          clearInterval(poll);
          child.off('exit', exited);
          if (match) resolve({ child, base: match[1]! });
          else reject(new Error(`${name} did not start:\n${output()}`));
        }
      }, 50);
    });
  } finally {
    rmSync(logPath, { force: true }); // the process keeps writing to the unlinked file
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
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
