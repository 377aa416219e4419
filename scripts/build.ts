/**
 * `npm run build` (run by `npm start` first): the server as plain JavaScript in `.hedgerow-build/`, so that
 * `npm start` runs on node alone.
 *
 * Why not run the TypeScript through tsx as the tests do: tsx's loader is a second V8 isolate on a thread of its
 * own for the life of the process, holding resident memory, and the memory it saves lets the server give V8 a
 * larger young generation, which is what capture's per-event cost is most sensitive to (scripts/bench/README.md).
 * esbuild only strips the types (each file on its own, no bundling); type checking is
 * `npm run typecheck`'s job.
 *
 * The output mirrors the source tree (`handlers/`, `db/` with its migrations), and `spec/openapi.yaml` is copied
 * beside it, so that paths resolved from a module's own location (the spec, the migrations) are the same in
 * both trees. `npm start` needs a writable checkout for it.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Where `npm start`'s JavaScript goes (git-ignored, as is every `.hedgerow-build*` directory). */
const BUILD_DIR = join(ROOT, '.hedgerow-build');

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
 * Puts the tree `fresh` in place of `target`. Another build of the same target may swap its own tree in
 * meanwhile (two `npm start`s at once); the last one wins.
 */
async function swapIn(fresh: string, target: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await rm(target, { recursive: true, force: true });
      await rename(fresh, target);
      return;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= 5 || (code !== 'ENOTEMPTY' && code !== 'EEXIST')) throw error;
    }
  }
}

/**
 * Writes the server's JavaScript into `outDir` (inside the checkout, so that its imports find node_modules);
 * returns the number of modules written. The tree is written beside `outDir` and swapped in whole.
 */
async function buildServer(outDir: string): Promise<number> {
  const sources = (await Promise.all(SOURCE_DIRS.map((dir) => typescriptFiles(join(ROOT, dir))))).flat();
  const fresh = `${outDir}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
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
    await swapIn(fresh, outDir);
  } finally {
    await rm(fresh, { recursive: true, force: true });
  }
  return sources.length;
}

/**
 * What `npm start` runs after building, read from package.json, for a build in `buildDir`: `node` and its
 * arguments, with the entry point moved from `.hedgerow-build/` to `buildDir`.
 */
async function startCommand(buildDir: string): Promise<{ command: string; args: string[] }> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const [command, ...args] = manifest.scripts.start.trim().split(/\s+/);
  const prefix = `${relative(ROOT, BUILD_DIR)}/`;
  if (command !== 'node' || !args.some((arg) => arg.startsWith(prefix))) {
    throw new Error(`npm start is not "node … ${prefix}…": ${manifest.scripts.start}`);
  }
  const rebased = args.map((arg) => (arg.startsWith(prefix) ? join(buildDir, arg.slice(prefix.length)) : arg));
  return { command: process.execPath, args: rebased };
}

/**
 * For tests and benchmarks: the server built from the sources as they are now, in a directory of its own (never
 * the one `npm start` uses, which may be serving), and the command that starts it as `npm start` would.
 * `remove()` deletes the build.
 */
export async function privateBuild(purpose: string): Promise<{ dir: string; command: string; args: string[]; remove(): void }> {
  const dir = `${BUILD_DIR}-${purpose}-${process.pid}`;
  await buildServer(dir);
  const { command, args } = await startCommand(dir);
  return { dir, command, args, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const started = performance.now();
  const modules = await buildServer(BUILD_DIR);
  const ms = Math.round(performance.now() - started);
  process.stdout.write(`built ${modules} modules into ${relative(process.cwd(), BUILD_DIR) || '.'} in ${ms} ms\n`);
}
