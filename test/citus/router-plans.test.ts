/**
 * What only a Citus cluster can show (`npm run test:citus`): the migrations place every table where
 * db/pg/distribution.ts says, and each environment's statements run on the one node that holds the environment.
 *
 * The API runs here on a database where Citus refuses any statement that needs more than one shard
 * (`citus.multi_task_query_log_level = error`), so a request that answers 200 ran only router statements:
 * capture with persons, aliases and groups, the event listing, HogQL and event queries, playlists and batch
 * exports. EXPLAIN shows the plan of compiled HogQL. An operator's count over all environments, which is meant to
 * span the shards, runs on all of them in parallel.
 */
import { expect } from 'chai';
import pg from 'pg';
import { createDb, type Db } from '../../db/pg/client.js';
import { clusterNodes } from '../../db/pg/citus.js';
import { REFERENCE_TABLES, TENANT_TABLES } from '../../db/pg/distribution.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { CAPTURE_LOCK_CLASS, STORE_EVENTS } from '../../db/queries/ingestion.js';
import { compileSelect, parseSelect } from '../../db/hogql/select/index.js';
import { ADMIN_URL, createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';
import { newAccount, type Account } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/** What `EXPLAIN (FORMAT JSON)` says of a statement on a coordinator: Citus's scan and how many shards it runs on. */
interface CitusPlan {
  customScan: string | null;
  taskCount: number | null;
}

function citusPlan(explained: unknown): CitusPlan {
  const root = (explained as Array<{ Plan: Record<string, unknown> }>)[0]!.Plan;
  const stack: Record<string, unknown>[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node['Node Type'] === 'Custom Scan') {
      const job = (node['Distributed Query'] as { Job?: { 'Task Count'?: number } } | undefined)?.Job;
      return { customScan: String(node['Custom Plan Provider']), taskCount: job?.['Task Count'] ?? null };
    }
    stack.push(...(((node.Plans as Record<string, unknown>[] | undefined) ?? [])));
  }
  return { customScan: null, taskCount: null };
}

const HOGQL_QUERIES = [
  'select event, count() from events group by event order by event',
  'select distinct_id, person.properties.email from events order by timestamp',
  "select count() from events where person.properties.plan = 'pro'",
  'select pdi.distinct_id, pdi.person_id from person_distinct_ids pdi order by pdi.distinct_id',
  'select properties.email from persons order by created_at',
  'select event, timestamp from events where timestamp > (select min(timestamp) from events) order by timestamp',
  'with firsts as (select distinct_id, min(timestamp) as first from events group by distinct_id) select count() from firsts',
  'select event, row_number() over (partition by distinct_id order by timestamp) from events order by event',
  'select event from events union all select event from events order by event limit 3',
  "select $group_0, count() from events where $group_0 != '' group by $group_0",
  'select key, properties.name from groups order by key',
];

describe('on a Citus cluster', function () {
  this.timeout(120_000);
  let name: string;
  let db: Db;
  let server: TestServer;
  let account: Account;
  let other: Account;
  let client: HttpClient;

  before(async () => {
    if ((await clusterNodes(ADMIN_URL)) === null) {
      throw new Error(`test/citus needs a Citus coordinator at HEDGEROW_TEST_ADMIN_URL (npm run test:citus), not ${ADMIN_URL}`);
    }
    name = await createDatabase('hedgerow_citus_router');
    const migrating = createDb(databaseUrl(name));
    await migrateLatest(migrating);
    await migrating.raw(`alter database ${name} set citus.multi_task_query_log_level = 'error'`);
    await migrating.destroy();
    db = createDb(databaseUrl(name));
    account = await newAccount(db);
    other = await newAccount(db);
    server = await startTestServer({ db });
    client = server.http.withKey(account.key);
  });

  /** The Citus plan of a statement with $n parameters, as the API runs it (pg's extended protocol). */
  async function explain(text: string, params: unknown[]): Promise<CitusPlan> {
    const connection = new pg.Client({ connectionString: databaseUrl(name) });
    await connection.connect();
    try {
      const { rows } = await connection.query(`explain (format json) ${text}`, params);
      return citusPlan(rows[0]['QUERY PLAN']);
    } finally {
      await connection.end();
    }
  }

  after(async () => {
    await server?.close();
    await db?.destroy();
    if (name) await dropDatabase(name);
  });

  it('shards every tenant table by team_id in one colocation group and copies the shared tables to every node', async () => {
    const { rows } = await db.raw(`
      select logicalrelid::text as "table", partmethod, repmodel, colocationid,
             column_to_column_name(logicalrelid, partkey) as "column"
        from pg_dist_partition`);
    const placed = new Map<string, { partmethod: string; repmodel: string; colocationid: number; column: string | null }>(
      rows.map((row: { table: string }) => [row.table, row]),
    );
    expect([...placed.keys()].sort()).to.deep.equal([...TENANT_TABLES, ...REFERENCE_TABLES].sort());
    for (const table of TENANT_TABLES) {
      expect(placed.get(table), table).to.include({ partmethod: 'h', column: 'team_id' });
    }
    expect(new Set(TENANT_TABLES.map((table) => placed.get(table)!.colocationid)).size).to.equal(1);
    for (const table of REFERENCE_TABLES) expect(placed.get(table), table).to.include({ partmethod: 'n', repmodel: 't' });
  });

  it('refuses, on this database, a statement that needs more than one shard (the guard the API runs under)', async () => {
    let refused: Error | null = null;
    try {
      await db.raw('select count(*) from events');
    } catch (error) {
      refused = error as Error;
    }
    expect(refused?.message).to.match(/multi-task|multi-shard|more than one/i);
  });

  it('captures a batch with persons, an alias and a group on one node, and stores it', async () => {
    const token = account.environment.api_token;
    const batch = [
      { event: '$pageview', distinct_id: 'anon-1', properties: { $current_url: 'https://x.test/' }, timestamp: '2024-01-01T10:00:00Z' },
      { event: '$identify', distinct_id: 'alice', properties: { $anon_distinct_id: 'anon-1', $set: { email: 'a@x.test', plan: 'pro' } }, timestamp: '2024-01-01T10:01:00Z' },
      { event: '$create_alias', distinct_id: 'alice', properties: { alias: 'alice-2' }, timestamp: '2024-01-01T10:02:00Z' },
      { event: '$groupidentify', distinct_id: 'alice', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } }, timestamp: '2024-01-01T10:03:00Z' },
      { event: 'purchase', distinct_id: 'alice-2', properties: { $groups: { company: 'acme' }, price: 10 }, timestamp: '2024-01-01T10:04:00Z' },
    ];
    const response = await server.http.request('POST', '/batch/', {
      rawBody: JSON.stringify({ api_key: token, batch }),
      headers: { 'content-type': 'application/json' },
    });
    expect([response.status, response.body]).to.deep.equal([200, { status: 1 }]);
    const stored = await db('events').where({ team_id: account.environment.id }).orderBy('timestamp').pluck('event');
    expect(stored).to.deep.equal(['$pageview', '$identify', '$create_alias', '$groupidentify', 'purchase']);
    const people = await db('person_distinct_ids').where({ team_id: account.environment.id }).countDistinct<{ count: string }[]>('person_id as count');
    expect(Number(people[0]!.count)).to.equal(1);
    await db('events').insert({
      team_id: other.environment.id,
      uuid: '0190d7a8-0000-7000-8000-000000000001',
      event: 'secret',
      distinct_id: 'mallory',
      properties: {},
      timestamp: new Date('2024-01-01T10:00:00Z'),
    });
  });

  it("hands capture's quick call for one environment whole to the node of the environment", async () => {
    const { rows } = await db.raw(`
      select o.distribution_argument_index, o.colocationid = p.colocationid as colocated
        from pg_dist_object o, pg_dist_partition p
       where o.objid = 'capture_store_events'::regproc and p.logicalrelid = 'events'::regclass`);
    expect(rows).to.deep.equal([{ distribution_argument_index: 0, colocated: true }]);
    const column = (value: unknown) => [value];
    const plan = await explain(STORE_EVENTS.text, [
      account.environment.id, CAPTURE_LOCK_CLASS, 0,
      ...['0190d7a8-0000-7000-8000-000000000002', 'plan', 'anon-1', '{}', new Date(), '', null, null, null, null, null, null, null, false].map(column),
    ]);
    expect(plan).to.deep.equal({ customScan: 'Citus Adaptive', taskCount: 1 });
  });

  it('lists events on one node', async () => {
    const response = await client.get(`/api/projects/${account.environment.id}/events/?limit=10`);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    expect(response.body.results.map((event: { event: string }) => event.event)).to.deep.equal([
      'purchase', '$groupidentify', '$create_alias', '$identify', '$pageview',
    ]);
  });

  for (const query of HOGQL_QUERIES) {
    it(`answers HogQL on one node, and EXPLAIN shows Citus's router plan: ${query}`, async () => {
      const response = await client.post(`/api/environments/${account.environment.id}/query/`, { query: { kind: 'HogQLQuery', query } });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(JSON.stringify(response.body.results)).not.to.contain('secret');
      const compiled = compileSelect(parseSelect(query), {
        teamId: account.environment.id,
        timezone: 'UTC',
        defaultLimit: 100,
        maxLimit: 1000,
      });
      expect(await explain(compiled.text, compiled.params)).to.deep.equal({ customScan: 'Citus Adaptive', taskCount: 1 });
    });
  }

  it('answers an EventsQuery on one node', async () => {
    const events = await client.post(`/api/environments/${account.environment.id}/query/`, {
      query: { kind: 'EventsQuery', select: ['event', 'person.properties.email'], orderBy: ['timestamp'], after: 'all' },
    });
    expect(events.status, JSON.stringify(events.body)).to.equal(200);
    expect(events.body.results[0]).to.deep.equal(['$pageview', 'a@x.test']);
  });

  it('keeps playlists and batch exports on one node', async () => {
    const playlists = `/api/environments/${account.environment.id}/session_recording_playlists/`;
    const created = await client.post(playlists, { name: 'Checkout', type: 'collection' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const item = await client.post(`${playlists}${created.body.short_id}/recordings/session-1/`, {});
    expect(item.status, JSON.stringify(item.body)).to.equal(200);
    const listed = await client.get(playlists);
    expect(listed.body.results.map((playlist: { name: string }) => playlist.name)).to.deep.equal(['Checkout']);

    const exports = `/api/environments/${account.environment.id}/batch_exports/`;
    const made = await client.post(exports, {
      name: 'to a receiver',
      interval: 'hour',
      paused: true,
      destination: { type: 'HTTP', config: { url: 'http://127.0.0.1:9/receive', token: 't' } },
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const runs = await client.get(`${exports}${made.body.id}/runs/`);
    expect([runs.status, runs.body.results]).to.deep.equal([200, []]);
  });

  it("runs an operator's count of events per environment on every shard in parallel", async () => {
    const spanning = createDb(databaseUrl(name));
    try {
      await spanning.transaction(async (trx) => {
        await trx.raw(`set local citus.multi_task_query_log_level = 'off'`);
        const explained = await trx.raw('explain (format json) select team_id, count(*) from events group by team_id');
        const plan = citusPlan(explained.rows[0]['QUERY PLAN']);
        const shards = await trx.raw(`select count(*)::int as shards from pg_dist_shard where logicalrelid = 'events'::regclass`);
        expect(plan).to.deep.equal({ customScan: 'Citus Adaptive', taskCount: shards.rows[0].shards });
        const counts = await trx.raw('select team_id, count(*)::int as events from events group by team_id order by team_id');
        expect(counts.rows).to.deep.equal(
          [
            { team_id: account.environment.id, events: 5 },
            { team_id: other.environment.id, events: 1 },
          ].sort((a, b) => a.team_id - b.team_id),
        );
      });
    } finally {
      await spanning.destroy();
    }
  });
});
