/**
 * The query endpoint's kinds and its helpers: a QueryRequest answered by its `query.kind` (HogQLQuery,
 * EventsQuery), the same with the kind in the path, check_auth_for_async and draft_sql.
 */
import type Koa from 'koa';
import { errors } from '../db/core/errors.js';
import { stringifyExact } from '../db/core/exact-json.js';
import { draftSql } from '../db/queries/query/draft-sql.js';
import { runQueryNode } from '../db/queries/query/run.js';
import { queryReader } from '../db/queries/query/shares.js';
import { tenantReader } from '../db/pg/session-shares.js';
import { executionModeOf, submitAsyncQuery } from './query-status.js';
import { holdRequestAnswer } from './server/answer-memory.js';
import { environmentOf, jsonText, tenantOf, type AppDeps, type Handler, type HandlerInput, type RequestBody, type RequestState } from './types.js';

type QueryRequest = RequestBody<'environments_query_create'>;

/**
 * The answer to a query request: by its execution mode (handlers/query-status.ts) queued to run asynchronously,
 * or the rows of the query run now, by its kind (the spec's discriminator has let only the kinds
 * that run through).
 */
export async function answerQuery(deps: AppDeps, state: RequestState, body: QueryRequest, ctx: Koa.Context) {
  const mode = executionModeOf(body);
  if (mode === 'async' || mode === 'force_async') {
    // A status, stored no larger than the answer budget: held at its size once read.
    const submitted = await submitAsyncQuery(deps, state, body, mode === 'force_async');
    const size = Buffer.byteLength(submitted.body);
    holdRequestAnswer(ctx, deps, state, size).sending(size);
    return submitted;
  }
  // The answer's memory is reserved for its user as its rows are counted, and kept until it has been sent.
  const hold = holdRequestAnswer(ctx, deps, state, 0);
  try {
    const { environment } = environmentOf(state);
    const reader = queryReader(deps.reader, tenantOf(state), {
      perEnvironment: deps.config.queryConcurrencyPerEnvironment,
      perUser: deps.config.queryConcurrencyPerUser,
    });
    const bounds = {
      timeoutMs: deps.config.queryTimeoutMs,
      maxResultBytes: deps.config.queryResultMaxBytes,
      onAnswerBytes: (bytes: number) => hold.growing(bytes),
    };
    const result = await runQueryNode(reader, environment, body.query, bounds);
    const text = jsonText<typeof result & { query_status: null }>(stringifyExact({ ...result, query_status: null }));
    hold.sending(Buffer.byteLength(text));
    return { status: 200 as const, body: text };
  } catch (error) {
    hold.release();
    throw error;
  }
}

async function answerWithKind(input: HandlerInput<'environments_query_with_kind_create'> | HandlerInput<'query_with_kind_create'>) {
  const { params, body, state, deps } = input;
  if (params.id !== body.query.kind) {
    throw errors.validation(`Query kind mismatch: path kind "${params.id}" does not match body kind "${body.query.kind}".`);
  }
  return answerQuery(deps, state, body, input.ctx);
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
