/**
 * The spec served as a product: the canonical document as YAML and JSON, and the reference page with its
 * renderer, without credentials, each also answering HEAD.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CORE_SCHEMA, load } from 'js-yaml';
import { SPEC_PATH } from '../../handlers/openapi/spec.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const SPEC_YAML = readFileSync(SPEC_PATH, 'utf8');
const REDOC_BUNDLE = readFileSync(createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'), 'utf8');

describe('the spec served by the server', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });

  after(async () => {
    await server?.close();
  });

  /** GET and HEAD of `path` without credentials; `body` checks the text served. */
  const servesDocument = (path: string, contentType: string, body: (text: string) => void) => {
    it(`GET ${path} answers ${contentType} without credentials`, async () => {
      const res = await server.http.get(path);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(new RegExp(`^${contentType}(;|$)`));
      body(res.text);
    });

    it(`HEAD ${path} answers GET's status and length without the body`, async () => {
      const get = await server.http.get(path);
      const head = await server.http.request('HEAD', path);
      expect(head.status).to.equal(200);
      expect(head.text).to.equal('');
      expect(head.headers.get('content-length')).to.equal(String(Buffer.byteLength(get.text)));
    });

    it(`GET ${path} answers 400 for a query parameter it does not take`, async () => {
      const res = await server.http.get(`${path}?page=2`);
      expect(res.status).to.equal(400);
      expect(res.body).to.include({ type: 'validation_error', attr: 'page' });
    });
  };

  describe('openapi_yaml_retrieve', () => {
    servesDocument('/openapi.yaml', 'application/yaml', (text) => expect(text).to.equal(SPEC_YAML));
  });

  describe('openapi_json_retrieve', () => {
    servesDocument('/openapi.json', 'application/json', (text) =>
      expect(JSON.parse(text)).to.deep.equal(load(SPEC_YAML, { schema: CORE_SCHEMA })),
    );
  });

  describe('docs_retrieve', () => {
    servesDocument('/docs/', 'text/html', (text) => {
      expect(text).to.include('<redoc spec-url="/openapi.json"></redoc>');
      expect(text).to.include('<script src="/docs/redoc.standalone.js"></script>');
    });

    it('serves the reference page without its trailing slash too', async () => {
      const res = await server.http.get('/docs');
      expect(res.status).to.equal(200);
      expect(res.text).to.include('<redoc spec-url="/openapi.json"></redoc>');
    });
  });

  describe('docs_renderer_retrieve', () => {
    servesDocument('/docs/redoc.standalone.js', 'text/javascript', (text) => expect(text).to.equal(REDOC_BUNDLE));
  });

  it('answers 405 with Allow for a method the document paths do not have', async () => {
    const res = await server.http.post('/openapi.json', {});
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.equal('GET, HEAD');
  });
});
