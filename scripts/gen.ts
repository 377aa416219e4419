/**
 * Generates generated/api.ts from spec/openapi.yaml with openapi-typescript.
 *
 *   tsx scripts/gen.ts           write the file
 *   tsx scripts/gen.ts --check   exit 1 when the committed file differs from what the spec generates
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const specUrl = new URL('../spec/openapi.yaml', import.meta.url);
const outputUrl = new URL('../generated/api.ts', import.meta.url);

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
  const fresh = await render();
  if (process.argv.includes('--check')) {
    const committed = await readFile(outputUrl, 'utf8').catch(() => '');
    if (committed !== fresh) {
      process.stderr.write(
        `${fileURLToPath(outputUrl)} is stale against spec/openapi.yaml: run \`npm run gen\` and commit the result.\n`,
      );
      process.exit(1);
    }
    process.stdout.write('generated/api.ts is up to date.\n');
    return;
  }
  await writeFile(outputUrl, fresh);
  process.stdout.write(`wrote ${fileURLToPath(outputUrl)}\n`);
}

await main();
