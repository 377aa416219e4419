/**
 * A query of the query endpoint run by its kind: what the synchronous submit and an asynchronous run share.
 */
import type { ReadDb } from '../../pg/client.js';
import type { EnvironmentRow } from '../../rows.js';
import { runEventsQuery, type EventsQueryInput } from './events-query.js';
import type { QueryBounds, SessionHook } from './execute.js';
import { runHogQLQuery, type HogQLQueryInput } from './hogql-query.js';

export type QueryKindNode = ({ kind: 'HogQLQuery' } & HogQLQueryInput) | EventsQueryInput;

export function runQueryNode(reader: ReadDb, environment: EnvironmentRow, node: QueryKindNode, bounds: QueryBounds, session?: SessionHook) {
  return node.kind === 'EventsQuery'
    ? runEventsQuery(reader, environment, node, bounds, session ? { session } : {})
    : runHogQLQuery(reader, environment, node, bounds, undefined, session);
}
