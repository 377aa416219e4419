import { isReachable } from '../db/pg/client.js';
import { databaseUnavailable } from '../db/pg/errors.js';
import type { Handler } from './types.js';

/** Under `npm start`'s supervisor, also which worker answered and how many serve (the primary tells each one). */
export const health_retrieve: Handler<'health_retrieve'> = async ({ deps }) => {
  const supervisor = deps.supervisor;
  if (!supervisor) return { status: 200, body: { status: 'ok' } };
  return { status: 200, body: { status: 'ok', worker: { ...supervisor.worker }, workers: { ...supervisor.workers } } };
};

export const readiness_retrieve: Handler<'readiness_retrieve'> = async ({ deps }) => {
  if (!(await isReachable(deps.db, deps.config.readinessTimeoutMs))) throw databaseUnavailable('The database is unreachable.');
  return { status: 200, body: { status: 'ok' } };
};
