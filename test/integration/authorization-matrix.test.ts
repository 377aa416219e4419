/**
 * The authorization matrix, generated from spec/openapi.yaml: for every operation that needs a personal API
 * key — no key → 401, a bad key → 401, a key without the operation's scope → 403, a key of another
 * organization → 404 — and the scope rules (`:write` grants `:read`, `*` grants all). Operations added to the
 * spec later are covered without touching this file.
 */
import { expect } from 'chai';
import { SECURITY_SCHEME } from '../../handlers/server/security.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { specOperations, type SpecOperation as Operation } from '../helpers/spec-sync.js';

const ALL_METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'];
const operations = specOperations().filter((operation) => operation.security?.some((requirement) => SECURITY_SCHEME in requirement));

function scopeOf(operation: Operation): string {
  const requirement = operation.security!.find((entry) => SECURITY_SCHEME in entry)!;
  return requirement[SECURITY_SCHEME]![0]!;
}

/** A concrete path for the operation, naming `account`'s organization and project where it has them. */
function pathFor(operation: Operation, account: Account): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    if (name === 'project_id') return String(account.environment.id);
    if (name === 'organization_id') return account.organization.id;
    if (name === 'id' && operation.path.startsWith('/api/organizations/{id}')) return account.organization.id;
    if (name === 'short_id') return 'aB3dE5gH';
    return '0190f1c4-8e77-7b0a-8c1d-5e2f3a4b6c7d';
  });
}

/** Whether the path names an organization or project, so that a stranger's key must get 404. */
const namesOwnedResource = (operation: Operation) => /\{(project_id|organization_id)\}|^\/api\/organizations\/\{id\}/.test(operation.path);

describe('authorization matrix (every operation of the spec that needs a personal API key)', () => {
  let server: TestServer;
  let owner: Account;
  let stranger: Account;

  before(async () => {
    server = await startTestServer();
    owner = await newAccount(testDb());
    stranger = await newAccount(testDb());
  });
  after(() => server.close());

  // Exact counts, so that an operation dropped from the spec (or from this filter) shows up here.
  it('covers every such operation: 54 of the spec\'s 83', () => {
    expect(specOperations(ALL_METHODS)).to.have.length(83);
    expect(operations).to.have.length(54);
  });

  for (const operation of operations) {
    const method = operation.method.toUpperCase();
    const scope = scopeOf(operation);
    const send = (key: string | null, account: Account = owner) =>
      server.http.request(method, pathFor(operation, account), {
        key,
        ...(operation.requestBody ? { body: {} } : {}),
      });

    describe(`${operation.operationId} — ${method} ${operation.path} (${scope})`, () => {
      it('answers 401 without a key', async () => {
        const res = await send(null);
        expect(res.status).to.equal(401);
        expect(res.headers.get('www-authenticate')).to.equal('Bearer');
        expect(res.body).to.deep.equal({
          type: 'authentication_error',
          code: 'not_authenticated',
          detail: 'Authentication credentials were not provided.',
          attr: null,
        });
      });

      it('answers 401 for a key that does not exist', async () => {
        const res = await send('phx_thisKeyDoesNotExist000000000000000000000000');
        expect(res.status).to.equal(401);
        expect(res.body).to.deep.include({ type: 'authentication_error', code: 'authentication_failed' });
      });

      it(`answers 403 for a key without ${scope}`, async () => {
        const unrelated = scope.startsWith('organization:') ? 'query:read' : 'organization:write';
        const limited = await newAccount(testDb(), { scopes: [unrelated] });
        const res = await send(limited.key, limited);
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.equal({
          type: 'authentication_error',
          code: 'permission_denied',
          detail: `API key missing required scope '${scope}'`,
          attr: null,
        });
      });

      const granting = scope.endsWith(':read') ? [scope.replace(':read', ':write'), '*'] : ['*'];
      for (const grant of granting) {
        it(`lets a key with ${grant} past the scope check`, async () => {
          const holder = await newAccount(testDb(), { scopes: [grant] });
          const res = await send(holder.key, holder);
          expect(res.status).to.not.be.oneOf([401, 403]);
          expect(res.status).to.be.below(500);
        });
      }

      if (namesOwnedResource(operation)) {
        it('answers 404 to a key of another organization', async () => {
          const res = await send(stranger.key, owner);
          expect(res.status).to.equal(404);
          expect(res.body).to.deep.include({ type: 'invalid_request', code: 'not_found' });
        });
      }
    });
  }
});
