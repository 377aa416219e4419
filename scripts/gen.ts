/**
 * Generates generated/api.ts from spec/openapi.yaml with openapi-typescript, and generated/hogql-functions.md
 * (the functions HogQL runs and the ones it refuses) from the compiler's function tables.
 *
 *   tsx scripts/gen.ts           write the files
 *   tsx scripts/gen.ts --check   exit 1 when a committed file differs from what it is generated from
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { catalogueMarkdown } from '../db/hogql/select/index.js';

const specUrl = new URL('../spec/openapi.yaml', import.meta.url);
const outputUrl = new URL('../generated/api.ts', import.meta.url);
const functionsUrl = new URL('../generated/hogql-functions.md', import.meta.url);

const BANNER = `/**
 * GENERATED FILE — DO NOT EDIT.
 * Written by \`npm run gen\` (scripts/gen.ts) from spec/openapi.yaml with openapi-typescript.
 * Change the spec and regenerate; \`npm run gen:check\` fails when this file is stale.
 */

`;

async function render(): Promise<string> {
  const ast = await openapiTS(specUrl, { alphabetize: false, exportType: false });
  return BANNER + astToString(ast);
}

async function main(): Promise<void> {
  const outputs: [URL, string, string][] = [
    [outputUrl, await render(), 'spec/openapi.yaml'],
    [functionsUrl, `${catalogueMarkdown()}\n`, "the compiler's function tables"],
  ];
  if (process.argv.includes('--check')) {
    let stale = false;
    for (const [url, fresh, source] of outputs) {
      const committed = await readFile(url, 'utf8').catch(() => '');
      if (committed !== fresh) {
        process.stderr.write(`${fileURLToPath(url)} is stale against ${source}: run \`npm run gen\` and commit the result.\n`);
        stale = true;
      }
    }
    if (stale) process.exit(1);
    process.stdout.write('generated/ is up to date.\n');
    return;
  }
  for (const [url, fresh] of outputs) {
    await writeFile(url, fresh);
    process.stdout.write(`wrote ${fileURLToPath(url)}\n`);
  }
}

await main();
