/**
 * The query endpoint's submit (environments_query_create and its /api/projects/ twin query_create): the query
 * (a HogQLQuery or an EventsQuery) runs at once, or is queued by its execution mode (handlers/query-kinds.ts).
 */
import { answerQuery } from './query-kinds.js';
import type { Handler } from './types.js';

export const environments_query_create: Handler<'environments_query_create'> = ({ deps, state, body, ctx }) => answerQuery(deps, state, body, ctx);
export const query_create: Handler<'query_create'> = ({ deps, state, body, ctx }) => answerQuery(deps, state, body, ctx);
