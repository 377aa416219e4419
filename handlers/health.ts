import { isReachable } from '../db/client.js';
import { errors } from './errors.js';
import type { Handler } from './types.js';

export const health_retrieve: Handler<'health_retrieve'> = async () => ({ status: 200, body: { status: 'ok' } });

export const readiness_retrieve: Handler<'readiness_retrieve'> = async ({ deps }) => {
  if (!(await isReachable(deps.db))) throw errors.unavailable('The database is unreachable.');
  return { status: 200, body: { status: 'ok' } };
};
