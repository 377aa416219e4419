/**
 * What the HogQL query suites share: an account allowed to query, a POST of a HogQLQuery to its environment, and
 * the two table-driven loops — cases that answer exact rows, and cases refused with a 400 validation error.
 * Each suite keeps its own data and seeding.
 */
import { expect } from 'chai';
import type { Db } from '../../db/pg/client.js';
import { testDb } from './database.js';
import { newAccount, type Account } from './fixtures.js';
import type { ApiResponse, HttpClient } from './http.js';
import { startTestServer, type TestServer } from './server.js';

/** A HogQL query and the optional parts of its request body. */
export interface HogQLRequest {
  query: string;
  values?: Record<string, unknown>;
  filters?: Record<string, unknown>;
  variables?: Record<string, unknown>;
}

/** A query and the exact `results` it must answer. */
export interface RowsCase extends HogQLRequest {
  name: string;
  rows: unknown[][];
}

/** A query and the detail of the 400 that refuses it. */
export interface RefusalCase extends HogQLRequest {
  name: string;
  detail: string;
}

/** An account whose key may only query. */
export const newQueryAccount = (db: Db): Promise<Account> => newAccount(db, { scopes: ['query:read'] });

/**
 * Posts HogQL queries to one environment as one account. Made when the suite is declared and connected in its
 * before() hook, so that the tests declared in between post through it once it is.
 */
export class HogQLQueryClient {
  private client: HttpClient | undefined;
  private path = '';

  /** Makes an account allowed to query, posts as it from now on, and returns it. */
  async connectNewAccount(server: TestServer, db: Db): Promise<Account> {
    const account = await newQueryAccount(db);
    this.connect(server, account);
    return account;
  }

  connect(server: TestServer, account: Account): void {
    this.client = server.http.withKey(account.key);
    this.path = `/api/environments/${account.environment.id}/query/`;
  }

  /** POST …/query/ with kind HogQLQuery; optional parts of the body are sent only when given. */
  post(request: string | HogQLRequest): Promise<ApiResponse> {
    if (!this.client) throw new Error('HogQLQueryClient.post() before connect()');
    const { query, values, filters, variables } = typeof request === 'string' ? { query: request } : request;
    return this.client.post(this.path, {
      query: { kind: 'HogQLQuery', query, ...(filters ? { filters } : {}), ...(variables ? { variables } : {}), ...(values ? { values } : {}) },
    });
  }
}

/** One test per case, named by it: 200 and exactly its rows. */
export function itAnswersRows(cases: readonly RowsCase[], queries: HogQLQueryClient): void {
  for (const c of cases) {
    it(c.name, async () => {
      const response = await queries.post(c);
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.results).to.deep.equal(c.rows);
    });
  }
}

/** One test per case, named "400 for <name>": the whole validation error body with its detail. */
export function itRefuses(cases: readonly RefusalCase[], queries: HogQLQueryClient): void {
  for (const c of cases) {
    it(`400 for ${c.name}`, async () => {
      const response = await queries.post(c);
      expect(response.status, JSON.stringify(response.body)).to.equal(400);
      expect(response.body).to.deep.equal({ type: 'validation_error', code: 'invalid_input', detail: c.detail, attr: null });
    });
  }
}

/** What a suite's seeding gets: the database, the running server and the account its queries are posted as. */
export interface HogQLSuiteContext {
  db: Db;
  server: TestServer;
  account: Account;
}

/**
 * Registers the suite's before() and after() hooks: a test server, an account allowed to query that the returned
 * client posts as, then `seed` (the suite's own data, in this and any other environment); the server closes after.
 */
export function hogqlQueryServer(seed: (context: HogQLSuiteContext) => Promise<void>): HogQLQueryClient {
  const queries = new HogQLQueryClient();
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer();
    const db = testDb();
    const account = await queries.connectNewAccount(server, db);
    await seed({ db, server, account });
  });
  after(async () => {
    await server?.close();
  });
  return queries;
}
