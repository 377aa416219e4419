/** Starts Prism (mock or validating proxy) on a free port and waits until it answers. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { SPEC_PATH } from '../../handlers/openapi/spec.js';

const PRISM = fileURLToPath(new URL('../../node_modules/.bin/prism', import.meta.url));

export interface PrismProcess {
  url: string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export async function startPrism(mode: 'mock' | 'proxy', args: string[] = []): Promise<PrismProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(PRISM, [mode, SPEC_PATH, ...args, '-p', String(port), '-h', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`prism ${mode} did not start:\n${output}`)), 30_000);
    const check = () => {
      if (/Prism is listening/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`prism ${mode} exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
