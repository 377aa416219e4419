/** Organizations: the API resource, creation with its first project, updates, deletion, environment rollback. */
import type { Knex } from 'knex';
import type { components } from '../../generated/api.js';
import { errors } from '../core/errors.js';
import type { Db } from '../pg/client.js';
import { translated } from '../pg/errors.js';
import { DISTRIBUTION_COLUMN, TENANT_TABLES } from '../pg/distribution.js';
import { paginate, type Page } from '../pagination.js';
import { MembershipLevel, type EnvironmentRow, type OrganizationRow, type ProjectRow } from '../rows.js';
import { holdsScopedEnvironment, visibleOrganizations, type OrganizationAccess } from './access.js';
import { changingAccess, notifyAccessChange } from './access-changes.js';
import type { Principal } from './personal-api-keys.js';
import { setMembership } from './memberships.js';
import { createProject, toProjectBasic, toTeamBasic } from './projects.js';
import { setCurrentTeam } from './users.js';

export type Organization = components['schemas']['Organization'];
export type OrganizationCreate = components['schemas']['OrganizationCreate'];
export type PatchedOrganization = components['schemas']['PatchedOrganization'];

/** Facts about this Hedgerow instance that organizations report. */
export interface InstanceInfo {
  instanceTag: string;
}

const WRITABLE_FIELDS = [
  'name',
  'logo_media_id',
  'is_member_join_email_enabled',
  'enforce_2fa',
  'members_can_invite',
  'is_ai_data_processing_approved',
  'default_experiment_stats_method',
] as const satisfies readonly (keyof PatchedOrganization)[];

function writableFields(input: PatchedOrganization): Partial<OrganizationRow> {
  const fields: Record<string, unknown> = {};
  for (const field of WRITABLE_FIELDS) if (input[field] !== undefined) fields[field] = input[field];
  return fields as Partial<OrganizationRow>;
}

/** Turns rows into API organizations, loading their environments, projects and member counts in bulk. */
async function toOrganizations(
  db: Db,
  principal: Principal,
  rows: (OrganizationRow & { membership_level: MembershipLevel })[],
  instance: InstanceInfo,
): Promise<Organization[]> {
  const ids = rows.map((row) => row.id);
  const environmentsQuery = db<EnvironmentRow>('environments').whereIn('organization_id', ids).orderBy('id');
  const projectsQuery = db<ProjectRow>('projects').whereIn('organization_id', ids).orderBy('id');
  const teams = principal.scopedTeams;
  if (teams) {
    // A key scoped to projects sees those, and no other project of the organization.
    environmentsQuery.whereIn('id', [...teams]);
    projectsQuery.whereExists(holdsScopedEnvironment('project_id', 'projects.id', teams));
  }
  const [environments, projects, members] = await Promise.all([
    environmentsQuery,
    projectsQuery,
    db('organization_memberships as m')
      .join('users as u', 'u.id', 'm.user_id')
      .whereIn('m.organization_id', ids)
      .andWhere('u.is_active', true)
      .groupBy('m.organization_id')
      .select<{ organization_id: string; count: string }[]>('m.organization_id', db.raw('count(*) as count')),
  ]);
  const metadata = JSON.stringify({ instance_tag: instance.instanceTag });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    logo_media_id: row.logo_media_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    membership_level: row.membership_level,
    plugins_access_level: row.plugins_access_level as Organization['plugins_access_level'],
    teams: environments.filter((env) => env.organization_id === row.id).map(toTeamBasic),
    projects: projects.filter((project) => project.organization_id === row.id).map(toProjectBasic),
    available_product_features: row.available_product_features,
    is_member_join_email_enabled: row.is_member_join_email_enabled,
    metadata,
    customer_id: row.customer_id,
    enforce_2fa: row.enforce_2fa,
    members_can_invite: row.members_can_invite,
    member_count: String(members.find((m) => m.organization_id === row.id)?.count ?? 0),
    is_ai_data_processing_approved: row.is_ai_data_processing_approved,
    default_experiment_stats_method: row.default_experiment_stats_method,
  }));
}

/** The organizations the principal is a member of (within the key's scope), oldest first. */
export async function listOrganizations(
  db: Db,
  principal: Principal,
  page: Page,
  instance: InstanceInfo,
): Promise<{ results: Organization[]; count: number }> {
  const query = visibleOrganizations(db('organizations as o'), principal)
    .orderBy([{ column: 'o.created_at' }, { column: 'o.id' }])
    .select('o.*', 'm.level as membership_level');
  const { rows, count } = await paginate<OrganizationRow & { membership_level: MembershipLevel }>(query, page);
  return { results: await toOrganizations(db, principal, rows, instance), count };
}

export async function getOrganization(
  db: Db,
  principal: Principal,
  access: OrganizationAccess,
  instance: InstanceInfo,
): Promise<Organization> {
  const [organization] = await toOrganizations(
    db,
    principal,
    [{ ...access.organization, membership_level: access.level }],
    instance,
  );
  return organization!;
}

/** Django's slugify: ASCII letters, digits, `_` and `-`; runs of spaces and dashes become one dash. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[^\x00-\x7f]/g, '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/[-\s]+/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '');
}

const SLUG_MAX = 48;

function slugCandidates(name: string): string[] {
  const base = (slugify(name) || 'organization').slice(0, SLUG_MAX);
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const suffix = () => Array.from({ length: 4 }, () => letters[Math.floor(Math.random() * 26)]).join('');
  return [base, ...Array.from({ length: 10 }, () => `${base.slice(0, SLUG_MAX - 5)}-${suffix()}`)];
}

/**
 * Inserts an organization owned by `userId`, with one project and environment, and makes it the user's current
 * one, as PostHog's organization bootstrap does. The slug comes from the name; on a clash a random suffix is
 * tried, up to ten times.
 */
export async function insertOrganizationWithOwner(
  trx: Knex.Transaction,
  userId: number,
  input: OrganizationCreate,
  projectName = 'Default project',
): Promise<{ organization: OrganizationRow; environment: EnvironmentRow }> {
  let organization: OrganizationRow | undefined;
  for (const slug of slugCandidates(input.name)) {
    [organization] = await trx<OrganizationRow>('organizations')
      .insert({ ...writableFields(input), slug })
      .onConflict('slug')
      .ignore()
      .returning('*');
    if (organization) break;
  }
  if (!organization) throw errors.conflict('Could not find a free slug for this name; choose another name.', 'name');
  await notifyAccessChange(trx, 'organizations');
  await setMembership(trx, organization.id, userId, MembershipLevel.owner);
  const { environment } = await createProject(trx, organization.id, projectName);
  await setCurrentTeam(trx, userId, organization.id, environment.id);
  return { organization, environment };
}

export async function createOrganization(
  db: Db,
  principal: Principal,
  input: OrganizationCreate,
  instance: InstanceInfo,
): Promise<Organization> {
  const { organization } = await translated(() =>
    db.transaction((trx) => insertOrganizationWithOwner(trx, principal.user.id, input)),
  );
  return getOrganization(db, principal, { organization, level: MembershipLevel.owner }, instance);
}

export async function updateOrganization(
  db: Db,
  principal: Principal,
  access: OrganizationAccess,
  input: PatchedOrganization,
  instance: InstanceInfo,
): Promise<Organization> {
  const fields = writableFields(input);
  // The access cache keeps the organization's row, which the organization's own paths answer from.
  const [row] = await translated(() =>
    changingAccess(db, 'organizations', (trx) =>
      trx<OrganizationRow>('organizations')
        .where({ id: access.organization.id })
        .update({ ...fields, updated_at: trx.fn.now() as unknown as Date })
        .returning('*'),
    ),
  );
  return getOrganization(db, principal, { organization: row!, level: access.level }, instance);
}

/**
 * Deletes the organization; its projects, environments, memberships and their data go with it (cascade), and so
 * do its environments' events, which no foreign key ties to them (see deleteEnvironmentEvents).
 */
export async function deleteOrganization(db: Db, organizationId: string): Promise<void> {
  await translated(() =>
    changingAccess(db, 'organizations', async (trx) => {
      const environmentIds: number[] = await trx('environments').where({ organization_id: organizationId }).orderBy('id').forUpdate().pluck('id');
      await deleteEnvironmentEvents(trx, environmentIds);
      await trx('organizations').where({ id: organizationId }).delete();
    }),
  );
}

/** Deletes the environments and their events, in the caller's transaction; the rest of their data goes with them (cascade). */
export async function deleteEnvironments(trx: Knex.Transaction, environmentIds: readonly number[]): Promise<void> {
  const locked: number[] = await trx('environments').whereIn('id', environmentIds).orderBy('id').forUpdate().pluck('id');
  await deleteEnvironmentEvents(trx, locked);
  await trx('environments').whereIn('id', locked).delete();
}

/**
 * Events have no foreign key to their environment (capture checks it once per batch instead, see the
 * check_event_environments_per_batch migration), so whatever deletes an environment deletes its events here.
 * The environments must be locked FOR UPDATE first, by an earlier statement of the transaction: a capture batch
 * holds its environment FOR KEY SHARE until it commits, so the lock waits for batches in flight, and this
 * statement, which reads with a snapshot taken after it, sees and deletes their events; a later batch finds its
 * environment gone.
 */
async function deleteEnvironmentEvents(trx: Knex, environmentIds: readonly number[]): Promise<void> {
  if (environmentIds.length === 0) return;
  await trx('events').whereIn('team_id', environmentIds).delete();
}

/**
 * Moves everything that belongs to each source environment into its target, then removes the emptied source
 * environments (and projects left without any environment), in one transaction.
 *
 * "Everything" is found from the schema rather than listed here: every column with a foreign key to
 * `environments.id` is re-pointed, so tables added later (persons, playlists, …) move too. Events are the
 * exception: capture checks their environment once per batch instead of through a foreign key (see the
 * check_event_environments_per_batch migration), so they are moved by name. The source environments are locked
 * first, so that a capture batch still writing to one finishes before anything moves, and one arriving later
 * finds its environment gone (its API key is then refused) instead of adding events that would be deleted
 * with it.
 */
export async function rollbackEnvironments(
  db: Db,
  organizationId: string,
  mapping: ReadonlyMap<number, number>,
): Promise<void> {
  const moves = [...mapping].filter(([source, target]) => source !== target);
  await translated(() =>
    db.transaction(async (trx) => {
      // Every environment the moves touch, locked in id order: two rollbacks over the same environments (one
      // moving 13 into 14, the other 14 into 13) then wait for each other instead of deadlocking, and the later
      // one finds what the earlier removed. (No key update: capture's key-share locks on the targets, taken as
      // it stores their events, go on meanwhile.)
      const involved = [...new Set(moves.flat())];
      // The keys scoped to the sources are locked before anything else. On Citus a write to a reference table
      // locks that table, then every table it points at (personal_api_keys: users, environments, projects,
      // organizations); locking the keys first takes ours in that same order, so a request's update of its key
      // waits for this transaction instead of holding the keys while waiting for the environments it holds.
      await trx('personal_api_keys').whereRaw('scoped_teams && ?::int[]', [involved]).orderBy('id').forNoKeyUpdate().pluck('id');
      const locked = new Set<number>(
        await trx('environments').where('organization_id', organizationId).whereIn('id', involved).orderBy('id').forNoKeyUpdate().pluck('id'),
      );
      const gone = involved.filter((id) => !locked.has(id));
      if (gone.length > 0) throw errors.environmentsNotFound(gone);
      for (const [source, target] of moves) {
        await moveEnvironmentRows(trx, source, target);
        await trx('users').where({ current_team_id: source }).update({ current_team_id: target });
        await trx.raw(
          `update personal_api_keys set scoped_teams = array_replace(scoped_teams, ?::int, ?::int)
           where ? = any(scoped_teams)`,
          [source, target, source],
        );
      }
      const sources = moves.map(([source]) => source);
      const emptiedProjects = await trx('environments').whereIn('id', sources).distinct('project_id').pluck('project_id');
      // Their events moved with the rest; the sources are locked already (no key update), which deleteEnvironments
      // strengthens before it deletes them.
      await deleteEnvironments(trx, sources);
      await trx('projects')
        .whereIn('id', emptiedProjects)
        .whereNotExists(trx('environments').whereRaw('environments.project_id = projects.id'))
        .delete();
      // Users' current environments and keys' scoped ones were re-pointed above.
      for (const table of ['environments', 'users', 'personal_api_keys'] as const) await notifyAccessChange(trx, table);
    }),
  );
}

/**
 * Moves every row of an environment's tables to another environment. The rows are copied under the target's
 * team_id and then deleted, never updated in place: on Citus, team_id places a row on its node and may not be
 * changed, and a copy lands on the target's node. Parents are copied before the rows that point at them
 * (distribution.ts lists them in that order) and deleted after them, so every key holds at every statement.
 */
async function moveEnvironmentRows(trx: Knex, source: number, target: number): Promise<void> {
  const columns = await trx.raw<{ rows: { table_name: string; columns: string[] }[] }>(
    `select table_name::text, array_agg(column_name::text order by ordinal_position) as columns
       from information_schema.columns
      where table_schema = current_schema() and table_name = any(?) and is_generated = 'NEVER'
      group by table_name`,
    [[...TENANT_TABLES]],
  );
  const columnsOf = new Map(columns.rows.map((row) => [row.table_name, row.columns]));
  for (const table of TENANT_TABLES) {
    const names = columnsOf.get(table) ?? [];
    const selected = names.map((name) => (name === DISTRIBUTION_COLUMN ? '?::int' : trx.raw('??', [name]).toQuery()));
    await trx.raw(`insert into ?? (${names.map(() => '??').join(', ')}) select ${selected.join(', ')} from ?? where ?? = ?`, [
      table,
      ...names,
      target,
      table,
      DISTRIBUTION_COLUMN,
      source,
    ]);
  }
  for (const table of [...TENANT_TABLES].reverse()) await trx(table).where(DISTRIBUTION_COLUMN, source).delete();
}

/** Which of these ids are environments of the organization. */
export async function environmentIdsOf(db: Db, organizationId: string, ids: number[]): Promise<Set<number>> {
  const found = await db('environments').where({ organization_id: organizationId }).whereIn('id', ids).pluck('id');
  return new Set(found as number[]);
}
