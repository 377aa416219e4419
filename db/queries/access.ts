/**
 * What a caller may reach: the organizations they are a member of, narrowed to the key's scoped organizations
 * and environments when it has any. Anything else is reported as not found, never as forbidden, so that a key
 * cannot probe for other organizations' ids.
 */
import type { Knex } from 'knex';
import type { Db } from '../pg/client.js';
import type { EnvironmentRow, MembershipLevel, OrganizationRow, PersonalApiKeyRow, UserRow } from '../rows.js';
import { runPrepared, type PreparedStatement } from '../pg/prepared.js';
import { principalOf, type Principal } from './personal-api-keys.js';
import { hashPersonalApiKey } from '../tokens.js';
import { UUID_PATTERN } from '../core/text.js';

export interface OrganizationAccess {
  organization: OrganizationRow;
  level: MembershipLevel;
}

export interface EnvironmentAccess {
  environment: EnvironmentRow;
  level: MembershipLevel;
}


/**
 * Narrows a query on `organizations as o` to what the principal may see: with scoped projects, only the
 * organizations that hold one of them.
 */
export function visibleOrganizations(query: Knex.QueryBuilder, principal: Principal): Knex.QueryBuilder {
  query.join('organization_memberships as m', 'm.organization_id', 'o.id').where('m.user_id', principal.user.id);
  if (principal.scopedOrganizations) query.whereIn('o.id', [...principal.scopedOrganizations]);
  if (principal.scopedTeams) query.whereExists(holdsScopedEnvironment('organization_id', 'o.id', principal.scopedTeams));
  return query;
}

/**
 * The condition (for whereExists) that the organization or project `outer` names holds one of the key's scoped
 * environments `teams`.
 */
export function holdsScopedEnvironment(
  column: 'organization_id' | 'project_id',
  outer: string,
  teams: readonly number[],
): (query: Knex.QueryBuilder) => void {
  return (holds) => {
    holds.select('scoped.id').from('environments as scoped').whereRaw('?? = ??', [`scoped.${column}`, outer]).whereIn('scoped.id', [...teams]);
  };
}

/** Narrows a query on `environments as e` (joined to `organizations as o`) to what the principal may see. */
export function visibleEnvironments(query: Knex.QueryBuilder, principal: Principal): Knex.QueryBuilder {
  visibleOrganizations(query, principal);
  if (principal.scopedTeams) query.whereIn('e.id', [...principal.scopedTeams]);
  return query;
}

/**
 * The organization, when the principal is a member and the key's scoped organizations (if any) include it, and
 * its scoped projects (if any) include one of the organization's (visibleOrganizations).
 * Prepared (db/pg/prepared.ts): every request under /api/organizations/{id}/ runs it.
 */
const FIND_ORGANIZATION_ACCESS: PreparedStatement = {
  name: 'hedgerow_find_organization_access',
  text: `select row_to_json(o.*) as organization, m.level
    from organizations o join organization_memberships m on m.organization_id = o.id
    where o.id = $1 and m.user_id = $2 and ($3::uuid[] is null or o.id = any($3::uuid[]))
      and ($4::int[] is null or exists (select 1 from environments scoped where scoped.organization_id = o.id and scoped.id = any($4::int[])))`,
};

export async function findOrganizationAccess(
  db: Db,
  principal: Principal,
  organizationId: string,
): Promise<OrganizationAccess | null> {
  if (!UUID_PATTERN.test(organizationId)) return null;
  const [row] = await runPrepared<{ organization: OrganizationRow; level: MembershipLevel }>(db, FIND_ORGANIZATION_ACCESS, [
    organizationId,
    principal.user.id,
    principal.scopedOrganizations,
    principal.scopedTeams ? [...principal.scopedTeams] : null,
  ]);
  if (!row) return null;
  return { organization: withDates(row.organization, ['created_at', 'updated_at']), level: row.level };
}

/**
 * Who is calling and, in the same round trip, the environment the path names: the user must be a member of its
 * organization, and the key's scoped organizations and teams (if any) must include it. Every request under
 * /api/projects/{project_id}/ needs both, so they are one statement.
 */
const FIND_PRINCIPAL_AND_ENVIRONMENT: PreparedStatement = {
  name: 'hedgerow_find_principal_and_environment',
  text: `select row_to_json(k.*) as key, row_to_json(u.*) as user, access.environment, access.level
    from personal_api_keys k join users u on u.id = k.user_id
    left join lateral (
      select row_to_json(e.*) as environment, m.level
      from environments e join organization_memberships m on m.organization_id = e.organization_id
      where e.id = coalesce($2::int, u.current_team_id) and m.user_id = u.id
        and (k.scoped_organizations is null or e.organization_id = any(k.scoped_organizations))
        and (k.scoped_teams is null or e.id = any(k.scoped_teams))
    ) access on true
    where k.secure_value = $1 and u.is_active`,
};

/** The environment id a `project_id` names: a number, `@current` (null here: the user's own), or nothing valid. */
function environmentIdOf(projectId: string): number | null | undefined {
  if (projectId === '@current') return null;
  const id = Number(projectId);
  return Number.isSafeInteger(id) && id > 0 && id <= 2 ** 31 - 1 ? id : undefined;
}

/** The principal behind a presented key, or null; with the environment `projectId` names, if they may see it. */
export async function findPrincipalAndEnvironment(
  db: Db,
  presentedKey: string,
  projectId: string,
): Promise<{ principal: Principal; environment: EnvironmentAccess | null } | null> {
  const id = environmentIdOf(projectId);
  const [row] = await runPrepared<{
    key: PersonalApiKeyRow;
    user: UserRow;
    environment: EnvironmentRow | null;
    level: MembershipLevel | null;
  }>(db, FIND_PRINCIPAL_AND_ENVIRONMENT, [hashPersonalApiKey(presentedKey), id === undefined ? -1 : id]);
  if (!row) return null;
  const principal = await principalOf(db, row.key, row.user);
  const environment =
    id !== undefined && row.environment && row.level !== null
      ? { environment: withDates(row.environment, ['created_at', 'updated_at']), level: row.level }
      : null;
  return { principal, environment };
}

/** row_to_json gives timestamps as text; the rows elsewhere carry them as Dates (as pg reads the columns). */
function withDates<T extends object>(row: T, columns: readonly (keyof T)[]): T {
  const copy = { ...row };
  for (const column of columns) {
    const value = copy[column];
    if (typeof value === 'string') copy[column] = new Date(value) as T[keyof T];
  }
  return copy;
}
