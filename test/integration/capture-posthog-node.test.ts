/**
 * posthog-node, unchanged and with its default options (gzip included), pointed at Hedgerow: what it stores.
 * Only its `fetch` is wrapped, to check each of Hedgerow's answers against the spec; the requests are the SDK's
 * own. (It talks to the server directly: Prism cannot read gzip bodies.)
 */
import { expect } from 'chai';
import { contractViolations } from '../helpers/contract.js';
import { testDb } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** What the test uses of posthog-node (its own typings need the DOM library, which this project does not load). */
interface PostHogClient {
  capture(message: { distinctId: string; event: string; properties?: Record<string, unknown>; groups?: Record<string, string>; timestamp?: Date }): void;
  identify(message: { distinctId: string; properties: Record<string, unknown> }): void;
  alias(message: { distinctId: string; alias: string }): void;
  groupIdentify(message: { groupType: string; groupKey: string; properties: Record<string, unknown> }): void;
  on(event: 'error', listener: (error: unknown) => void): void;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}
type Fetch = (url: string, options: { method?: string; headers?: Record<string, string>; body?: unknown }) => Promise<Response>;
type PostHogConstructor = new (apiKey: string, options: { host: string; fetch: Fetch }) => PostHogClient;

describe('posthog-node against Hedgerow', () => {
  let server: TestServer;
  let account: Account;

  before(async () => {
    server = await startTestServer();
    account = await newAccount(testDb());
  });
  after(() => server.close());

  it('stores exactly what capture, identify, alias and groupIdentify send, once flushed', async () => {
    const violations: string[] = [];
    const statuses: number[] = [];
    const packageName = 'posthog-node';
    const { PostHog } = (await import(packageName)) as { PostHog: PostHogConstructor };
    const client = new PostHog(account.environment.api_token, {
      host: server.directUrl,
      fetch: async (url, options) => {
        const response = await fetch(url, options as RequestInit);
        const text = await response.clone().text();
        const contentType = response.headers.get('content-type');
        const path = new URL(url).pathname + new URL(url).search;
        statuses.push(response.status);
        violations.push(
          ...(await contractViolations({
            method: options.method ?? 'GET',
            path,
            status: response.status,
            contentType,
            body: contentType?.includes('json') && text ? JSON.parse(text) : text,
            text,
          })),
        );
        return response;
      },
    });
    let failure: unknown = null;
    client.on('error', (error) => (failure = error));

    client.capture({ distinctId: 'user-1', event: 'button clicked', properties: { color: 'red' } });
    client.capture({
      distinctId: 'user-1',
      event: 'with groups',
      groups: { company: 'acme' },
      timestamp: new Date('2026-11-21T10:00:00.000Z'),
    });
    client.identify({ distinctId: 'user-1', properties: { $set: { email: 'ada@example.com' }, $set_once: { first_plan: 'free' } } });
    client.alias({ distinctId: 'user-1', alias: 'anon-123' });
    client.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { name: 'Acme Inc', employees: 11 } });
    await client.flush();
    await client.shutdown();

    expect(failure).to.equal(null);
    expect(statuses).to.deep.equal([200]);
    expect(violations).to.deep.equal([]);

    const teamId = account.environment.id;
    const events = await testDb()('events').where({ team_id: teamId }).select('event', 'distinct_id', 'properties', 'person_id', 'group_0', 'timestamp');
    expect(events.map((row) => [row.event, row.distinct_id]).sort()).to.deep.equal(
      [
        ['$create_alias', 'user-1'],
        ['$groupidentify', '$company_acme'],
        ['$identify', 'user-1'],
        ['button clicked', 'user-1'],
        ['with groups', 'user-1'],
      ].sort(),
    );
    const byName = Object.fromEntries(events.map((row) => [row.event, row]));
    expect(byName['button clicked'].properties).to.deep.include({ color: 'red', $lib: 'posthog-node' });
    expect(byName['with groups'].group_0).to.equal('acme');
    // Corrected for the clock difference between sending (sent_at) and receiving, as PostHog does: milliseconds.
    expect(Math.abs(byName['with groups'].timestamp.getTime() - Date.parse('2026-11-21T10:00:00.000Z'))).to.be.below(2000);

    const persons = await testDb()('persons').where({ team_id: teamId }).select('uuid', 'properties', 'is_identified');
    expect(persons).to.have.length(1);
    expect(persons[0]).to.deep.include({ properties: { email: 'ada@example.com', first_plan: 'free' }, is_identified: true });
    const distinctIds = await testDb()('person_distinct_ids').where({ team_id: teamId }).orderBy('distinct_id').pluck('distinct_id');
    expect(distinctIds).to.deep.equal(['anon-123', 'user-1']);
    for (const row of events.filter((event) => event.distinct_id === 'user-1')) expect(row.person_id).to.equal(persons[0].uuid);

    const groups = await testDb()('groups').where({ team_id: teamId }).select('group_type_index', 'group_key', 'group_properties');
    expect(groups).to.deep.equal([{ group_type_index: 0, group_key: 'acme', group_properties: { name: 'Acme Inc', employees: 11 } }]);
  });
});
