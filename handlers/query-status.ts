/**
 * Asynchronous queries at the API: submitting one (from the query endpoint's submit, by its execution mode),
 * reading its status (environments_query_retrieve) and cancelling it (environments_query_destroy). The statuses
 * live in PostgreSQL (db/queries/query/status.ts) and the runs are jobs of the engine (handlers/jobs/queries.ts),
 * so every answer is the same from whichever process gives it.
 */
import { uuidv7 } from '../db/core/uuid.js';
import { errors } from '../db/core/errors.js';
import { cancelQuery, isStorableQueryId, readQueryStatus, submitQuery, type QueryStatus } from '../db/queries/query/status.js';
import { JOB_SCHEMA, QUERY_QUEUE, QueryJobs } from './jobs/queries.js';
import { environmentOf, type AppDeps, type Handler, type RequestBody, type RequestState } from './types.js';

type QueryRequest = RequestBody<'environments_query_create'>;

/**
 * How a query request runs, as PostHog maps `refresh` and the legacy `async` to execution modes, with no cache:
 * `async: true` wins over `refresh`, and the cache-only modes (`force_cache`, `false`, none), which PostHog
 * upgrades to computing when nothing is cached, run now, as does every mode that blocks on a cache miss.
 */
export type ExecutionMode = 'now' | 'async' | 'force_async';

export function executionModeOf(request: Pick<QueryRequest, 'refresh' | 'async'>): ExecutionMode {
  if (request.async === true) return 'async';
  switch (request.refresh) {
    case 'async':
    case 'lazy_async':
      return 'async';
    case 'force_async':
      return 'force_async';
    default:
      return 'now';
  }
}

const jobsByTimeout = new Map<number, QueryJobs>();

function queryJobs(deps: AppDeps): QueryJobs {
  const timeoutMs = deps.config.queryTimeoutMs;
  let jobs = jobsByTimeout.get(timeoutMs);
  if (!jobs) {
    jobs = new QueryJobs(timeoutMs);
    jobsByTimeout.set(timeoutMs, jobs);
  }
  return jobs;
}

/**
 * Queues the query (or finds its status, when one exists for the id and the run is not forced): 202 with its
 * status while it is not complete, 200 once it is, as PostHog answers.
 */
export async function submitAsyncQuery(
  deps: AppDeps,
  state: RequestState,
  body: QueryRequest,
  force: boolean,
): Promise<{ status: 200 | 202; body: { query_status: QueryStatus } }> {
  if (typeof body.client_query_id === 'string' && !isStorableQueryId(body.client_query_id)) {
    throw errors.validation('A query id cannot contain the NUL character.', 'client_query_id');
  }
  const jobs = queryJobs(deps);
  const status = await submitQuery(
    deps.db,
    {
      teamId: environmentOf(state).environment.id,
      id: body.client_query_id ?? uuidv7().replaceAll('-', ''),
      query: body.query,
      jobId: crypto.randomUUID(),
      force,
    },
    jobs.enqueue,
    jobs.dequeue,
  );
  return { status: status.complete ? 200 : 202, body: { query_status: status } };
}

function notFound(id: string, teamId: number) {
  return errors.notFound(`Query ${id} not found for team ${teamId}`);
}

export const environments_query_retrieve: Handler<'environments_query_retrieve'> = async ({ params, state, deps }) => {
  const teamId = environmentOf(state).environment.id;
  // No status can have an id PostgreSQL cannot store.
  const status = !isStorableQueryId(params.id) ? null : await readQueryStatus(deps.db, teamId, params.id, JOB_SCHEMA, QUERY_QUEUE);
  if (!status) throw notFound(params.id, teamId);
  if (!status.complete) return { status: 202, body: { query_status: status } };
  if (!status.error) return { status: 200, body: { query_status: status } };
  // PostHog answers a failure without a message to show (a server error) with a 500.
  if (status.error_message === null) throw errors.server();
  return { status: 400, body: { query_status: status } };
};

export const environments_query_destroy: Handler<'environments_query_destroy'> = async ({ params, state, deps }) => {
  if (isStorableQueryId(params.id)) await cancelQuery(deps.db, environmentOf(state).environment.id, params.id, queryJobs(deps).dequeue);
  return { status: 204 };
};
