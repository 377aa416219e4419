/**
 * The query endpoint's synchronous submit (environments_query_create and its /api/projects/ twin query_create):
 * a HogQLQuery runs at once on the read pool, within the query timeout, and its rows are the answer.
 */
import { runHogQLQuery } from '../db/queries/query/hogql-query.js';
import { environmentOf, type Handler, type HandlerInput } from './types.js';

async function runQuery(input: HandlerInput<'environments_query_create'> | HandlerInput<'query_create'>) {
  const { body, state, deps } = input;
  const result = await runHogQLQuery(deps.reader, environmentOf(state).environment, body.query, deps.config.queryTimeoutMs);
  return { status: 200 as const, body: { ...result, query_status: null } };
}

export const environments_query_create: Handler<'environments_query_create'> = (input) => runQuery(input);
export const query_create: Handler<'query_create'> = (input) => runQuery(input);
