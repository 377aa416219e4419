/**
 * Authentication and authorization, in the order PostHog's API applies them: who is calling (401), whether the
 * key carries the operation's scope (403), whether the organization or project the path names is theirs (404).
 * All of it runs before request validation, so a caller without access never learns what a valid body is.
 *
 * The scope an operation needs is read from the operation's security requirement in the spec, the one source
 * of truth: `security: [{PersonalAPIKeyAuth: ['organization:read']}]`.
 */
import type Koa from 'koa';
import type { Context as OperationContext } from 'openapi-backend';
import { findOrganizationAccess, findPrincipalAndEnvironment, type EnvironmentAccess } from '../../db/queries/access.js';
import { findPrincipal, type Principal } from '../../db/queries/personal-api-keys.js';
import { hashPersonalApiKey } from '../../db/tokens.js';
import { errors } from '../../db/core/errors.js';
import type { RequestBudget } from './rate-limit.js';
import type { AppDeps, RequestState } from '../types.js';

export const SECURITY_SCHEME = 'PersonalAPIKeyAuth';

/** The scope the operation's security requirement names, or null for public operations. */
export function requiredScope(operation: OperationContext['operation']): string | null {
  const requirement = operation.security?.find((entry) => SECURITY_SCHEME in entry);
  return requirement?.[SECURITY_SCHEME]?.[0] ?? null;
}

/** `*` grants everything; `<resource>:write` also grants `<resource>:read`. */
export function grantsScope(granted: readonly string[], required: string): boolean {
  if (granted.includes('*') || granted.includes(required)) return true;
  const [resource, action] = required.split(':');
  return action === 'read' && granted.includes(`${resource}:write`);
}

const BEARER = /^Bearer\s+(\S.*)$/i;

/**
 * Who is calling, and, for paths under a project, that project as they may see it (null: not visible), found
 * together in one round trip because nearly every request needs both.
 */
export interface Authentication {
  principal: Principal;
  /** Set when the path has a project_id: the project as the caller may see it, or null. */
  environment?: EnvironmentAccess | null;
}

/** The openapi-backend security handler: the caller behind the bearer key, or an ApiError 401. */
export async function authenticate(deps: AppDeps, ctx: Koa.Context, c: OperationContext): Promise<Authentication> {
  const match = BEARER.exec(ctx.get('authorization'));
  if (!match) throw errors.notAuthenticated();
  const key = match[1]!.trim();
  // Remembered answers are filed under the key's hash (as the database keeps it), never under the key.
  const keyHash = hashPersonalApiKey(key);
  const projectId = (c.request.params as Record<string, string | undefined>).project_id;
  if (projectId !== undefined) {
    // Filed under the id as a number (`01` is project 1), and only when the project was found: a caller cannot
    // fill the cache with spellings or with projects it cannot see.
    const found = await deps.access.remember(
      `project ${projectId === '@current' ? projectId : Number(projectId)} ${keyHash}`,
      () => findPrincipalAndEnvironment(deps.db, key, projectId),
      (answer) => answer.environment !== null,
    );
    if (!found) throw errors.invalidPersonalApiKey();
    return found;
  }
  const principal = await deps.access.remember(`principal ${keyHash}`, () => findPrincipal(deps.db, key));
  if (!principal) throw errors.invalidPersonalApiKey();
  return { principal };
}

/**
 * Runs after openapi-backend's security handlers and before validation: turns a failed authentication into its
 * 401, then checks the scope, the rate limit and the path's organization or project.
 */
export async function authorize(
  deps: AppDeps,
  limiter: RequestBudget,
  c: OperationContext,
  state: RequestState,
): Promise<void> {
  const scope = requiredScope(c.operation);
  if (!scope) return;
  const result = c.security?.[SECURITY_SCHEME] as Authentication | { error: unknown } | undefined;
  if (!result) throw errors.notAuthenticated();
  // A failed authentication is an ApiError (401); anything else (the database failing) must stay what it is.
  if ('error' in result) throw result.error;
  const { principal } = result;
  state.principal = principal;
  if (!grantsScope(principal.scopes, scope)) throw errors.missingScope(scope);
  const wait = await limiter.take(principal.keyId);
  if (wait > 0) throw errors.throttled(wait);

  const params = c.request.params as Record<string, string | undefined>;
  const path = c.operation.path;
  if (params.project_id !== undefined) {
    // authenticate() looked the project up with the key, from the same path parameter.
    state.environment = result.environment ?? null;
    if (!state.environment) throw errors.notFound('Project not found.');
  }
  const organizationId = path.startsWith('/api/organizations/{id}/') ? params.id : params.organization_id;
  if (organizationId !== undefined) {
    // Filed under everything it was computed from: a principal remembered from before a change of its scopes
    // (the cache emptied since) files its answer where no principal read after the change will look.
    const scopedOrganizations = principal.scopedOrganizations?.join(',') ?? '*';
    const scopedTeams = principal.scopedTeams?.join(',') ?? '*';
    state.organization = await deps.access.remember(
      `organization ${organizationId} ${principal.user.id} ${scopedOrganizations} ${scopedTeams}`,
      () => findOrganizationAccess(deps.db, principal, organizationId),
    );
    if (!state.organization) throw errors.notFound('Organization not found.');
  }
  // Creating or changing an organization reaches beyond any one project, so a key scoped to projects may only
  // read organizations (those that hold its projects), as PostHog allows it project-based endpoints alone.
  if (principal.scopedTeams && path.startsWith('/api/organizations/') && c.operation.method.toLowerCase() !== 'get') {
    throw errors.projectScopedKey();
  }
}
