import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { ApiError } from '../../db/core/errors.js';
import {
  compressionOf,
  decodePayload,
  hasGzipMagic,
  looksLikeBase64,
  type EncodedRequest,
} from '../../handlers/capture/decode.js';

/** A recorded (or built) capture request and the JSON payload it carries (test/fixtures/capture/*.json). */
interface Fixture {
  description: string;
  source: string;
  request: {
    method: string;
    path: string;
    query: Record<string, string>;
    headers: Record<string, string>;
    bodyBase64: string;
  };
  payload: unknown;
}

const FIXTURES = new URL('../fixtures/capture/', import.meta.url);
const fixtures = readdirSync(FIXTURES)
  .filter((file) => file.endsWith('.json'))
  .map((file) => ({ file, ...(JSON.parse(readFileSync(new URL(file, FIXTURES), 'utf8')) as Fixture) }));

function encoded(request: Fixture['request']): EncodedRequest {
  return {
    body: Buffer.from(request.bodyBase64, 'base64'),
    query: request.query,
    contentType: request.headers['content-type'],
    contentEncoding: request.headers['content-encoding'],
  };
}

async function failure(request: EncodedRequest, limit?: number): Promise<ApiError> {
  try {
    await decodePayload(request, limit);
  } catch (error) {
    expect(error).to.be.instanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('decoding succeeded');
}

const plain = (body: string | Buffer, extra: Partial<EncodedRequest> = {}): EncodedRequest => ({
  body: Buffer.isBuffer(body) ? body : Buffer.from(body),
  query: {},
  contentType: 'application/json',
  contentEncoding: undefined,
  ...extra,
});

describe('capture decoding (handlers/capture/decode.ts)', () => {
  it('has a fixture for every encoding the SDKs use', () => {
    const names = fixtures.map((fixture) => fixture.file);
    for (const expected of [
      'posthog-node-batch-gzip.json',
      'posthog-js-pageview-e-gzip.json',
      'posthog-js-custom-event-i-v0-e-gzip.json',
      'posthog-js-flags-gzip.json',
      'legacy-gzip-js-query.json',
      'base64-form-beacon.json',
      'lz64-form.json',
      'base64-body-no-hint.json',
      'get-data-base64.json',
      'get-data-json.json',
      'json-single-event.json',
    ]) {
      expect(names).to.include(expected);
    }
  });

  describe('recorded and built payloads decode to the JSON they carry', () => {
    for (const fixture of fixtures) {
      it(`${fixture.file}: ${fixture.description}`, async () => {
        expect(await decodePayload(encoded(fixture.request))).to.deep.equal(fixture.payload);
      });
    }
  });

  describe('compression hints', () => {
    const cases: Array<{ given: string | undefined; want: ReturnType<typeof compressionOf> }> = [
      { given: 'gzip', want: 'gzip' },
      { given: 'gzip-js', want: 'gzip' },
      { given: 'GZIP', want: 'gzip' },
      { given: 'lz64', want: 'lz64' },
      { given: 'lz-string', want: 'lz64' },
      { given: 'base64', want: 'base64' },
      { given: 'b64', want: 'base64' },
      { given: 'br', want: null },
      { given: '', want: null },
      { given: undefined, want: null },
    ];
    for (const { given, want } of cases) {
      it(`reads ${JSON.stringify(given)} as ${String(want)}`, () => expect(compressionOf(given)).to.equal(want));
    }
  });

  describe('sniffing', () => {
    it('recognises gzip by its magic bytes only', () => {
      expect(hasGzipMagic(gzipSync('{}'))).to.equal(true);
      expect(hasGzipMagic(Buffer.from('{}'))).to.equal(false);
    });

    const base64Cases: Array<{ given: string; want: boolean }> = [
      { given: 'eyJhIjoxfQ==', want: true },
      { given: '{"a":1}', want: false },
      { given: '[1]', want: false },
      { given: 'abc', want: false },
      { given: '', want: false },
    ];
    for (const { given, want } of base64Cases) {
      it(`${want ? 'takes' : 'does not take'} ${JSON.stringify(given)} for base64`, () => {
        expect(looksLikeBase64(Buffer.from(given))).to.equal(want);
      });
    }
  });

  it('reads a JSON body sent with a form content type (curl -d) as JSON', async () => {
    const request = plain(' {"event":"x"}', { contentType: 'application/x-www-form-urlencoded' });
    expect(await decodePayload(request)).to.deep.equal({ event: 'x' });
  });

  describe('what is refused', () => {
    const cases: Array<{ name: string; request: EncodedRequest; status: number; code: string }> = [
      { name: 'an empty body without data', request: plain(''), status: 400, code: 'no_data' },
      { name: 'an empty data query parameter and no body', request: plain('', { query: { data: '' } }), status: 400, code: 'no_data' },
      { name: 'malformed JSON', request: plain('{"event":'), status: 400, code: 'invalid_payload' },
      { name: 'announced gzip that is not gzip', request: plain('{"a":1}', { contentEncoding: 'gzip' }), status: 400, code: 'invalid_payload' },
      { name: 'a truncated gzip body', request: plain(gzipSync('{"event":"x"}').subarray(0, 12)), status: 400, code: 'invalid_payload' },
      {
        name: 'a form without a data field',
        request: plain('ver=1.2.3', { contentType: 'application/x-www-form-urlencoded' }),
        status: 400,
        code: 'invalid_payload',
      },
      {
        name: 'a form with an empty data field',
        request: plain('data=', { contentType: 'application/x-www-form-urlencoded' }),
        status: 400,
        code: 'no_data',
      },
      { name: 'announced lz64 that is not lz64', request: plain('data=%7B%7D', { contentType: 'application/x-www-form-urlencoded', query: { compression: 'lz64' } }), status: 400, code: 'invalid_payload' },
      { name: 'invalid UTF-8', request: plain(Buffer.from([0x7b, 0xff, 0xfe, 0x7d])), status: 400, code: 'invalid_payload' },
    ];
    for (const { name, request, status, code } of cases) {
      it(`refuses ${name} with ${status} ${code}`, async () => {
        const error = await failure(request);
        expect({ status: error.status, code: error.code, type: error.type }).to.deep.equal({
          status,
          code,
          type: 'validation_error',
        });
      });
    }
  });

  describe('bounds', () => {
    it('refuses a gzip bomb with 413 while inflating, without inflating past the limit', async () => {
      const bomb = gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)); // 8 MiB of spaces, about 8 KiB gzipped
      expect(bomb.length).to.be.below(64 * 1024);
      const error = await failure(plain(bomb), 1024 * 1024);
      expect([error.status, error.code]).to.deep.equal([413, 'request_too_large']);
    });

    it('inflates large bodies off the main thread with the same limit', async () => {
      const big = gzipSync(Buffer.from(`[${'{"event":"x","distinct_id":"y"},'.repeat(60_000)}{}]`));
      expect(big.length).to.be.above(1000);
      const events = (await decodePayload(plain(big))) as unknown[];
      expect(events).to.have.length(60_001);
      const error = await failure(plain(gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20))), 1024 * 1024);
      expect(error.status).to.equal(413);
    });

    it('refuses base64 and lz64 that decode to more than the limit', async () => {
      const json = Buffer.from(JSON.stringify({ event: 'x'.repeat(4096) }));
      expect((await failure(plain(json.toString('base64'), { query: { compression: 'base64' } }), 1024)).status).to.equal(413);
      const lz64 = fixtures.find((fixture) => fixture.file === 'lz64-form.json')!;
      expect((await failure(encoded(lz64.request), 256)).status).to.equal(413);
    });
  });
});
