import { expect } from 'chai';
import type Koa from 'koa';
import { translatePgError } from '../../db/pg/errors.js';
import { slugify } from '../../db/queries/organizations.js';
import { hashPersonalApiKey, maskPersonalApiKey, newPersonalApiKey, newProjectApiToken, newShortId } from '../../db/tokens.js';
import { ApiError } from '../../db/core/errors.js';
import { pageLinks } from '../../handlers/pagination.js';
import { grantsScope } from '../../handlers/server/security.js';

describe('unit: foundation', () => {
  describe('grantsScope', () => {
    const cases: [string[], string, boolean][] = [
      [['organization:read'], 'organization:read', true],
      [['organization:write'], 'organization:read', true],
      [['organization:read'], 'organization:write', false],
      [['*'], 'batch_export:write', true],
      [['query:read'], 'organization:read', false],
      [['session_recording_playlist:write'], 'session_recording:read', false],
      [[], 'query:read', false],
    ];
    for (const [granted, required, want] of cases) {
      it(`${JSON.stringify(granted)} ${want ? 'grants' : 'does not grant'} ${required}`, () => {
        expect(grantsScope(granted, required)).to.equal(want);
      });
    }
  });

  describe('pageLinks', () => {
    const ctx = (url: string) => ({ originalUrl: url, protocol: 'http', host: 'h:8000' }) as unknown as Koa.Context;
    const cases: { given: [string, number, number, number]; want: { next: string | null; previous: string | null } }[] = [
      { given: ['/api/x/', 100, 0, 5], want: { next: null, previous: null } },
      { given: ['/api/x/?limit=2', 2, 0, 5], want: { next: 'http://h:8000/api/x/?limit=2&offset=2', previous: null } },
      {
        given: ['/api/x/?limit=2&offset=2&search=a+b', 2, 2, 5],
        want: {
          next: 'http://h:8000/api/x/?limit=2&offset=4&search=a+b',
          previous: 'http://h:8000/api/x/?limit=2&search=a+b',
        },
      },
      { given: ['/api/x/?offset=4&limit=2', 2, 4, 5], want: { next: null, previous: 'http://h:8000/api/x/?offset=2&limit=2' } },
      { given: ['/api/x/?offset=1&limit=2', 2, 1, 5], want: { next: 'http://h:8000/api/x/?offset=3&limit=2', previous: 'http://h:8000/api/x/?limit=2' } },
      { given: ['/api/x/?offset=9', 100, 9, 5], want: { next: null, previous: 'http://h:8000/api/x/?limit=100' } },
    ];
    for (const { given, want } of cases) {
      it(`${given[0]} (limit ${given[1]}, offset ${given[2]}, count ${given[3]})`, () => {
        expect(pageLinks(ctx(given[0]), { limit: given[1], offset: given[2] }, given[3])).to.deep.equal(want);
      });
    }
  });

  describe('slugify (Django’s rules)', () => {
    const cases: [string, string][] = [
      ['Acme Inc', 'acme-inc'],
      ['  Hello,  World!  ', 'hello-world'],
      ['Crème Brûlée', 'creme-brulee'],
      ['a--b__c', 'a-b__c'],
      ['___', ''],
      ['日本', ''],
    ];
    for (const [given, want] of cases) {
      it(`${JSON.stringify(given)} → ${JSON.stringify(want)}`, () => expect(slugify(given)).to.equal(want));
    }
  });

  describe('keys', () => {
    it('have PostHog’s prefixes and shapes', () => {
      expect(newPersonalApiKey()).to.match(/^phx_[0-9A-Za-z]{43}$/);
      expect(newProjectApiToken()).to.match(/^phc_[0-9A-Za-z]{43}$/);
      expect(newShortId()).to.match(/^[0-9A-Za-z]{8}$/);
      expect(new Set(Array.from({ length: 200 }, newShortId)).size).to.equal(200);
    });
    it('hash as unsalted SHA-256 and mask to prefix and last four characters', () => {
      expect(hashPersonalApiKey('phx_abc')).to.equal('sha256$5e26f9f4aa7f98042e671fbaa15196a12513a2635898590230de0c25e658279e');
      expect(hashPersonalApiKey('phx_abc')).to.match(/^sha256\$[0-9a-f]{64}$/);
      expect(hashPersonalApiKey('phx_abc')).to.not.equal(hashPersonalApiKey('phx_abd'));
      expect(maskPersonalApiKey('phx_0123456789wxyz')).to.equal('phx_...wxyz');
    });
  });

  describe('translatePgError', () => {
    const cases: [object, number | null, string | null][] = [
      [{ code: '23505', constraint: 'organizations_slug_unique' }, 409, 'slug'],
      [{ code: '23505', constraint: 'something_else' }, 409, null],
      [{ code: '23503', column: 'user_id' }, 400, 'user_id'],
      [{ code: '23502', column: 'name' }, 400, 'name'],
      [{ code: '22001', column: 'name' }, 400, 'name'],
      [{ code: '22P02' }, 400, null],
      [{ code: '22003' }, 400, null],
      [{ code: '42P01' }, null, null],
      // Values the caller wrote that PostgreSQL refuses to compute with.
      [{ code: '54023' }, 400, null],
      [{ code: '22012' }, 400, null],
      [{ code: '2201B' }, 400, null],
      [{ code: '2201E' }, 400, null],
      [{ code: '2201F' }, 400, null],
      [{ code: '22023' }, 400, null],
      [{ code: '22019' }, 400, null],
      [{ code: '22025' }, 400, null],
      // A database that cannot be reached, or stopped answering.
      [{ code: 'ECONNREFUSED' }, 503, null],
      [{ code: '08006' }, 503, null],
      [{ code: '57P01' }, 503, null],
      [{ name: 'KnexTimeoutError', message: 'Knex: Timeout acquiring a connection.' }, 503, null],
      [new Error('Query read timeout'), 503, null],
      [new Error('Connection terminated due to connection timeout'), 503, null],
      [new Error('Connection terminated unexpectedly'), 503, null],
      [{ code: '57014' }, 503, null], // a statement cancelled by its timeout: the database is stalled
    ];
    for (const [given, status, attr] of cases) {
      it(`${given instanceof Error ? `Error: ${given.message}` : JSON.stringify(given)} → ${status ?? 'unchanged'}`, () => {
        const result = translatePgError(given);
        if (status === null) {
          expect(result).to.equal(given);
          return;
        }
        expect(result).to.be.instanceOf(ApiError);
        expect((result as ApiError).status).to.equal(status);
        expect((result as ApiError).attr).to.equal(attr);
        if (status === 503) {
          expect((result as ApiError).toBody()).to.include({ type: 'server_error', code: 'service_unavailable' });
          expect((result as ApiError).headers).to.deep.equal({ 'Retry-After': '5' });
        }
      });
    }
  });
});
