/**
 * The query endpoint's kinds and its helpers: a QueryRequest answered by its `query.kind` (HogQLQuery,
 * EventsQuery), the same with the kind in the path, check_auth_for_async and draft_sql.
 */
import { errors } from '../db/core/errors.js';
import { draftSql } from '../db/queries/query/draft-sql.js';
import { runQueryNode } from '../db/queries/query/run.js';
import { queryReader } from '../db/queries/query/shares.js';
import { tenantReader } from '../db/pg/session-shares.js';
import { executionModeOf, submitAsyncQuery } from './query-status.js';
import { environmentOf, tenantOf, type AppDeps, type Handler, type HandlerInput, type RequestBody, type RequestState } from './types.js';

type QueryRequest = RequestBody<'environments_query_create'>;

/**
 * The answer to a query request: by its execution mode (handlers/query-status.ts) queued to run asynchronously,
 * or the rows of the query run now, by its kind (the spec's discriminator has let only the kinds
 * that run through).
 */
export async function answerQuery(deps: AppDeps, state: RequestState, body: QueryRequest) {
  const mode = executionModeOf(body);
  if (mode === 'async' || mode === 'force_async') return submitAsyncQuery(deps, state, body, mode === 'force_async');
  const { environment } = environmentOf(state);
  const reader = queryReader(deps.reader, tenantOf(state), {
    perEnvironment: deps.config.queryConcurrencyPerEnvironment,
    perUser: deps.config.queryConcurrencyPerUser,
  });
  const bounds = { timeoutMs: deps.config.queryTimeoutMs, maxResultBytes: deps.config.queryResultMaxBytes };
  const result = await runQueryNode(reader, environment, body.query, bounds);
  return { status: 200 as const, body: { ...result, query_status: null } };
}

async function answerWithKind(input: HandlerInput<'environments_query_with_kind_create'> | HandlerInput<'query_with_kind_create'>) {
  const { params, body, state, deps } = input;
  if (params.id !== body.query.kind) {
    throw errors.validation(`Query kind mismatch: path kind "${params.id}" does not match body kind "${body.query.kind}".`);
  }
  return answerQuery(deps, state, body);
}

export const environments_query_with_kind_create: Handler<'environments_query_with_kind_create'> = (input) => answerWithKind(input);
export const query_with_kind_create: Handler<'query_with_kind_create'> = (input) => answerWithKind(input);

/** Reaching the handler is the answer: the key was authenticated, holds query:read and sees the environment. */
export const environments_query_check_auth_for_async_create: Handler<'environments_query_check_auth_for_async_create'> = async () => ({ status: 200 });

export const environments_query_draft_sql_retrieve: Handler<'environments_query_draft_sql_retrieve'> = async ({ query, state, deps }) => ({
  status: 200,
  body: await draftSql(
    tenantReader(deps.reader, tenantOf(state)),
    environmentOf(state).environment,
    query.prompt,
    deps.config.queryTimeoutMs,
  ),
});
