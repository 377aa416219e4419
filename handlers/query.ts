/**
 * The query endpoint's submit (environments_query_create and its /api/projects/ twin query_create): a HogQLQuery
 * runs at once on the read pool, within the query timeout, and its rows are the answer; or, by its execution
 * mode, it is queued to run asynchronously (handlers/query-status.ts).
 */
import { runHogQLQuery } from '../db/queries/query/hogql-query.js';
import { cacheMiss, executionModeOf, submitAsyncQuery } from './query-status.js';
import { environmentOf, type Handler, type HandlerInput } from './types.js';

async function runQuery(input: HandlerInput<'environments_query_create'> | HandlerInput<'query_create'>) {
  const { body, state, deps } = input;
  const mode = executionModeOf(body);
  if (mode === 'async' || mode === 'force_async') return submitAsyncQuery(input, mode === 'force_async');
  if (mode === 'cache_only') return cacheMiss();
  const result = await runHogQLQuery(deps.reader, environmentOf(state).environment, body.query, deps.config.queryTimeoutMs);
  return { status: 200 as const, body: { ...result, query_status: null } };
}

export const environments_query_create: Handler<'environments_query_create'> = (input) => runQuery(input);
export const query_create: Handler<'query_create'> = (input) => runQuery(input);
