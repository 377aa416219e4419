/**
 * `npm run build` (run by `npm start` first): the server as plain JavaScript in `.hedgerow-build/`, so that
 * `npm start` runs on node alone.
 *
 * Why not run the TypeScript through tsx as the tests do: tsx's loader is a second V8 isolate on a thread of its
 * own for the life of the process (about 30 MB of resident memory), and the memory it saves lets the server give
 * V8 a larger young generation, which is what capture's per-event cost is most sensitive to (README,
 * "Benchmarks"). esbuild only strips the types (each file on its own, no bundling); type checking is
 * `npm run typecheck`'s job.
 *
 * The output mirrors the source tree (`handlers/`, `db/` with its migrations), and `spec/openapi.yaml` is copied
 * beside it, so that paths resolved from a module's own location (the spec, the migrations) are the same in
 * both trees.
 */
import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where `npm start`'s JavaScript goes (git-ignored). */
export const BUILD_DIR = join(ROOT, '.hedgerow-build');

/** The source folders the server is made of. */
const SOURCE_DIRS = ['handlers', 'db'];

/** Files the server reads at run time, relative to the root, copied as they are. */
const COPIED_FILES = ['spec/openapi.yaml'];

async function typescriptFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return typescriptFiles(path);
      return Promise.resolve(entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : []);
    }),
  );
  return nested.flat();
}

/**
 * Writes `.hedgerow-build/` afresh; returns the number of modules written. The new tree is written beside the
 * old one and swapped in, so a server starting meanwhile never sees half a tree.
 */
export async function buildServer(): Promise<number> {
  const sources = (await Promise.all(SOURCE_DIRS.map((dir) => typescriptFiles(join(ROOT, dir))))).flat();
  const fresh = `${BUILD_DIR}.${process.pid}`;
  await rm(fresh, { recursive: true, force: true });
  await build({
    entryPoints: sources,
    outdir: fresh,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Stack traces in the logs point at the TypeScript (node runs with --enable-source-maps).
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
  });
  for (const file of COPIED_FILES) {
    const target = join(fresh, file);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(ROOT, file), target);
  }
  await rm(BUILD_DIR, { recursive: true, force: true });
  await rename(fresh, BUILD_DIR);
  return sources.length;
}

/**
 * What `npm start` runs after building: `node` and its arguments, read from package.json, so that tests and
 * benchmarks start the server exactly as users do.
 */
export async function startCommand(): Promise<{ command: string; args: string[] }> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [command, ...args] = manifest.scripts.start.trim().split(/\s+/);
  if (command !== 'node') throw new Error(`npm start is not "node …": ${manifest.scripts.start}`);
  return { command: process.execPath, args };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const modules = await buildServer();
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`built ${modules} modules into ${relative(process.cwd(), BUILD_DIR) || '.'} in ${ms} ms\n`);
}
