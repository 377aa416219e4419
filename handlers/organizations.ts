import {
  createOrganization,
  deleteOrganization,
  environmentIdsOf,
  getOrganization,
  listOrganizations,
  rollbackEnvironments,
  updateOrganization,
} from '../db/queries/organizations.js';
import { MembershipLevel } from '../db/rows.js';
import { errors } from '../db/core/errors.js';
import { pageLinks, pageOf } from './pagination.js';
import { organizationOf, principalOf, type Handler, type RequestState } from './types.js';

function requireLevel(state: RequestState, level: MembershipLevel): void {
  if (organizationOf(state).level < level) throw errors.insufficientLevel();
}

export const organizations_list: Handler<'organizations_list'> = async ({ query, state, deps, ctx }) => {
  const page = pageOf(query);
  const { results, count } = await listOrganizations(deps.db, principalOf(state), page, deps.config);
  return { status: 200, body: { count, ...pageLinks(ctx, page, count), results } };
};

export const organizations_create: Handler<'organizations_create'> = async ({ body, state, deps }) => ({
  status: 201,
  body: await createOrganization(deps.db, principalOf(state), body, deps.config),
});

export const organizations_retrieve: Handler<'organizations_retrieve'> = async ({ state, deps }) => ({
  status: 200,
  body: await getOrganization(deps.db, principalOf(state), organizationOf(state), deps.config),
});

export const organizations_partial_update: Handler<'organizations_partial_update'> = async ({ body, state, deps }) => {
  requireLevel(state, MembershipLevel.admin);
  return {
    status: 200,
    body: await updateOrganization(deps.db, principalOf(state), organizationOf(state), body, deps.config),
  };
};

export const organizations_destroy: Handler<'organizations_destroy'> = async ({ state, deps }) => {
  requireLevel(state, MembershipLevel.owner);
  await deleteOrganization(deps.db, organizationOf(state).organization.id);
  return { status: 204 };
};

/** The largest environment id (a PostgreSQL integer). */
const MAX_ENVIRONMENT_ID = 2 ** 31 - 1;

/** An environment id written as digits (as a key, or a number or text value), or null. */
function environmentIdOf(value: number | string): number | null {
  const id = typeof value === 'number' ? value : /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id >= 1 ? id : null;
}

/**
 * Reads `{"<source id>": <target id>}` into a map, refusing what cannot be environment ids. An id beyond the
 * largest an environment can have is kept: it is reported as not found, as any other unknown id.
 */
function parseMapping(body: Record<string, number | string>): Map<number, number> {
  const mapping = new Map<number, number>();
  for (const [source, target] of Object.entries(body)) {
    const from = environmentIdOf(source);
    const to = environmentIdOf(target);
    if (from === null || to === null) {
      throw errors.validation(`Environment ids must be positive integers, got "${source}": "${target}".`);
    }
    mapping.set(from, to);
  }
  if (mapping.size === 0) throw errors.validation('Environment mappings are required');
  return mapping;
}

export const organizations_environments_rollback_create: Handler<'organizations_environments_rollback_create'> = async ({
  body,
  state,
  deps,
}) => {
  requireLevel(state, MembershipLevel.admin);
  const access = organizationOf(state);
  const mapping = parseMapping(body);
  const ids = [...new Set([...mapping.keys(), ...mapping.values()])];
  const known = await environmentIdsOf(deps.db, access.organization.id, ids.filter((id) => id <= MAX_ENVIRONMENT_ID));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) throw errors.environmentsNotFound(missing);
  for (const [source, target] of mapping) {
    if (source !== target && mapping.has(target) && mapping.get(target) !== target) {
      throw errors.validation(`Environment ${target} cannot be both a target and a source that moves elsewhere.`);
    }
  }
  await rollbackEnvironments(deps.db, access.organization.id, mapping);
  return { status: 200, body: await getOrganization(deps.db, principalOf(state), access, deps.config) };
};
