import { expect } from 'chai';
import { createProject } from '../../db/queries/projects.js';
import { testDb } from '../helpers/database.js';
import { MembershipLevel, newAccount, newMember, type Account } from '../helpers/fixtures.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ENVIRONMENT_KEYS = [
  'id',
  'uuid',
  'organization',
  'project_id',
  'api_token',
  'name',
  'timezone',
  'is_demo',
  'ingested_event',
  'created_at',
].sort();

describe('projects', () => {
  let server: TestServer;
  let account: Account;

  before(async () => {
    server = await startTestServer();
    account = await newAccount(testDb());
  });
  after(() => server.close());

  describe('projects_list', () => {
    it('lists the projects of the caller’s organizations with their environments and project API keys', async () => {
      const second = await createProject(testDb(), account.organization.id, 'Mobile app');
      const other = await newAccount(testDb());
      const res = await server.http.withKey(account.key).get('/api/projects/');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ count: 2, next: null, previous: null });
      const [first, mobile] = res.body.results;
      expect(first).to.deep.include({
        id: account.environment.project_id,
        organization: account.organization.id,
        name: 'Default project',
      });
      expect(first.environments).to.have.length(1);
      expect(Object.keys(first.environments[0]).sort()).to.deep.equal(ENVIRONMENT_KEYS);
      expect(first.environments[0]).to.include({
        id: account.environment.id,
        api_token: account.environment.api_token,
        project_id: account.environment.project_id,
      });
      expect(mobile).to.deep.include({ id: second.project.id, name: 'Mobile app' });
      expect(mobile.environments[0].id).to.equal(second.project.id);
      const ids = res.body.results.map((project: { id: number }) => project.id);
      expect(ids).to.not.include(other.environment.project_id);
    });

    it('pages with limit and offset', async () => {
      const res = await server.http.withKey(account.key).get('/api/projects/?limit=1&offset=1');
      expect(res.body.count).to.equal(2);
      expect(res.body.results).to.have.length(1);
      expect(res.body.next).to.equal(null);
      expect(new URL(res.body.previous).search).to.equal('?limit=1');
    });

    it('shows a key scoped to one environment only that environment', async () => {
      const scoped = await newMember(testDb(), account.organization, MembershipLevel.member, {
        scopedTeams: [account.environment.id],
      });
      const res = await server.http.withKey(scoped.key).get('/api/projects/');
      expect(res.body.count).to.equal(1);
      expect(res.body.results[0].environments.map((e: { id: number }) => e.id)).to.deep.equal([account.environment.id]);
    });
  });

  describe('projects_retrieve', () => {
    it('returns the project, also as @current', async () => {
      const client = server.http.withKey(account.key);
      const res = await client.get(`/api/projects/${account.environment.project_id}/`);
      expect(res.status).to.equal(200);
      expect(res.body.id).to.equal(account.environment.project_id);
      expect(res.body.environments[0].api_token).to.equal(account.environment.api_token);
      const current = await client.get('/api/projects/@current/');
      expect(current.status).to.equal(200);
      expect(current.body).to.deep.equal(res.body);
    });

    it('answers 404 for another organization’s project, an unknown one, or a malformed id', async () => {
      const other = await newAccount(testDb());
      for (const id of [String(other.environment.project_id), '99999999', 'abc', '-1']) {
        const res = await server.http.withKey(account.key).get(`/api/projects/${id}/`);
        expect(res.status, id).to.equal(404);
        expect(res.body).to.deep.equal({
          type: 'invalid_request',
          code: 'not_found',
          detail: 'Project not found.',
          attr: null,
        });
      }
    });

    it('answers 404 outside the key’s scoped environments', async () => {
      const second = await createProject(testDb(), account.organization.id, 'Scoped out');
      const scoped = await newMember(testDb(), account.organization, MembershipLevel.member, {
        scopedTeams: [account.environment.id],
      });
      const res = await server.http.withKey(scoped.key).get(`/api/projects/${second.project.id}/`);
      expect(res.status).to.equal(404);
    });

    it('answers 404 for a project of an organization outside the key’s scoped organizations, 200 inside', async () => {
      const outside = await newMember(testDb(), account.organization, MembershipLevel.member, {
        scopedOrganizations: ['0188c8a2-8b5e-7000-8000-000000000000'],
      });
      const denied = await server.http.withKey(outside.key).get(`/api/projects/${account.environment.id}/`);
      expect(denied.status).to.equal(404);
      expect(denied.body).to.deep.equal({ type: 'invalid_request', code: 'not_found', detail: 'Project not found.', attr: null });
      const inside = await newMember(testDb(), account.organization, MembershipLevel.member, {
        scopedOrganizations: [account.organization.id],
      });
      const allowed = await server.http.withKey(inside.key).get(`/api/projects/${account.environment.id}/`);
      expect(allowed.status).to.equal(200);
      expect(allowed.body).to.include({ id: account.environment.id });
    });
  });
});
