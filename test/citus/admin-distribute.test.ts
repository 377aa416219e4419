/**
 * `npm run admin -- distribute` on a Citus cluster: a database made and migrated on the coordinator alone, as a
 * single-node Hedgerow would have it (its tables local, its data in them), is spread over the workers, keeping
 * every row, and a second run finds nothing left to do.
 */
import { expect } from 'chai';
import type pg from 'pg';
import { createDb } from '../../db/pg/client.js';
import { clusterNodes, nodeUrl, withClient, type CitusNode, type ClusterNodes } from '../../db/pg/citus.js';
import { REFERENCE_TABLES, TENANT_TABLES } from '../../db/pg/distribution.js';
import { migrateLatest } from '../../db/pg/migrate.js';
import { ADMIN_URL } from '../helpers/database.js';
import { newAccount } from '../helpers/fixtures.js';
import { insertEvents } from '../helpers/seed-events.js';
import { insertPerson } from '../helpers/seed-persons.js';
import { runAdmin } from '../helpers/processes.js';

const urlOf = (node: CitusNode, database: string): string => nodeUrl(ADMIN_URL, node, database);
const onNode = (url: string, sql: string): Promise<pg.QueryResult> => withClient(url, (client) => client.query(sql));

describe('admin distribute on a Citus cluster', function () {
  this.timeout(180_000);
  const name = `hedgerow_citus_convert_${process.pid}`;
  let nodes: ClusterNodes;

  before(async () => {
    const found = await clusterNodes(ADMIN_URL);
    if (found === null) throw new Error(`test/citus needs a Citus coordinator at HEDGEROW_TEST_ADMIN_URL (npm run test:citus), not ${ADMIN_URL}`);
    nodes = found;
  });

  after(async () => {
    for (const node of [nodes.coordinator, ...nodes.workers]) {
      await onNode(urlOf(node, 'postgres'), `drop database if exists ${name} with (force)`);
    }
  });

  it('spreads a single-node database over the workers, keeping its rows, and may run again', async () => {
    // A single-node database: made on the coordinator only, without the extension, migrated, with data.
    await onNode(urlOf(nodes.coordinator, 'postgres'), `create database ${name}`);
    const db = createDb(urlOf(nodes.coordinator, name));
    let teamId: number;
    try {
      await migrateLatest(db);
      const account = await newAccount(db);
      teamId = account.environment.id;
      await insertPerson(db, teamId, { distinctIds: ['ada'], properties: { email: 'ada@example.com' } });
      await insertEvents(db, teamId, [
        { event: '$pageview', distinct_id: 'ada', timestamp: '2024-01-01T10:00:00Z' },
        { event: 'purchase', distinct_id: 'ada', timestamp: '2024-01-01T11:00:00Z' },
      ]);
    } finally {
      await db.destroy();
    }
    for (const worker of nodes.workers) {
      await onNode(urlOf(worker, 'postgres'), `create database ${name}`);
      await onNode(urlOf(worker, name), 'create extension citus');
    }
    const env = { DATABASE_URL: urlOf(nodes.coordinator, name) };
    const workers = nodes.workers.map((worker) => `${worker.host}:${worker.port}`).join(',');
    const first = await runAdmin(['distribute', '--workers', workers, '--json'], env);
    expect(first.code, first.stderr).to.equal(0);
    const placed = JSON.parse(first.stdout) as { reference_tables: string[]; distributed_tables: string[] };
    expect(placed.reference_tables).to.deep.equal([...REFERENCE_TABLES]);
    expect(placed.distributed_tables).to.deep.equal([...TENANT_TABLES]);

    const coordinator = urlOf(nodes.coordinator, name);
    const shards = await onNode(
      coordinator,
      `select count(distinct nodeport)::int as nodes from pg_dist_shard_placement p join pg_dist_shard s using (shardid)
        where s.logicalrelid = 'events'::regclass`,
    );
    expect(shards.rows[0].nodes).to.equal(nodes.workers.length);
    const events = await onNode(coordinator, `select event from events where team_id = ${teamId!} order by timestamp`);
    expect(events.rows.map((row) => row.event)).to.deep.equal(['$pageview', 'purchase']);
    const persons = await onNode(coordinator, `select properties->>'email' as email from persons where team_id = ${teamId!}`);
    expect(persons.rows).to.deep.equal([{ email: 'ada@example.com' }]);

    const again = await runAdmin(['distribute', '--json'], env);
    expect(again.code, again.stderr).to.equal(0);
    expect(JSON.parse(again.stdout)).to.deep.include({ reference_tables: [], distributed_tables: [] });
  });
});
