/**
 * The query endpoint's kinds and its helpers: a QueryRequest answered by its `query.kind` (HogQLQuery,
 * EventsQuery), the same with the kind in the path, check_auth_for_async and draft_sql.
 */
import { errors } from '../db/core/errors.js';
import { draftSql } from '../db/queries/query/draft-sql.js';
import { runEventsQuery } from '../db/queries/query/events-query.js';
import { runHogQLQuery } from '../db/queries/query/hogql-query.js';
import { environmentOf, type AppDeps, type Handler, type HandlerInput, type RequestBody, type RequestState } from './types.js';

type QueryRequest = RequestBody<'environments_query_create'>;

/** The rows of the request's query, by its kind (the spec's discriminator has let only these through). */
export async function answerQuery(deps: AppDeps, state: RequestState, body: QueryRequest) {
  const environment = environmentOf(state).environment;
  const { query } = body;
  const result =
    query.kind === 'EventsQuery'
      ? await runEventsQuery(deps.reader, environment, query, deps.config.queryTimeoutMs)
      : await runHogQLQuery(deps.reader, environment, query, deps.config.queryTimeoutMs);
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
  body: await draftSql(deps.reader, environmentOf(state).environment, query.prompt, deps.config.queryTimeoutMs),
});
