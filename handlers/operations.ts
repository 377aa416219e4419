/** The operations tag of the spec: liveness, readiness and the metrics (the last served by the capture lane). */
import { isReachable } from '../db/pg/client.js';
import { databaseUnavailable } from '../db/pg/errors.js';
import { renderHostInfo, renderProcessMetrics } from './capture/metrics.js';
import { laneHandler, type Handler } from './types.js';

/**
 * The host that answered (behind a load balancer, one of several); under `npm start`'s supervisor, also which
 * worker answered and how many serve (the primary tells each one).
 */
export const health_retrieve: Handler<'health_retrieve'> = async ({ deps }) => {
  const supervisor = deps.supervisor;
  const host = deps.config.hostId;
  if (!supervisor) return { status: 200, body: { status: 'ok', host } };
  return { status: 200, body: { status: 'ok', host, worker: { ...supervisor.worker }, workers: { ...supervisor.workers } } };
};

export const readiness_retrieve: Handler<'readiness_retrieve'> = async ({ deps }) => {
  if (!(await isReachable(deps.db, deps.config.readinessTimeoutMs))) throw databaseUnavailable('The database is unreachable.');
  return { status: 200, body: { status: 'ok' } };
};

/** The host's name, then, under the supervisor, every worker's counters together (the primary gathers them). */
export const metrics_retrieve = laneHandler<'metrics_retrieve'>(async ({ capture: services, deps }) => ({
  status: 200,
  contentType: 'text/plain',
  body: renderHostInfo(deps.config.hostId) + (deps.supervisor ? await deps.supervisor.metrics() : renderProcessMetrics(services.metrics, deps.access)),
}));
