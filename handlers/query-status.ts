/**
 * Asynchronous queries at the API: submitting one (from the query endpoint's submit, by its execution mode),
 * reading its status (environments_query_retrieve) and cancelling it (environments_query_destroy). The statuses
 * live in PostgreSQL (db/queries/query/status.ts) and the runs are jobs of the engine (handlers/jobs/query-jobs.ts),
 * so every answer is the same from whichever process gives it.
 */
import { uuidv7 } from '../db/core/uuid.js';
import { errors } from '../db/core/errors.js';
import { MAX_JSON_DEPTH } from '../db/core/json-limits.js';
import { parseJson, stringifyExact } from '../db/core/exact-json.js';
import { cancelQuery, isStorableQueryId, readQueryStatus, StoredJson, storedResultsBytes, submitQuery, type QueryStatus } from '../db/queries/query/status.js';
import { holdRequestAnswer } from './server/answer-memory.js';
import { environmentOf, jsonText, type AppDeps, type Handler, type JsonText, type RequestBody, type RequestState } from './types.js';

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

/** The status as the spec shows it: `{"query_status": …}`, its results written out as they are stored. */
function statusBody(status: QueryStatus): string {
  const fields = Object.entries(status).map(
    ([name, value]) => `${JSON.stringify(name)}:${value instanceof StoredJson ? value.text : stringifyExact(value)}`,
  );
  return `{"query_status":{${fields.join(',')}}}`;
}

/** The status as an object, its results parsed: for the answers that are not written from text. */
function statusObject(status: QueryStatus) {
  return { ...status, results: status.results === null ? null : parseJson(status.results.text, MAX_JSON_DEPTH) };
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
): Promise<{ status: 200 | 202; body: JsonText<{ query_status: ReturnType<typeof statusObject> }> }> {
  if (typeof body.client_query_id === 'string' && !isStorableQueryId(body.client_query_id)) {
    const what = body.client_query_id.includes('\u0000') ? 'the NUL character' : 'a lone surrogate (text that is not well-formed UTF-16)';
    throw errors.validation(`A query id cannot contain ${what}.`, 'client_query_id');
  }
  const status = await submitQuery(
    deps.db,
    {
      teamId: environmentOf(state).environment.id,
      id: body.client_query_id ?? uuidv7().replaceAll('-', ''),
      query: body.query,
      jobId: crypto.randomUUID(),
      force,
      pendingLimit: deps.config.asyncQueriesPerEnvironment,
      userId: state.principal?.user.id ?? null,
      userPendingLimit: deps.config.asyncQueriesPerUser,
    },
    deps.queryJobs,
  );
  return { status: status.complete ? 200 : 202, body: jsonText(statusBody(status)) };
}

function notFound(id: string, teamId: number) {
  return errors.notFound(`Query ${id} not found for team ${teamId}`);
}

export const environments_query_retrieve: Handler<'environments_query_retrieve'> = async ({ params, state, deps, ctx }) => {
  // A stored answer is reserved at its stored size before it is read (the status's other fields are small).
  const stored = isStorableQueryId(params.id) ? await storedResultsBytes(deps.db, environmentOf(state).environment.id, params.id) : 0;
  const hold = holdRequestAnswer(ctx, deps, state, stored + STATUS_FIELDS_BYTES);
  try {
    const answer = await readStatusAnswer(deps, state, params.id);
    hold.sending(answer.status === 400 ? stringifyExact(answer.body).length : Buffer.byteLength(answer.body));
    return answer;
  } catch (error) {
    hold.release();
    throw error;
  }
};

/** Room for a status's fields other than its results (ids, times, a message, labels). */
const STATUS_FIELDS_BYTES = 64 * 1024;

async function readStatusAnswer(deps: AppDeps, state: RequestState, id: string) {
  const teamId = environmentOf(state).environment.id;
  // No status can have an id PostgreSQL cannot store.
  const status = !isStorableQueryId(id) ? null : await readQueryStatus(deps.db, teamId, id, deps.queryJobs);
  if (!status) throw notFound(id, teamId);
  if (!status.complete) return { status: 202 as const, body: jsonText<{ query_status: ReturnType<typeof statusObject> }>(statusBody(status)) };
  if (!status.error) return { status: 200 as const, body: jsonText<{ query_status: ReturnType<typeof statusObject> }>(statusBody(status)) };
  // PostHog answers a failure without a message to show (a server error) with a 500.
  if (status.error_message === null) throw errors.server();
  return { status: 400 as const, body: { query_status: statusObject(status) } };
}

export const environments_query_destroy: Handler<'environments_query_destroy'> = async ({ params, state, deps }) => {
  if (isStorableQueryId(params.id)) await cancelQuery(deps.db, environmentOf(state).environment.id, params.id, deps.queryJobs);
  return { status: 204 };
};
