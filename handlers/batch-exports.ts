/**
 * Batch exports, at organization level (/api/organizations/{organization_id}/batch_exports/) and at environment
 * level (/api/environments/{project_id}/batch_exports/, which alone has backfills and runs). The API only
 * writes rows and wakes the engine; the engine (handlers/jobs/) schedules and runs from them.
 */
import type { Db } from '../db/pg/client.js';
import { errors } from '../db/core/errors.js';
import {
  alignToInterval,
  cancelBackfill,
  cancelRun,
  createBackfill,
  createExport,
  currentEnvironmentIn,
  deleteExport,
  earliestData,
  environmentIdsOf,
  findBackfill,
  findExport,
  findRun,
  latestRuns,
  listBackfillsPage,
  listExports,
  listRunsPage,
  pauseExport,
  unpauseExport,
  updateExport,
  type ExportChanges,
  type ExportScope,
  type RunsBound,
  type RunsOrderColumn,
} from '../db/queries/batch-exports/exports.js';
import { FINAL_STATUSES, type BatchExportRow, type RunStatus } from '../db/queries/batch-exports/rows.js';
import { presentBackfill, presentExport, presentRun } from './batch-exports/shape.js';
import {
  adjustedBackfillStart,
  checkBackfillWindow,
  checkDestinationAddresses,
  describeHogqlQuery,
  intervalOffset,
  offsetsOf,
  parseBackfillBound,
  validateDestination,
  validateFilters,
  validateTimezone,
} from './batch-exports/validation.js';
import type { AddressPolicy } from '../db/destinations/address-policy.js';
import type { components } from '../generated/api.js';
import { DEFAULT_PAGE_SIZE } from '../db/pagination.js';
import { cursorLinks, decodeCursor, pageEdges, pageLinks, pageOf } from './pagination.js';
import { environmentOf, organizationOf, principalOf, type Handler, type RequestState } from './types.js';

type CreateBody = components['schemas']['BatchExportCreate'];
type PatchBody = components['schemas']['PatchedBatchExport'];
type BackfillBody = components['schemas']['BatchExportBackfillRequest'];

const organizationScope = (state: RequestState): ExportScope => ({
  organizationId: organizationOf(state).organization.id,
  teamIds: principalOf(state).scopedTeams,
});
const environmentScope = (state: RequestState): ExportScope => ({ teamId: environmentOf(state).environment.id });

async function visibleExport(db: Db, scope: ExportScope, id: string): Promise<BatchExportRow> {
  const row = await findExport(db, scope, id);
  if (!row) throw errors.notFound();
  return row;
}

async function answerExport(db: Db, row: BatchExportRow) {
  const runs = await latestRuns(db, [row]);
  return presentExport(row, runs.get(row.id) ?? []);
}

async function list(db: Db, scope: ExportScope, query: { limit?: number; offset?: number }, ctx: Parameters<typeof pageLinks>[0]) {
  const page = pageOf(query);
  const { rows, count } = await listExports(db, scope, page);
  const runs = await latestRuns(db, rows);
  const results = rows.map((row) => presentExport(row, runs.get(row.id) ?? []));
  return { status: 200 as const, body: { count, ...pageLinks(ctx, page, count), results } };
}

async function create(db: Db, addresses: AddressPolicy, teamId: number, userId: number, body: CreateBody) {
  const model = body.model ?? 'events';
  const destination = validateDestination(body.destination, model);
  await checkDestinationAddresses(destination, addresses);
  const timezone = body.timezone === undefined ? 'UTC' : validateTimezone(body.timezone);
  const row = await createExport(db, {
    team_id: teamId,
    name: body.name,
    model,
    destination_type: destination.type,
    destination_config: destination.config,
    interval: body.interval,
    interval_offset: intervalOffset(body.interval, body),
    timezone,
    paused: body.paused ?? false,
    last_paused_at: body.last_paused_at ? new Date(body.last_paused_at) : body.paused ? new Date() : null,
    start_at: body.start_at ? new Date(body.start_at) : null,
    end_at: body.end_at ? new Date(body.end_at) : null,
    hogql_query: body.hogql_query ? body.hogql_query : null,
    schema: describeHogqlQuery(body.hogql_query),
    filters: validateFilters(body.filters),
    created_by: userId,
  });
  return { status: 201 as const, body: await answerExport(db, row) };
}

async function update(db: Db, addresses: AddressPolicy, row: BatchExportRow, body: PatchBody) {
  const model = body.model ?? row.model;
  const interval = body.interval ?? row.interval;
  const changes: ExportChanges = { name: body.name, model: body.model, interval: body.interval };
  if (body.destination !== undefined || body.model !== undefined) {
    const destination = validateDestination(body.destination ?? { type: row.destination_type, config: {} }, model, {
      type: row.destination_type,
      config: row.destination_config,
    });
    if (body.destination !== undefined) await checkDestinationAddresses(destination, addresses);
    changes.destination_type = destination.type;
    changes.destination_config = destination.config;
  }
  if (body.timezone !== undefined) changes.timezone = validateTimezone(body.timezone);
  const stored = offsetsOf(row.interval, row.interval_offset);
  changes.interval_offset = intervalOffset(interval, body, { day: stored.offset_day, hour: stored.offset_hour });
  if (body.paused !== undefined && body.paused !== row.paused) {
    changes.paused = body.paused;
    if (body.paused) changes.last_paused_at = new Date();
  }
  if (body.last_paused_at !== undefined) changes.last_paused_at = body.last_paused_at ? new Date(body.last_paused_at) : null;
  if (body.start_at !== undefined) changes.start_at = body.start_at ? new Date(body.start_at) : null;
  if (body.end_at !== undefined) changes.end_at = body.end_at ? new Date(body.end_at) : null;
  if (body.hogql_query !== undefined) {
    changes.schema = describeHogqlQuery(body.hogql_query);
    changes.hogql_query = body.hogql_query ? body.hogql_query : null;
  }
  if ('filters' in body) changes.filters = validateFilters(body.filters);
  const defined = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as ExportChanges;
  const updated = await updateExport(db, row, defined);
  return { status: 200 as const, body: await answerExport(db, updated) };
}

/** Validates the window in PostHog's order, then inserts a `Starting` backfill for the engine. */
async function backfill(db: Db, row: BatchExportRow, body: BackfillBody | undefined) {
  const window = { start: parseBackfillBound(body?.start_at), end: parseBackfillBound(body?.end_at) };
  checkBackfillWindow(window, row.interval, new Date());
  const at = await earliestData(db, row);
  const earliest = at ? { at, aligned: await alignToInterval(db, row, at) } : null;
  const adjustedStart = adjustedBackfillStart(window, earliest, row.destination_type);
  const backfillId = await createBackfill(db, row, { ...window, adjustedStart });
  return { status: 200 as const, body: { backfill_id: backfillId } };
}

/**
 * Whether an unpause asks for a backfill. Its body is optional, which the generated types render as `never`;
 * what arrives has been validated against BatchExportUnpauseRequest.
 */
const wantsBackfill = (body: unknown): boolean => (body as { backfill?: unknown } | undefined)?.backfill === true;

// ---------------------------------------------------------------------------------------------------------------
// organization level

export const batch_exports_list: Handler<'batch_exports_list'> = async ({ query, state, deps, ctx }) =>
  list(deps.db, organizationScope(state), query, ctx);

/**
 * An export created at organization level belongs to one environment: `team_id` when the body names one (an
 * extension of ours), else the caller's current environment as PostHog takes it. PostHog would take the current
 * environment even from another organization; here that, or having none, falls back to the organization's only
 * environment, and asks for `team_id` when it has several.
 */
async function organizationTarget(db: Db, organizationId: string, userId: number, teamId: number | undefined): Promise<number> {
  const environments = await environmentIdsOf(db, organizationId);
  if (teamId !== undefined) {
    if (!environments.includes(teamId)) {
      throw errors.validation(`Environment ${teamId} is not an environment of this organization.`, 'team_id');
    }
    return teamId;
  }
  const current = await currentEnvironmentIn(db, userId, organizationId);
  if (current !== null) return current;
  if (environments.length === 1) return environments[0]!;
  throw errors.validation(
    "Your current project is not in this organization, which has several: give 'team_id', the environment the export belongs to.",
    'team_id',
    'required',
  );
}

export const batch_exports_create: Handler<'batch_exports_create'> = async ({ body, state, deps }) => {
  const userId = principalOf(state).user.id;
  const teamId = await organizationTarget(deps.db, organizationOf(state).organization.id, userId, body.team_id);
  return create(deps.db, deps.destinationAddresses, teamId, userId, body);
};

export const batch_exports_retrieve: Handler<'batch_exports_retrieve'> = async ({ params, state, deps }) => ({
  status: 200,
  body: await answerExport(deps.db, await visibleExport(deps.db, organizationScope(state), params.id)),
});

export const batch_exports_partial_update: Handler<'batch_exports_partial_update'> = async ({ params, body, state, deps }) =>
  update(deps.db, deps.destinationAddresses, await visibleExport(deps.db, organizationScope(state), params.id), body);

export const batch_exports_destroy: Handler<'batch_exports_destroy'> = async ({ params, state, deps }) => {
  const row = await visibleExport(deps.db, organizationScope(state), params.id);
  await deleteExport(deps.db, row);
  return { status: 204 };
};

export const batch_exports_backfill_create: Handler<'batch_exports_backfill_create'> = async ({ params, body, state, deps }) =>
  backfill(deps.db, await visibleExport(deps.db, organizationScope(state), params.id), body);

export const batch_exports_pause_create: Handler<'batch_exports_pause_create'> = async ({ params, state, deps }) => {
  const row = await visibleExport(deps.db, organizationScope(state), params.id);
  await pauseExport(deps.db, row);
  return { status: 200, body: { paused: true } };
};

export const batch_exports_unpause_create: Handler<'batch_exports_unpause_create'> = async ({ params, body, state, deps }) => {
  const row = await visibleExport(deps.db, organizationScope(state), params.id);
  await unpauseExport(deps.db, row, wantsBackfill(body));
  return { status: 200, body: { paused: false } };
};

// ---------------------------------------------------------------------------------------------------------------
// environment level

export const environments_batch_exports_list: Handler<'environments_batch_exports_list'> = async ({ query, state, deps, ctx }) =>
  list(deps.db, environmentScope(state), query, ctx);

export const environments_batch_exports_create: Handler<'environments_batch_exports_create'> = async ({ body, state, deps }) =>
  create(deps.db, deps.destinationAddresses, environmentOf(state).environment.id, principalOf(state).user.id, body);

export const environments_batch_exports_retrieve: Handler<'environments_batch_exports_retrieve'> = async ({ params, state, deps }) => ({
  status: 200,
  body: await answerExport(deps.db, await visibleExport(deps.db, environmentScope(state), params.id)),
});

export const environments_batch_exports_partial_update: Handler<'environments_batch_exports_partial_update'> = async ({
  params,
  body,
  state,
  deps,
}) => update(deps.db, deps.destinationAddresses, await visibleExport(deps.db, environmentScope(state), params.id), body);

export const environments_batch_exports_destroy: Handler<'environments_batch_exports_destroy'> = async ({ params, state, deps }) => {
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  await deleteExport(deps.db, row);
  return { status: 204 };
};

export const environments_batch_exports_backfill_create: Handler<'environments_batch_exports_backfill_create'> = async ({
  params,
  body,
  state,
  deps,
}) => backfill(deps.db, await visibleExport(deps.db, environmentScope(state), params.id), body);

export const environments_batch_exports_pause_create: Handler<'environments_batch_exports_pause_create'> = async ({
  params,
  state,
  deps,
}) => {
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  await pauseExport(deps.db, row);
  return { status: 200, body: { paused: true } };
};

export const environments_batch_exports_unpause_create: Handler<'environments_batch_exports_unpause_create'> = async ({
  params,
  body,
  state,
  deps,
}) => {
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  await unpauseExport(deps.db, row, wantsBackfill(body));
  return { status: 200, body: { paused: false } };
};

export const environments_batch_exports_backfills_list: Handler<'environments_batch_exports_backfills_list'> = async ({
  params,
  query,
  state,
  deps,
  ctx,
}) => {
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  const position = decodeCursor(query.cursor);
  const { rows, more } = await listBackfillsPage(deps.db, row, { position, limit: query.limit ?? DEFAULT_PAGE_SIZE });
  const results = rows.map((backfillRow) => presentBackfill(backfillRow, row.interval));
  return { status: 200, body: { ...cursorLinks(ctx, pageEdges(rows), position, more), results } };
};

export const environments_batch_exports_backfills_create: Handler<'environments_batch_exports_backfills_create'> = async ({
  params,
  body,
  state,
  deps,
}) => backfill(deps.db, await visibleExport(deps.db, environmentScope(state), params.id), body);

export const environments_batch_exports_backfills_retrieve: Handler<'environments_batch_exports_backfills_retrieve'> = async ({
  params,
  state,
  deps,
}) => {
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  const found = await findBackfill(deps.db, row, params.backfill_id);
  if (!found) throw errors.notFound();
  return { status: 200, body: presentBackfill(found, row.interval) };
};

export const environments_batch_exports_backfills_cancel_create: Handler<
  'environments_batch_exports_backfills_cancel_create'
> = async ({ params, state, deps }) => {
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  const found = await findBackfill(deps.db, row, params.backfill_id);
  if (!found) throw errors.notFound();
  if (FINAL_STATUSES.includes(found.status)) {
    throw errors.validation(`Cannot cancel a backfill that is in '${found.status}' status`);
  }
  await cancelBackfill(deps.db, found);
  return { status: 200, body: { cancelled: true } };
};

const ISO_MOMENT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/;
const RELATIVE_MOMENT = /^-?(\d{1,6})([hdwmqyMs])$/;
/** Each relative unit: how many of PostgreSQL's interval units it is, and at most how many days one spans. */
const RELATIVE_UNITS: Record<string, [number, string, number]> = {
  h: [1, 'hours', 1 / 24],
  d: [1, 'days', 1],
  w: [1, 'weeks', 7],
  m: [1, 'months', 31],
  q: [13, 'weeks', 91],
  y: [1, 'years', 366],
  M: [1, 'minutes', 1 / 1440],
  s: [1, 'seconds', 1 / 86400],
};
/** A span reaching further back would leave the dates PostgreSQL keeps; no run is that old anyway. */
const MAX_RELATIVE_DAYS = 36_600;

/**
 * A runs listing's `after`/`before` as PostHog's relative_date_parse reads them: an ISO datetime (in the
 * environment's time zone when it names no offset) or a span before now such as `-7d`, `-12h`, `-1m`. Anything
 * else is a 400 here, where PostHog would quietly take now.
 */
function runsBound(value: string, timezone: string, name: 'after' | 'before' | 'start' | 'end'): RunsBound {
  const iso = ISO_MOMENT.exec(value);
  if (iso) {
    const [, year, month, day, hour = '0', minute = '0', second = '0', offset] = iso;
    const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
    const validDay = Number(year) >= 1 && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
    const validTime = Number(hour) < 24 && Number(minute) < 60 && Number(second) < 60;
    const validOffset = !offset || offset === 'Z' || Number(offset.slice(1, 3)) <= 15;
    if (validDay && validTime && validOffset) {
      return offset ? { kind: 'instant', at: value } : { kind: 'local', at: value, timezone };
    }
  }
  const relative = RELATIVE_MOMENT.exec(value);
  if (relative) {
    const [factor, unit, days] = RELATIVE_UNITS[relative[2]!]!;
    const count = Number(relative[1]);
    if (count * days > MAX_RELATIVE_DAYS) throw errors.validation(`Input ${value} reaches back more than 100 years.`, name);
    return { kind: 'ago', interval: `${count * factor} ${unit}` };
  }
  throw errors.validation(`Input ${value} is not a valid ISO formatted datetime or relative date (such as -7d).`, name);
}

/** PostHog's ordering values for runs; any other is ignored, as DRF's OrderingFilter ignores it. */
const RUN_ORDERINGS: Record<string, { orderBy: RunsOrderColumn; descending: boolean }> = {
  created_at: { orderBy: 'created_at', descending: false },
  '-created_at': { orderBy: 'created_at', descending: true },
  data_interval_start: { orderBy: 'data_interval_start', descending: false },
  '-data_interval_start': { orderBy: 'data_interval_start', descending: true },
};

/**
 * Runs page by cursor as PostHog's RunsCursorPagination, newest first by created_at unless `ordering` says
 * otherwise, within PostHog's window: created between `after` (a week ago unless given) and `before` (now), or,
 * ordered by data interval, with an interval from `start` (a week ago) to `end` (now); `status` keeps those in
 * the statuses named.
 */
export const environments_batch_exports_runs_list: Handler<'environments_batch_exports_runs_list'> = async ({
  params,
  query,
  state,
  deps,
  ctx,
}) => {
  const { timezone } = environmentOf(state).environment;
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  const position = decodeCursor(query.cursor);
  const ordering = RUN_ORDERINGS[query.ordering ?? ''] ?? RUN_ORDERINGS['-created_at']!;
  const [from, to] = ordering.orderBy === 'created_at' ? (['after', 'before'] as const) : (['start', 'end'] as const);
  const fromValue = query[from];
  const toValue = query[to];
  const after = fromValue ? runsBound(fromValue, timezone, from) : { kind: 'ago' as const, interval: '7 days' };
  const before = toValue ? runsBound(toValue, timezone, to) : null;
  const statuses = query.status === undefined ? null : ([] as RunStatus[]).concat(query.status);
  const { rows, more } = await listRunsPage(deps.db, row, {
    ...ordering,
    after,
    before,
    statuses: statuses && statuses.length > 0 ? statuses : null,
    position,
    limit: query.limit ?? DEFAULT_PAGE_SIZE,
  });
  return { status: 200, body: { ...cursorLinks(ctx, pageEdges(rows), position, more), results: rows.map(presentRun) } };
};

export const environments_batch_exports_runs_retrieve: Handler<'environments_batch_exports_runs_retrieve'> = async ({
  params,
  state,
  deps,
}) => {
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  const run = await findRun(deps.db, row, params.run_id);
  if (!run) throw errors.notFound();
  return { status: 200, body: presentRun(run) };
};

export const environments_batch_exports_runs_cancel_create: Handler<'environments_batch_exports_runs_cancel_create'> = async ({
  params,
  state,
  deps,
}) => {
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  const run = await findRun(deps.db, row, params.run_id);
  if (!run) throw errors.notFound();
  const outcome = await cancelRun(deps.db, run);
  if (!outcome.cancelled) throw errors.validation(`Cannot cancel a run that is in '${outcome.status}' status`);
  return { status: 200, body: { cancelled: true } };
};

/** A retry is a backfill of exactly the run's interval. */
export const environments_batch_exports_runs_retry_create: Handler<'environments_batch_exports_runs_retry_create'> = async ({
  params,
  state,
  deps,
}) => {
  const row = await visibleExport(deps.db, environmentScope(state), params.id);
  const run = await findRun(deps.db, row, params.run_id);
  if (!run) throw errors.notFound();
  const backfillId = await createBackfill(deps.db, row, {
    start: run.data_interval_start,
    end: run.data_interval_end,
    adjustedStart: run.data_interval_start,
  });
  return { status: 200, body: { backfill_id: backfillId } };
};
