import { getProject, listProjects } from '../db/queries/projects.js';
import { errors } from '../db/core/errors.js';
import { pageLinks, pageOf } from './pagination.js';
import { environmentOf, principalOf, type Handler } from './types.js';

export const projects_list: Handler<'projects_list'> = async ({ query, state, deps, ctx }) => {
  const page = pageOf(query);
  const { results, count } = await listProjects(deps.db, principalOf(state), page);
  return { status: 200, body: { count, ...pageLinks(ctx, page, count), results } };
};

export const projects_retrieve: Handler<'projects_retrieve'> = async ({ state, deps }) => {
  const project = await getProject(deps.db, principalOf(state), environmentOf(state).environment.project_id);
  if (!project) throw errors.notFound('Project not found.');
  return { status: 200, body: project };
};
