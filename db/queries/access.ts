/**
 * What a caller may reach: the organizations they are a member of, narrowed to the key's scoped organizations
 * and environments when it has any. Anything else is reported as not found, never as forbidden, so that a key
 * cannot probe for other organizations' ids.
 */
import type { Knex } from 'knex';
import type { Db } from '../client.js';
import type { EnvironmentRow, MembershipLevel, OrganizationRow } from '../rows.js';
import type { Principal } from './personal-api-keys.js';

export interface OrganizationAccess {
  organization: OrganizationRow;
  level: MembershipLevel;
}

export interface EnvironmentAccess {
  environment: EnvironmentRow;
  level: MembershipLevel;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Narrows a query on `organizations as o` to what the principal may see. */
export function visibleOrganizations(query: Knex.QueryBuilder, principal: Principal): Knex.QueryBuilder {
  query.join('organization_memberships as m', 'm.organization_id', 'o.id').where('m.user_id', principal.user.id);
  if (principal.scopedOrganizations) query.whereIn('o.id', [...principal.scopedOrganizations]);
  return query;
}

/** Narrows a query on `environments as e` (joined to `organizations as o`) to what the principal may see. */
export function visibleEnvironments(query: Knex.QueryBuilder, principal: Principal): Knex.QueryBuilder {
  visibleOrganizations(query, principal);
  if (principal.scopedTeams) query.whereIn('e.id', [...principal.scopedTeams]);
  return query;
}

export async function findOrganizationAccess(
  db: Db,
  principal: Principal,
  organizationId: string,
): Promise<OrganizationAccess | null> {
  if (!UUID.test(organizationId)) return null;
  const row = await visibleOrganizations(db('organizations as o'), principal)
    .where('o.id', organizationId)
    .first('o.*', 'm.level as membership_level');
  if (!row) return null;
  const { membership_level, ...organization } = row as OrganizationRow & { membership_level: MembershipLevel };
  return { organization, level: membership_level };
}

/** `projectId` is an environment id, or `@current` for the user's current environment. */
export async function findEnvironmentAccess(
  db: Db,
  principal: Principal,
  projectId: string,
): Promise<EnvironmentAccess | null> {
  const id = projectId === '@current' ? principal.user.current_team_id : Number(projectId);
  if (id === null || !Number.isSafeInteger(id) || id <= 0 || id > 2 ** 31 - 1) return null;
  const query = db('environments as e').join('organizations as o', 'o.id', 'e.organization_id');
  const row = await visibleEnvironments(query, principal).where('e.id', id).first('e.*', 'm.level as membership_level');
  if (!row) return null;
  const { membership_level, ...environment } = row as EnvironmentRow & { membership_level: MembershipLevel };
  return { environment, level: membership_level };
}
