/**
 * The spec served as a product: the canonical document for client generators and contract tests, and a
 * reference page rendered from it in the browser by Redoc. Redoc's script comes from the installed `redoc`
 * package through our own route, so the page needs nothing but this server.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { CORE_SCHEMA, load } from 'js-yaml';
import { SPEC_PATH } from './openapi/spec.js';
import { jsonText, type Handler } from './types.js';

// Read when the registry is loaded, that is at start-up: the document the server answers by is the one it serves.
const SPEC_YAML = readFileSync(SPEC_PATH, 'utf8');
// YAML 1.2's core schema, as OpenAPI's: the default schema would turn an unquoted date into a Date (and change it).
const SPEC_JSON = JSON.stringify(load(SPEC_YAML, { schema: CORE_SCHEMA }));

const RENDERER_PATH = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
let renderer: Promise<string> | null = null;

/**
 * The page only names our own addresses, and its Content-Security-Policy keeps it so: Redoc's sidebar shows a
 * logo from Redocly's CDN, which the browser then does not fetch (Redoc hides the image when it fails to load).
 * Redoc styles itself with inline styles and runs its search index in a worker made from a blob.
 */
const REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta http-equiv="Content-Security-Policy" content="default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; worker-src 'self' blob:">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <link rel="icon" href="data:,">
    <title>Hedgerow API reference</title>
    <style>body { margin: 0; }</style>
  </head>
  <body>
    <redoc spec-url="/openapi.json"></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>
`;

export const openapi_yaml_retrieve: Handler<'openapi_yaml_retrieve'> = async () => ({
  status: 200,
  body: SPEC_YAML,
  contentType: 'application/yaml',
});

export const openapi_json_retrieve: Handler<'openapi_json_retrieve'> = async () => ({ status: 200, body: jsonText(SPEC_JSON) });

export const docs_retrieve: Handler<'docs_retrieve'> = async () => ({ status: 200, body: REFERENCE_PAGE, contentType: 'text/html' });

/** Read on the first request, not at start-up: a megabyte that most servers (and every worker) never serve. */
export const docs_renderer_retrieve: Handler<'docs_renderer_retrieve'> = async () => {
  renderer ??= readFile(RENDERER_PATH, 'utf8');
  return { status: 200, body: await renderer, contentType: 'text/javascript' };
};
