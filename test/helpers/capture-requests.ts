/**
 * What the capture suites share: requests straight to the server (checked against the spec here) or through the
 * test client, and reads of what capture stored for an account (events, persons, ingestion warnings).
 */
import { expect } from 'chai';
import { contractViolations } from './contract.js';
import { testDb } from './database.js';
import type { Account } from './fixtures.js';
import type { TestServer } from './server.js';

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface StoredEventRow {
  uuid: string;
  event: string;
  distinct_id: string;
  properties: Record<string, any>;
  timestamp: Date;
  person_id: string | null;
  group_0: string | null;
  group_1: string | null;
  historical_migration: boolean;
  elements_chain: string;
}

/** The requests of a suite whose server `server()` answers once its before() hook has started it. */
export function captureRequests(server: () => TestServer) {
  /** Straight to the server (Prism cannot read gzip bodies); the answer is checked against the spec here. */
  async function direct(method: string, path: string, init: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Answer> {
    const response = await fetch(new URL(path, server().directUrl), { method, headers: init.headers, body: init.body });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const body = contentType?.includes('json') && text ? JSON.parse(text) : text;
    expect(await contractViolations({ method, path, status: response.status, contentType, body, text })).to.deep.equal([]);
    return { status: response.status, headers: response.headers, body, text };
  }

  /** Through the test client (and Prism, when the suite runs through it). */
  async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
    return server().http.request('POST', path, { rawBody, headers: { 'content-type': 'application/json', ...headers } });
  }
  return { direct, post };
}

/** The events capture stored for an account, in order. */
export const storedEvents = (account: Account): Promise<StoredEventRow[]> =>
  testDb()('events').where({ team_id: account.environment.id }).orderBy([{ column: 'timestamp' }, { column: 'event' }]);
/** The person a distinct id belongs to. */
export const personOf = async (account: Account, distinctId: string) =>
  testDb()('person_distinct_ids as d')
    .join('persons as p', (on) => on.on('p.team_id', 'd.team_id').andOn('p.id', 'd.person_id'))
    .where({ 'd.team_id': account.environment.id, 'd.distinct_id': distinctId })
    .first<{ uuid: string; properties: Record<string, unknown>; is_identified: boolean; id: string } | undefined>(
      'p.uuid',
      'p.properties',
      'p.is_identified',
      'p.id',
    );
/** The ingestion warnings of an account, in order. */
export const ingestionWarnings = (account: Account): Promise<Array<{ type: string; details: Record<string, unknown> }>> =>
  testDb()('ingestion_warnings').where({ team_id: account.environment.id }).orderBy('id').select('type', 'details');
