import { isReachable } from '../db/client.js';
import { databaseUnavailable } from '../db/errors.js';
import type { Handler } from './types.js';

export const health_retrieve: Handler<'health_retrieve'> = async () => ({ status: 200, body: { status: 'ok' } });

export const readiness_retrieve: Handler<'readiness_retrieve'> = async ({ deps }) => {
  if (!(await isReachable(deps.db, deps.config.readinessTimeoutMs))) throw databaseUnavailable('The database is unreachable.');
  return { status: 200, body: { status: 'ok' } };
};
