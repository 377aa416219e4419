/**
 * Schema-driven fuzzing of every operation of spec/openapi.yaml (OPTIONS included), generated from the spec at
 * load time, so that an operation added later is fuzzed without touching this file. For each operation,
 * fast-check builds requests from its path, query and header parameters and its request body schema
 * (test/helpers/schema-arbitrary.ts): valid and boundary values, wrong types, values out of range, missing
 * required and extra fields, huge and odd unicode strings (NUL, lone surrogates), deep nesting, odd path ids,
 * odd content types and, on the capture paths, every encoding (gzip announced or not, base64, forms, lz64)
 * whole or broken. Most requests carry a personal API key with every scope and name a real organization,
 * project, playlist and event, so that they reach the handlers; some carry no key or an unknown one.
 *
 * Every answer must come within 10 s, must not be a 5xx other than 501, 503 or 504 (each only where the
 * operation documents it), and must keep the contract: the test HTTP client checks status, content type and
 * body against the spec. A failure prints fast-check's shrunk counterexample (the request) and its seed.
 *
 * `npm test` runs a fixed seed and a few runs per operation. More:
 *   HEDGEROW_FUZZ_RUNS=2000 HEDGEROW_FUZZ_SEED=7 npx mocha test/integration/fuzz.test.ts
 * (HEDGEROW_FUZZ_SEED=random draws a seed, printed with any failure.)
 *
 * `npm run test:proxy` leaves this file out (package.json): Prism answers most hostile requests itself, in its own
 * format, and the client already checks every answer against the spec.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import fc from 'fast-check';
import { SECURITY_SCHEME } from '../../handlers/server/security.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { hostileValue, NASTY_STRINGS, nastyValue, validValue, type NastyOptions, type Schema } from '../helpers/schema-arbitrary.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { specOperations, type SpecOperation } from '../helpers/spec-sync.js';

const RUNS = Number(process.env.HEDGEROW_FUZZ_RUNS ?? 12);
const SEED = process.env.HEDGEROW_FUZZ_SEED === 'random' ? Date.now() : Number(process.env.HEDGEROW_FUZZ_SEED ?? 18);
const ANSWER_WITHIN_MS = 10_000;
/** The server errors an operation may answer when it documents them: not built, database away, query too long. */
const TOLERATED_5XX = [501, 503, 504];
/**
 * What a URL may hold. node answers a head over 16 KB with 431 and closes the socket while fetch may still be
 * sending it (ECONNRESET): test/integration/server.test.ts sends such heads on a raw socket instead.
 */
const IN_URL: NastyOptions = { maxStringLength: 2_000, maxDepth: 200 };
const MAX_URL_LENGTH = 12_000;

const operations = specOperations(['get', 'post', 'put', 'patch', 'delete', 'options']);


interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: Schema;
}

/** What the fuzzer sends: everything fast-check shrinks and prints. */
interface FuzzRequest {
  key: 'valid' | 'none' | 'unknown';
  pathValues: string[];
  query: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** Real resources for the path parameters, so that most requests reach the handlers. */
interface Fixtures {
  account: Account;
  playlistShortId: string;
  eventUuid: string;
}

const isCapture = (operation: SpecOperation) => (operation as { 'x-hedgerow-lane'?: string })['x-hedgerow-lane'] === 'capture';
const needsKey = (operation: SpecOperation) => operation.security?.some((requirement) => SECURITY_SCHEME in requirement) ?? false;
const parametersOf = (operation: SpecOperation) => (operation.parameters ?? []) as Parameter[];

function realPathValues(operation: SpecOperation, name: string, fixtures: Fixtures): string[] {
  const { account } = fixtures;
  switch (name) {
    case 'project_id':
      return [String(account.environment.id), '@current'];
    case 'organization_id':
      return [account.organization.id];
    case 'id':
      if (/^\/api\/organizations\/\{id\}/.test(operation.path)) return [account.organization.id];
      if (operation.path.includes('/events/')) return [fixtures.eventUuid, fixtures.eventUuid.replace(/-/g, '')];
      return [randomUUID()];
    case 'short_id':
      return [fixtures.playlistShortId];
    case 'session_recording_id':
      return ['session-1', randomUUID()];
    case 'token':
      return [account.environment.api_token];
    default:
      return ['1'];
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/**
 * %-escapes a path segment, dots too, so that fetch's URL parser cannot fold `..` away. A lone surrogate, which
 * encodeURIComponent refuses, is sent as the invalid UTF-8 bytes of U+D800.
 */
const pathSegment = (value: string): string =>
  value
    .split(LONE_SURROGATE)
    .map((part) => encodeURIComponent(part).replace(/\./g, '%2E'))
    .join('%ED%A0%80');
/** Segments sent as written: malformed or surprising escapes. */
const RAW_SEGMENTS = ['%', '%zz', '%C0%AF', '%00', '%FF%FE', '%2F', '%252F', '%E2%80%AE', '-1', '0', '00', '1e3', '0x1F'];

function pathValueArbitrary(operation: SpecOperation, parameter: Parameter, fixtures: Fixtures): fc.Arbitrary<string> {
  const schema = parameter.schema ?? {};
  const printable = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
  return fc.oneof(
    { arbitrary: fc.constantFrom(...realPathValues(operation, parameter.name, fixtures)).map(pathSegment), weight: 6 },
    { arbitrary: validValue(schema).map((value) => pathSegment(printable(value))), weight: 2 },
    // An empty segment makes `//`, which is another engineer's to look at.
    { arbitrary: hostileValue(schema, IN_URL).map((value) => pathSegment(printable(value))).filter((segment) => segment !== ''), weight: 2 },
    { arbitrary: fc.constantFrom(...RAW_SEGMENTS), weight: 1 },
  );
}

/** A query value as clients write it: lists repeat the parameter, objects are JSON. */
function queryEntries(name: string, value: unknown): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item) => queryEntries(name, item));
  if (typeof value === 'string') return [[name, value]];
  return [[name, JSON.stringify(value) ?? '']];
}

/** Query text that URLSearchParams would never write. */
const RAW_QUERY_TAILS = ['&x=%zz', '&%', '&=', '&&&', '&limit=%00', '&a[b]=1', '&format=csv&format=json', '&' + 'p=1&'.repeat(1000)];

function capturePayloadArbitrary(operation: SpecOperation, fixtures: Fixtures, nasty: NastyOptions = {}): fc.Arbitrary<unknown> {
  const json = operation.requestBody?.content?.['application/json'] as { schema?: Schema } | undefined;
  const schema: Schema = json?.schema ?? { $ref: '#/never' };
  const token = fixtures.account.environment.api_token;
  const propertyOverride = (name: string) =>
    ['api_key', 'token', '$token'].includes(name)
      ? fc.oneof({ arbitrary: fc.constant(token), weight: 6 }, { arbitrary: fc.constantFrom('phc_unknown', 'phx_personal', '', 42), weight: 1 })
      : undefined;
  const envelope = json?.schema
    ? hostileValue(schema, { propertyOverride, ...nasty })
    : validValue({ type: 'object', properties: { token: { type: 'string' } } }, { propertyOverride });
  return fc.oneof({ arbitrary: envelope, weight: 8 }, { arbitrary: nastyValue(nasty), weight: 1 });
}

type Encoding = 'json' | 'gzip' | 'gzip-announced' | 'gzip-js' | 'base64' | 'form' | 'form-base64' | 'lz64' | 'broken-gzip' | 'bytes';
const ENCODINGS: Encoding[] = ['json', 'gzip', 'gzip-announced', 'gzip-js', 'base64', 'form', 'form-base64', 'lz64', 'broken-gzip', 'bytes'];

/** A capture body in one of the encodings PostHog's SDKs use, or a broken one. */
function encodeCaptureBody(payload: unknown, encoding: Encoding, bytes: Uint8Array): Pick<FuzzRequest, 'headers' | 'body'> & { query: string } {
  const text = JSON.stringify(payload) ?? 'undefined';
  const contentTypeJson = { 'content-type': 'application/json' };
  switch (encoding) {
    case 'json':
      return { headers: contentTypeJson, body: text, query: '' };
    case 'gzip':
      return { headers: { 'content-type': 'text/plain' }, body: gzipSync(text), query: '' };
    case 'gzip-announced':
      return { headers: { ...contentTypeJson, 'content-encoding': 'gzip' }, body: gzipSync(text), query: '' };
    case 'gzip-js':
      return { headers: { 'content-type': 'text/plain' }, body: gzipSync(text), query: 'compression=gzip-js' };
    case 'base64':
      return { headers: { 'content-type': 'text/plain' }, body: Buffer.from(text).toString('base64'), query: 'compression=base64' };
    case 'form':
      return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ data: text }).toString(), query: '' };
    case 'form-base64':
      return {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ data: Buffer.from(text).toString('base64'), compression: 'base64' }).toString(),
        query: '',
      };
    case 'lz64':
      // Not LZ-string: what an lz64 decoder must refuse without falling over.
      return { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `data=${Buffer.from(bytes).toString('base64')}`, query: 'compression=lz64' };
    case 'broken-gzip':
      return { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, body: gzipSync(text).subarray(0, 12), query: '' };
    case 'bytes':
      return { headers: { 'content-type': 'application/octet-stream' }, body: bytes, query: '' };
  }
}

/** Bodies of a management request: JSON per its schema, malformed JSON, or another content type. */
function managementBodyArbitrary(schema: Schema): fc.Arbitrary<Pick<FuzzRequest, 'headers' | 'body'>> {
  const json = { 'content-type': 'application/json' };
  return fc.oneof(
    { arbitrary: hostileValue(schema).map((value) => ({ headers: json, body: JSON.stringify(value) ?? '' })), weight: 8 },
    {
      arbitrary: fc
        .constantFrom('', '{', '{"name":', 'nul', '\u0000', '{"name": 1e400}', '{"name": "\\ud800"}', '[]', '"text"', '{"a":1,"a":2}', '['.repeat(100_000))
        .map((body) => ({ headers: json, body })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(
          validValue(schema),
          fc.constantFrom(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=utf-16',
            'application/merge-patch+json',
            'application/json, text/plain',
            '*/*',
            'json',
          ),
        )
        .map(([value, type]) => ({ headers: { 'content-type': type }, body: JSON.stringify(value) ?? '' })),
      weight: 2,
    },
    { arbitrary: fc.uint8Array({ maxLength: 64 }).map((body) => ({ headers: json, body })), weight: 1 },
  );
}

function requestArbitrary(operation: SpecOperation, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  const parameters = parametersOf(operation);
  const capture = isCapture(operation);
  const token = fixtures.account.environment.api_token;

  const pathValues = fc.tuple(...parameters.filter((p) => p.in === 'path').map((p) => pathValueArbitrary(operation, p, fixtures)));

  const queryParameters = parameters.filter((p) => p.in === 'query');
  const queryValue = (parameter: Parameter): fc.Arbitrary<unknown> => {
    if (capture && parameter.name === 'data') {
      return capturePayloadArbitrary(operation, fixtures, IN_URL).chain((payload) => {
        const text = JSON.stringify(payload) ?? '';
        return fc.constantFrom(text, Buffer.from(text).toString('base64'), token);
      });
    }
    return fc.oneof({ arbitrary: hostileValue(parameter.schema ?? {}, IN_URL), weight: 6 }, { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 1 });
  };
  const query = fc
    .tuple(
      fc.tuple(...queryParameters.map((parameter) => fc.option(queryValue(parameter), { freq: parameter.required ? 10 : 2 }))),
      fc.option(fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 2 }), { freq: 4 }),
      fc.option(fc.constantFrom(...RAW_QUERY_TAILS), { freq: 8 }),
    )
    .map(([values, extra, tail]) => {
      const search = new URLSearchParams();
      values.forEach((value, index) => {
        if (value === null) return;
        for (const [name, text] of queryEntries(queryParameters[index]!.name, value)) search.append(name, text);
      });
      for (const [name, text] of Object.entries(extra ?? {})) search.append(name, text);
      return search.toString() + (tail ?? '');
    });

  const key = needsKey(operation)
    ? fc.constantFrom<FuzzRequest['key']>('valid', 'valid', 'valid', 'valid', 'valid', 'valid', 'none', 'unknown')
    : fc.constant<FuzzRequest['key']>('none');

  const json = operation.requestBody?.content?.['application/json'] as { schema?: Schema } | undefined;
  const body: fc.Arbitrary<Pick<FuzzRequest, 'headers' | 'body'> & { query?: string }> = !operation.requestBody
    ? fc.constant({ headers: {} })
    : capture
      ? fc
          .tuple(capturePayloadArbitrary(operation, fixtures), fc.constantFrom(...ENCODINGS), fc.uint8Array({ maxLength: 48 }))
          .map(([payload, encoding, bytes]) => encodeCaptureBody(payload, encoding, bytes))
      : managementBodyArbitrary(json?.schema ?? {});

  return fc
    .record({ key, pathValues, query, body })
    .map(({ key, pathValues, query, body }) => ({
      key,
      pathValues,
      query: [query, body.query].filter(Boolean).join('&'),
      headers: body.headers,
      ...(body.body === undefined ? {} : { body: body.body }),
    }))
    .filter((request) => pathOf(operation, request).length <= MAX_URL_LENGTH);
}

function pathOf(operation: SpecOperation, request: FuzzRequest): string {
  let index = 0;
  const path = operation.path.replace(/\{[^}]+\}/g, () => request.pathValues[index++]!);
  return request.query ? `${path}?${request.query}` : path;
}

describe('fuzzing every operation of the spec (fast-check)', function () {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  /** A fresh organization with a project, a playlist and an event: destroy operations take theirs with them. */
  async function newFixtures(): Promise<Fixtures> {
    const account = await newAccount(testDb());
    const http = server.http.withKey(account.key);
    const playlist = await http.post(`/api/environments/${account.environment.id}/session_recording_playlists/`, {
      type: 'collection',
      name: 'fuzz',
    });
    expect(playlist.status).to.equal(201);
    const eventUuid = randomUUID();
    const captured = await http.post('/i/v0/e/', { api_key: account.environment.api_token, event: 'fuzz', distinct_id: 'u', uuid: eventUuid });
    expect(captured.status).to.equal(200);
    return { account, playlistShortId: playlist.body.short_id as string, eventUuid };
  }

  it('fuzzes operations of every method and lane', () => {
    expect(operations.length).to.be.greaterThan(50);
    expect(new Set(operations.map((operation) => operation.method))).to.include.members(['get', 'post', 'patch', 'delete', 'options']);
    expect(operations.filter(isCapture).length).to.be.greaterThan(10);
  });

  for (const operation of operations) {
    const method = operation.method.toUpperCase();
    it(`${operation.operationId} — ${method} ${operation.path}`, async function () {
      this.timeout(60_000 + RUNS * 2_000);
      const fixtures = await newFixtures();
      const documented = new Set(Object.keys(operation.responses));
      const send = async (request: FuzzRequest) => {
        const key = { valid: fixtures.account.key, none: null, unknown: 'phx_fuzzUnknownKey000000000000000000000000000' }[request.key];
        let timer: NodeJS.Timeout | undefined;
        const answer = server.http.request(method, pathOf(operation, request), {
          key,
          headers: request.headers,
          ...(request.body === undefined ? {} : { rawBody: Buffer.from(request.body) }),
        });
        const late = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
        });
        try {
          const res = await Promise.race([answer, late]);
          if (res.status >= 500) {
            const tolerated = TOLERATED_5XX.includes(res.status) && (documented.has(String(res.status)) || documented.has('default'));
            if (!tolerated) throw new Error(`${method} ${pathOf(operation, request)} → ${res.status} ${res.text}`);
          }
        } finally {
          clearTimeout(timer);
        }
      };
      const requests = requestArbitrary(operation, fixtures);
      // The first values of an arbitrary can take seconds to build, with the event loop held; meanwhile the
      // server closes the client's idle kept-alive sockets, and a request sent on one met ECONNRESET. Built
      // here first, and the closes are let in before the first request.
      fc.sample(requests, { seed: SEED, numRuns: 3 });
      await delay(100);
      await fc.assert(fc.asyncProperty(requests, send), { seed: SEED, numRuns: RUNS });
    });
  }
});
