import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import type { Db } from '../../db/pg/client.js';
import { clusterNodes } from '../../db/pg/citus.js';
import { startEngine, type EngineSettings, type RunningEngine } from '../../handlers/jobs/index.js';
import { ADMIN_URL, databaseUrl } from './database.js';
import type { HttpClient } from './http.js';
import { waitFor } from './wait.js';

/**
 * A HogQL query that runs until it is cancelled: an environment's handful of events joined with themselves
 * twelve times (5^12 rows for five events).
 */
export const ENDLESS_QUERY = `select count() from events a ${'bcdfghijklm'
  .split('')
  .map((alias) => `join events ${alias} on 1 = 1`)
  .join(' ')}`;

/**
 * The statements reading events running in database `name` (ENDLESS_QUERY's, where nothing else reads them), on
 * every node that runs them: the server, or on a Citus cluster the coordinator and each worker (where the join
 * runs on the environment's shard, under the shard's name).
 */
export async function runningEventReads(name: string): Promise<number> {
  const nodes = await clusterNodes(ADMIN_URL);
  const urls = nodes
    ? [nodes.coordinator, ...nodes.workers].map((node) => {
        const url = new URL(databaseUrl(name));
        url.hostname = node.host;
        url.port = String(node.port);
        return url.toString();
      })
    : [databaseUrl(name)];
  let running = 0;
  for (const url of urls) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid() and query ~* '\\mevents(_\\d+)?\\M'`,
      );
      running += rows[0]!.n;
    } finally {
      await client.end();
    }
  }
  return running;
}

/**
 * The asynchronous queries of environment `teamId` whose statement runs now, on the session of the runner their
 * status names (not the runner's own look-up of that session): their ids, that session's pid, and its
 * application name (which ends with the pid of the process running it).
 */
export async function runningAsyncQueries(db: Db, teamId: number): Promise<Array<{ id: string; pid: number; application_name: string }>> {
  const { rows } = await db.raw(
    `select s.id, a.pid, a.application_name from query_statuses s
     join pg_stat_activity a on a.pid = s.runner_pid and a.backend_start = s.runner_backend_start
     where s.team_id = ? and a.state = 'active' and a.query not like '%pg_backend_pid()%' order by s.id`,
    [teamId],
  );
  return rows;
}

/** A job engine that runs asynchronous queries, with one runner per run kind and settings a test may override. */
export function startQueryEngine(databaseUrl: string, settings: Partial<EngineSettings> & { queryTimeoutMs: number }): Promise<RunningEngine> {
  return startEngine(
    {
      databaseUrl,
      concurrency: 1,
      leaseMs: 60_000,
      tickIntervalMs: 0,
      clockOffsetMs: 0,
      noopDelayMs: 0,
      connectTimeoutMs: 5_000,
      statementTimeoutMs: 30_000,
      ...settings,
    },
    pino({ level: 'silent' }),
  );
}

/** Polls an asynchronous query's status until it is no longer a 202, and answers that response. */
export function untilAnswered(client: HttpClient, statusPath: string, what = `${statusPath} to be answered`) {
  return waitFor(what, async () => {
    const response = await client.get(statusPath);
    return response.status !== 202 && response;
  });
}

/**
 * A status row of environment `teamId` that was picked up by a runner whose session no longer exists: this
 * session's pid with another start. Not inserted: callers insert it, changed as they need.
 */
export function statusOfDeadRunner(db: Db, teamId: number, id: string) {
  return {
    team_id: teamId,
    id,
    query: { kind: 'HogQLQuery', query: 'select 1' },
    start_time: db.fn.now(),
    pickup_time: db.fn.now(),
    expiration_time: db.raw(`now() + interval '20 minutes'`),
    task_id: randomUUID(),
    runner_pid: db.raw('pg_backend_pid()'),
    runner_backend_start: '2000-01-01T00:00:00Z',
  };
}
