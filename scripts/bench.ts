/**
 * `npm run bench -- <name> [options]`: runs the benchmark in scripts/bench/<name>.ts (its `run(args)`), which
 * prints one table with every figure measured in that run and the ratios between them. Benchmarks are never
 * timed tests: the machine is shared and its absolute speed drifts, so only ratios measured side by side in one
 * run are compared with targets.
 */
import { readdir } from 'node:fs/promises';

const [name, ...args] = process.argv.slice(2);
const directory = new URL('./bench/', import.meta.url);
const available = (await readdir(directory))
  .filter((file) => file.endsWith('.ts') && !file.startsWith('_'))
  .map((file) => file.slice(0, -'.ts'.length));

if (!name || !available.includes(name)) {
  process.stderr.write(`usage: npm run bench -- <${available.join('|')}> [options]\n`);
  process.exit(2);
}

const bench = (await import(new URL(`${name}.ts`, directory).href)) as { run(args: string[]): Promise<void> };
await bench.run(args);
