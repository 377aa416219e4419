/**
 * Large capture payloads, read event by event (handlers/capture/pipeline.ts): the same answers and the same
 * stored events as the same payload read whole, the project API key checked first, the per-event size limit,
 * warnings kept to a hundred a request, and capture's memory budget answering 503 when it has no room.
 */
import { expect } from 'chai';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import { WHOLE_PAYLOAD_MAX_BYTES } from '../../handlers/capture/pipeline.js';
import { contractViolations } from '../helpers/contract.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

const uuid = (n: number) => `0190f1c4-aaaa-7bbb-8ccc-${String(n).padStart(12, '0')}`;

describe('capture of large payloads', () => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  async function send(target: TestServer, path: string, body: Buffer | string, headers: Record<string, string> = {}): Promise<Answer> {
    const response = await fetch(new URL(path, target.directUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
    const text = await response.text();
    const contentType = response.headers.get('content-type');
    const parsed = contentType?.includes('json') && text ? JSON.parse(text) : text;
    expect(await contractViolations({ method: 'POST', path, status: response.status, contentType, body: parsed, text })).to.deep.equal([]);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  const stored = (account: Account) =>
    testDb()('events')
      .where({ team_id: account.environment.id })
      .orderBy('uuid')
      .select('uuid', 'event', 'distinct_id', 'properties', 'timestamp', 'historical_migration');
  /** Two accounts' stored events are the same but for their own keys, and for timestamps that `sent_at` corrected by the time each request arrived. */
  async function expectSameEvents(large: Account, small: Account): Promise<void> {
    const [largeRows, smallRows] = [await stored(large), await stored(small)];
    const withoutKeys = (rows: typeof largeRows) =>
      rows.map(({ properties: { token: _token, ...properties }, timestamp: _timestamp, ...row }) => ({ ...row, properties }));
    expect(withoutKeys(largeRows)).to.deep.equal(withoutKeys(smallRows));
    largeRows.forEach((row, index) => expect(Math.abs(row.timestamp - smallRows[index]!.timestamp)).to.be.lessThan(10_000));
  }
  const warnings = (account: Account): Promise<Array<{ type: string; details: Record<string, unknown> }>> =>
    testDb()('ingestion_warnings').where({ team_id: account.environment.id }).orderBy('id').select('type', 'details');

  /** The same JSON, over the size read whole: trailing white space changes nothing but the size. */
  const padded = (json: string) => `${json}${' '.repeat(WHOLE_PAYLOAD_MAX_BYTES + 1 - json.length)}`;

  const events = (token: string | null) => [
    { event: '$pageview', distinct_id: 'user-1', uuid: uuid(1), properties: { plan: 'free', ...(token ? { token } : {}) }, timestamp: '2026-11-20T10:00:00Z' },
    { event: 'no distinct id', uuid: uuid(2), properties: token ? { token } : {} },
    { event: 'signed up', distinct_id: 12345678901234567890n, uuid: uuid(3), properties: { n: 1 }, timestamp: '2026-11-20T10:00:01Z' },
  ];
  /** JSON with bigints written as their digits (an integer beyond 2^53, as SDKs send 64-bit ids). */
  const json = (value: unknown) => JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? `@@${item}@@` : item)).replace(/"@@(\d+)@@"/g, '$1');

  const scenarios: Array<{ name: string; payload: (token: string) => string; want: number }> = [
    { name: 'a batch with its key first', payload: (token) => json({ api_key: token, batch: events(null), sent_at: '2026-11-20T10:00:02Z' }), want: 200 },
    { name: 'a batch with its key last', payload: (token) => json({ batch: events(null), historical_migration: true, api_key: token }), want: 200 },
    { name: 'a batch whose key is in its events', payload: (token) => json({ batch: events(token) }), want: 200 },
    { name: 'an array of events with their keys', payload: (token) => json(events(token)), want: 200 },
    { name: 'one event', payload: (token) => json({ ...events(token)[0], api_key: token }), want: 200 },
    { name: 'an array without a key', payload: () => json(events(null)), want: 401 },
    { name: 'a batch with an unknown key', payload: () => json({ api_key: 'phc_unknown', batch: events(null) }), want: 401 },
    { name: 'a batch with a malformed key', payload: () => json({ api_key: 'phx_personal', batch: events(null) }), want: 401 },
    {
      name: 'an array with two keys',
      payload: (token) => json([...events(token), { event: 'x', distinct_id: 'y', properties: { token: 'phc_other' } }]),
      want: 401,
    },
    { name: 'a batch with an invalid uuid', payload: (token) => json({ api_key: token, batch: [events(null)[0], { event: 'x', distinct_id: 'y', uuid: 'nope' }] }), want: 400 },
    { name: 'an array with an event that is not an object', payload: (token) => json([events(token)[0], 42]), want: 400 },
    { name: 'a batch whose events are not an array', payload: (token) => json({ api_key: token, batch: { event: 'x' } }), want: 400 },
    { name: 'a batch with no events', payload: (token) => json({ api_key: token, batch: [] }), want: 400 },
    { name: 'a batch with an invalid sent_at type', payload: (token) => json({ api_key: token, sent_at: 5, batch: events(null) }), want: 400 },
  ];

  for (const scenario of scenarios) {
    it(`answers and stores ${scenario.name} the same whole and event by event (${scenario.want})`, async () => {
      const [small, large] = [await newAccount(testDb()), await newAccount(testDb())];
      const smallAnswer = await send(server, '/batch/', scenario.payload(small.environment.api_token));
      const largeAnswer = await send(server, '/batch/', padded(scenario.payload(large.environment.api_token)));
      expect(smallAnswer.status).to.equal(scenario.want);
      expect(largeAnswer.body).to.deep.equal(smallAnswer.body);
      expect(largeAnswer.status).to.equal(smallAnswer.status);
      await expectSameEvents(large, small);
      expect(await warnings(large)).to.deep.equal(await warnings(small));
      if (scenario.want === 200) expect((await stored(large)).length).to.be.greaterThan(0);
    });
  }

  it('refuses malformed JSON between the events of a large payload with 400 invalid_payload', async () => {
    const account = await newAccount(testDb());
    const body = padded(`{"api_key":"${account.environment.api_token}","batch":[{"event":"a","distinct_id":"b"} {"event":"c"}]}`);
    const answer = await send(server, '/batch/', body);
    expect([answer.status, answer.body.code]).to.deep.equal([400, 'invalid_payload']);
    expect(answer.body.detail).to.match(/^Malformed request data: Invalid JSON: /);
    expect(await stored(account)).to.deep.equal([]);
  });

  it('answers a flood of empty events 200, stores none of them and records a hundred warnings and a count of the rest', async () => {
    const account = await newAccount(testDb());
    const count = 70_000;
    const body = `{"api_key":"${account.environment.api_token}","batch":[${'{},'.repeat(count - 1)}{}]}`;
    const answer = await send(server, '/batch/', gzipSync(body), { 'content-encoding': 'gzip' });
    expect([answer.status, answer.body]).to.deep.equal([200, { status: 1 }]);
    expect(await stored(account)).to.deep.equal([]);
    const recorded = await warnings(account);
    expect(recorded).to.have.length(101);
    expect(recorded.slice(0, 100).every((warning) => warning.type === 'missing_event_name')).to.equal(true);
    expect(recorded[100]).to.deep.equal({ type: 'warnings_omitted', details: { omitted: count - 100, kept: 100 } });
  });

  it('stores a batch of many small events whole', async () => {
    const account = await newAccount(testDb());
    const batch = Array.from({ length: 5000 }, (_, n) => ({ event: 'e', distinct_id: `u${n % 7}`, uuid: uuid(n) }));
    const answer = await send(server, '/batch/', gzipSync(JSON.stringify({ api_key: account.environment.api_token, batch })), {
      'content-encoding': 'gzip',
    });
    expect(answer.status).to.equal(200);
    const rows = await stored(account);
    expect(rows.map((row) => row.uuid)).to.deep.equal(batch.map((event) => event.uuid));
  });

  it('refuses an event over 1,000,000 bytes with 413 event_too_big and stores an event just under it', async () => {
    const account = await newAccount(testDb());
    const event = (size: number, n: number) => ({ event: 'big', distinct_id: 'u', uuid: uuid(n), properties: { blob: 'x'.repeat(size) } });
    const tooBig = await send(server, '/batch/', JSON.stringify({ api_key: account.environment.api_token, batch: [event(10, 1), event(1_000_000, 2)] }));
    expect([tooBig.status, tooBig.body]).to.deep.equal([
      413,
      { type: 'invalid_request', code: 'event_too_big', detail: 'An event of the request is larger than the 1000000 bytes capture stores for one event.', attr: null },
    ]);
    const oneEvent = await send(server, '/i/v0/e/', JSON.stringify({ api_key: account.environment.api_token, ...event(1_000_000, 3) }));
    expect([oneEvent.status, oneEvent.body.code]).to.deep.equal([413, 'event_too_big']);
    expect(await stored(account)).to.deep.equal([]);
    const fits = await send(server, '/batch/', JSON.stringify({ api_key: account.environment.api_token, batch: [event(999_000, 4)] }));
    expect(fits.status).to.equal(200);
    expect((await stored(account)).map((row) => row.uuid)).to.deep.equal([uuid(4)]);
  });

  describe('with a small memory budget', () => {
    let tight: TestServer;
    before(async () => {
      tight = await startTestServer({ config: { captureMemoryBytes: 2 * 1024 * 1024, captureBudgetWaitMs: 300 } });
    });
    after(() => tight.close());

    it('answers 503 capture_busy with Retry-After while the budget is full, lets small requests through, and recovers', async () => {
      const account = await newAccount(testDb());
      const token = account.environment.api_token;
      // A request that announces 1.5 MB and sends a part of it: it holds its share of the budget meanwhile.
      const port = Number(new URL(tight.directUrl).port);
      const holder = connect(port, '127.0.0.1');
      await new Promise((resolve) => holder.once('connect', resolve));
      holder.write(`POST /batch/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${1_500_000}\r\n\r\n{"api_key":`);
      await new Promise((resolve) => setTimeout(resolve, 100));

      const large = JSON.stringify({ api_key: token, batch: [{ event: 'big', distinct_id: 'u', uuid: uuid(1), properties: { blob: 'x'.repeat(900_000) } }] });
      const busy = await send(tight, '/batch/', large);
      expect([busy.status, busy.body, busy.headers.get('retry-after')]).to.deep.equal([
        503,
        { type: 'server_error', code: 'capture_busy', detail: 'Capture is busy with other large requests; send this one again shortly.', attr: null },
        '1',
      ]);
      const small = await send(tight, '/i/v0/e/', JSON.stringify({ api_key: token, event: 'small', distinct_id: 'u', uuid: uuid(2) }));
      expect(small.status).to.equal(200);

      holder.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const retried = await send(tight, '/batch/', large);
      expect(retried.status).to.equal(200);
      expect((await stored(account)).map((row) => row.uuid)).to.deep.equal([uuid(1), uuid(2)]);
    });
  });
});
