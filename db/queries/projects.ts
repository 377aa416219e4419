/** Projects and their environments. A project's id is the id of its first environment, as in PostHog. */
import type { components } from '../../generated/api.js';
import type { Db } from '../pg/client.js';
import { translated } from '../pg/errors.js';
import { paginate, type Page } from '../pagination.js';
import type { EnvironmentRow, ProjectRow } from '../rows.js';
import { newProjectApiToken } from '../tokens.js';
import { visibleEnvironments } from './access.js';
import { notifyAccessChange } from './access-changes.js';
import type { Principal } from './personal-api-keys.js';

export type Project = components['schemas']['Project'];
export type TeamBasic = components['schemas']['TeamBasic'];
export type ProjectBasic = components['schemas']['ProjectBasic'];

/** Creates a project with its first environment (both named `name`), sharing one id. */
export async function createProject(
  db: Db,
  organizationId: string,
  name: string,
): Promise<{ project: ProjectRow; environment: EnvironmentRow }> {
  return translated(() =>
    db.transaction(async (trx) => {
      const { rows } = await trx.raw<{ rows: { id: number }[] }>(
        `select nextval(pg_get_serial_sequence('environments', 'id'))::int as id`,
      );
      const id = rows[0]!.id;
      const [project] = await trx<ProjectRow>('projects').insert({ id, organization_id: organizationId, name }).returning('*');
      const [environment] = await trx<EnvironmentRow>('environments')
        .insert({ id, organization_id: organizationId, project_id: id, name, api_token: newProjectApiToken() })
        .returning('*');
      await notifyAccessChange(trx, 'environments');
      return { project: project!, environment: environment! };
    }),
  );
}

export function toTeamBasic(row: EnvironmentRow): TeamBasic {
  return {
    id: row.id,
    uuid: row.uuid,
    organization: row.organization_id,
    project_id: row.project_id,
    api_token: row.api_token,
    name: row.name,
    timezone: row.timezone,
    is_demo: row.is_demo,
    ingested_event: row.ingested_event,
    created_at: row.created_at.toISOString(),
  };
}

export function toProjectBasic(row: ProjectRow): ProjectBasic {
  return { id: row.id, organization_id: row.organization_id, name: row.name };
}

function toProject(row: ProjectRow, environments: EnvironmentRow[]): Project {
  return {
    id: row.id,
    uuid: row.uuid,
    organization: row.organization_id,
    name: row.name,
    created_at: row.created_at.toISOString(),
    environments: environments.map(toTeamBasic),
  };
}

/** The environments of these projects that the principal may see, grouped by project id. */
async function visibleEnvironmentsOf(db: Db, principal: Principal, projectIds: number[]) {
  const query = db('environments as e').join('organizations as o', 'o.id', 'e.organization_id');
  const rows = (await visibleEnvironments(query, principal)
    .whereIn('e.project_id', projectIds)
    .orderBy('e.id')
    .select('e.*')) as EnvironmentRow[];
  const byProject = new Map<number, EnvironmentRow[]>();
  for (const row of rows) byProject.set(row.project_id, [...(byProject.get(row.project_id) ?? []), row]);
  return byProject;
}

/** Projects holding at least one environment the principal may see, oldest first. */
export async function listProjects(db: Db, principal: Principal, page: Page): Promise<{ results: Project[]; count: number }> {
  const visible = visibleEnvironments(
    db('environments as e').join('organizations as o', 'o.id', 'e.organization_id'),
    principal,
  ).select('e.project_id');
  const query = db('projects as p').whereIn('p.id', visible).orderBy('p.id').select('p.*');
  const { rows, count } = await paginate<ProjectRow>(query, page);
  const environments = await visibleEnvironmentsOf(db, principal, rows.map((row) => row.id));
  return { results: rows.map((row) => toProject(row, environments.get(row.id) ?? [])), count };
}

/** The project whose id is `projectId`, when the principal may see one of its environments. */
export async function getProject(db: Db, principal: Principal, projectId: number): Promise<Project | null> {
  const row = await db<ProjectRow>('projects').where({ id: projectId }).first();
  if (!row) return null;
  const environments = (await visibleEnvironmentsOf(db, principal, [row.id])).get(row.id) ?? [];
  return environments.length > 0 ? toProject(row, environments) : null;
}
