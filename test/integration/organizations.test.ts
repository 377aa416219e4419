import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setMembership } from '../../db/queries/memberships.js';
import { setCurrentTeam } from '../../db/queries/users.js';
import { testDb } from '../helpers/database.js';
import { MembershipLevel, newAccount, newMember, unique, type Account } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const ORGANIZATION_KEYS = [
  'id',
  'name',
  'slug',
  'logo_media_id',
  'created_at',
  'updated_at',
  'membership_level',
  'plugins_access_level',
  'teams',
  'projects',
  'available_product_features',
  'is_member_join_email_enabled',
  'metadata',
  'customer_id',
  'enforce_2fa',
  'members_can_invite',
  'member_count',
  'is_ai_data_processing_approved',
  'default_experiment_stats_method',
].sort();

describe('organizations', () => {
  let server: TestServer;
  let owner: Account;
  let http: HttpClient;

  before(async () => {
    server = await startTestServer();
    owner = await newAccount(testDb());
    http = server.http.withKey(owner.key);
  });
  after(() => server.close());

  describe('organizations_create', () => {
    it('creates the organization with a slug, a first project, and the caller as owner', async () => {
      const name = unique('Acme Corp');
      const res = await http.post('/api/organizations/', { name, enforce_2fa: true });
      expect(res.status).to.equal(201);
      expect(Object.keys(res.body).sort()).to.deep.equal(ORGANIZATION_KEYS);
      expect(res.body).to.include({
        name,
        slug: name.toLowerCase().replace(/ /g, '-'),
        membership_level: 15,
        plugins_access_level: 9,
        enforce_2fa: true,
        members_can_invite: true,
        is_member_join_email_enabled: true,
        is_ai_data_processing_approved: null,
        default_experiment_stats_method: 'bayesian',
        member_count: '1',
        customer_id: null,
        logo_media_id: null,
      });
      expect(JSON.parse(res.body.metadata)).to.deep.equal({ instance_tag: 'hedgerow' });
      expect(res.body.teams).to.have.length(1);
      expect(res.body.projects).to.deep.equal([
        { id: res.body.teams[0].project_id, organization_id: res.body.id, name: 'Default project' },
      ]);
      expect(res.body.teams[0].api_token).to.match(/^phc_[A-Za-z0-9]{43}$/);

      const membership = await testDb()('organization_memberships')
        .where({ organization_id: res.body.id, user_id: owner.user.id })
        .first();
      expect(membership.level).to.equal(15);
      const user = await testDb()('users').where({ id: owner.user.id }).first();
      expect(user.current_organization_id).to.equal(res.body.id);
    });

    it('makes clashing slugs unique with a random suffix', async () => {
      const name = unique('Clash');
      const first = await http.post('/api/organizations/', { name });
      const second = await http.post('/api/organizations/', { name });
      expect(first.status).to.equal(201);
      expect(second.status).to.equal(201);
      expect(second.body.slug).to.match(new RegExp(`^${first.body.slug}-[a-z]{4}$`));
    });

    const invalid: [string, unknown, string, string][] = [
      ['no name', {}, 'name', 'required'],
      ['an empty name', { name: '' }, 'name', 'blank'],
      ['a name over 64 characters', { name: 'x'.repeat(65) }, 'name', 'max_length'],
      ['an unknown stats method', { name: 'x', default_experiment_stats_method: 'tomato' }, 'default_experiment_stats_method', 'invalid_choice'],
      ['a logo that is not a UUID', { name: 'x', logo_media_id: 'nope' }, 'logo_media_id', 'invalid_input'],
      ['a non-boolean flag', { name: 'x', members_can_invite: 'yes' }, 'members_can_invite', 'invalid_input'],
    ];
    for (const [what, body, attr, code] of invalid) {
      it(`answers 400 for ${what}`, async () => {
        const res = await http.post('/api/organizations/', body);
        expect(res.status).to.equal(400);
        expect(res.body).to.include({ type: 'validation_error', code, attr });
      });
    }

    it('answers 400 for malformed JSON and 415 for a body that is not JSON', async () => {
      const malformed = await http.request('POST', '/api/organizations/', {
        rawBody: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      expect(malformed.status).to.equal(400);
      expect(malformed.body).to.include({ type: 'invalid_request', code: 'parse_error' });
      const deep = await http.request('POST', '/api/organizations/', {
        rawBody: `{"name":"deep","extra":${'['.repeat(5000)}${']'.repeat(5000)}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect([deep.status, deep.body]).to.deep.equal([
        400,
        { type: 'invalid_request', code: 'parse_error', detail: 'JSON parse error - the JSON is nested more than 127 levels deep.', attr: null },
      ]);
      const text = await http.request('POST', '/api/organizations/', {
        rawBody: 'name=x',
        headers: { 'content-type': 'text/plain' },
      });
      expect(text.status).to.equal(415);
      expect(text.body).to.deep.equal({
        type: 'invalid_request',
        code: 'unsupported_media_type',
        detail: 'Unsupported media type "text/plain" in request.',
        attr: null,
      });
    });

    it('answers 413 for a body over 1 MB', async () => {
      const res = await http.post('/api/organizations/', { name: 'x', padding: 'y'.repeat(1_100_000) });
      expect(res.status).to.equal(413);
      expect(res.body.code).to.equal('request_too_large');
    });
  });

  describe('organizations_list', () => {
    let lister: Account;
    let names: string[];

    before(async () => {
      lister = await newAccount(testDb(), { name: unique('List 0') });
      names = [lister.organization.name];
      for (let i = 1; i < 5; i += 1) {
        const res = await server.http.withKey(lister.key).post('/api/organizations/', { name: unique(`List ${i}`) });
        names.push(res.body.name);
      }
    });

    it('lists only the caller’s organizations, oldest first', async () => {
      const res = await server.http.withKey(lister.key).get('/api/organizations/');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ count: 5, next: null, previous: null });
      expect(res.body.results.map((org: { name: string }) => org.name)).to.deep.equal(names);
    });

    it('pages with limit and offset and links both ways', async () => {
      const client = server.http.withKey(lister.key);
      const first = await client.get('/api/organizations/?limit=2');
      expect(first.body.count).to.equal(5);
      expect(first.body.results).to.have.length(2);
      expect(first.body.previous).to.equal(null);
      const next = new URL(first.body.next);
      expect(next.pathname).to.equal('/api/organizations/');
      expect(Object.fromEntries(next.searchParams)).to.deep.equal({ limit: '2', offset: '2' });

      const second = await client.get(`${next.pathname}${next.search}`);
      expect(second.body.results.map((org: { name: string }) => org.name)).to.deep.equal(names.slice(2, 4));
      const previous = new URL(second.body.previous);
      expect(Object.fromEntries(previous.searchParams)).to.deep.equal({ limit: '2' });

      const last = await client.get('/api/organizations/?limit=2&offset=4');
      expect(last.body.next).to.equal(null);
      expect(last.body.results.map((org: { name: string }) => org.name)).to.deep.equal(names.slice(4));
      expect(Object.fromEntries(new URL(last.body.previous).searchParams)).to.deep.include({ offset: '2' });
    });

    it('answers 400 naming an unknown query parameter', async () => {
      const res = await server.http.withKey(lister.key).get('/api/organizations/?colour=red');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({
        type: 'validation_error',
        code: 'unknown_field',
        detail: 'Unknown query parameter "colour".',
        attr: 'colour',
      });
    });

    it('answers 400 for a limit that is not a positive integer', async () => {
      for (const limit of ['abc', '0', '1001']) {
        const res = await server.http.withKey(lister.key).get(`/api/organizations/?limit=${limit}`);
        expect(res.status, limit).to.equal(400);
        expect(res.body.attr).to.equal('limit');
      }
    });

    it('lists only the key’s scoped organizations', async () => {
      const second = await server.http.withKey(lister.key).get('/api/organizations/?limit=1&offset=1');
      const scoped = await newMember(testDb(), lister.organization, MembershipLevel.member, {
        scopedOrganizations: [lister.organization.id],
      });
      await newMember(testDb(), { ...lister.organization, id: second.body.results[0].id }, MembershipLevel.member);
      const res = await server.http.withKey(scoped.key).get('/api/organizations/');
      expect(res.body.results.map((org: { id: string }) => org.id)).to.deep.equal([lister.organization.id]);
    });
  });

  describe('organizations_retrieve', () => {
    it('returns the organization with its environments and the caller’s level', async () => {
      const res = await http.get(`/api/organizations/${owner.organization.id}/`);
      expect(res.status).to.equal(200);
      expect(res.body.id).to.equal(owner.organization.id);
      expect(res.body.teams.map((team: { id: number }) => team.id)).to.deep.equal([owner.environment.id]);
      const member = await newMember(testDb(), owner.organization, MembershipLevel.member);
      const asMember = await server.http.withKey(member.key).get(`/api/organizations/${owner.organization.id}`);
      expect(asMember.status).to.equal(200);
      expect(asMember.body.membership_level).to.equal(1);
      expect(asMember.body.member_count).to.equal('2');
    });

    it('answers 404 for an organization of which the caller is not a member, or a malformed id', async () => {
      const stranger = await newAccount(testDb());
      for (const id of [stranger.organization.id, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
        const res = await http.get(`/api/organizations/${id}/`);
        expect(res.status, id).to.equal(404);
        expect(res.body).to.deep.equal({
          type: 'invalid_request',
          code: 'not_found',
          detail: 'Organization not found.',
          attr: null,
        });
      }
    });
  });

  describe('organizations_partial_update', () => {
    it('changes only the fields sent and ignores read-only ones', async () => {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      const before = await client.get(`/api/organizations/${account.organization.id}/`);
      const res = await client.patch(`/api/organizations/${account.organization.id}/`, {
        name: 'Renamed',
        is_ai_data_processing_approved: true,
        default_experiment_stats_method: 'frequentist',
        slug: 'ignored',
        member_count: '99',
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.include({
        name: 'Renamed',
        slug: before.body.slug,
        is_ai_data_processing_approved: true,
        default_experiment_stats_method: 'frequentist',
        enforce_2fa: null,
        member_count: '1',
      });
      expect(Date.parse(res.body.updated_at)).to.be.greaterThan(Date.parse(before.body.updated_at));
      const row = await testDb()('organizations').where({ id: account.organization.id }).first();
      expect(row).to.include({ name: 'Renamed', default_experiment_stats_method: 'frequentist' });
    });

    it('needs an administrator: a member gets 403, an admin succeeds', async () => {
      const account = await newAccount(testDb());
      const member = await newMember(testDb(), account.organization, MembershipLevel.member);
      const admin = await newMember(testDb(), account.organization, MembershipLevel.admin);
      const path = `/api/organizations/${account.organization.id}/`;
      const denied = await server.http.withKey(member.key).patch(path, { name: 'Nope' });
      expect(denied.status).to.equal(403);
      expect(denied.body).to.deep.equal({
        type: 'authentication_error',
        code: 'permission_denied',
        detail: 'Your organization access level is insufficient.',
        attr: null,
      });
      const allowed = await server.http.withKey(admin.key).patch(path, { name: 'Yes' });
      expect(allowed.status).to.equal(200);
      expect(allowed.body.name).to.equal('Yes');
    });

    it('answers 400 for an invalid field', async () => {
      const res = await http.patch(`/api/organizations/${owner.organization.id}/`, { enforce_2fa: 'sometimes' });
      expect(res.status).to.equal(400);
      expect(res.body.attr).to.equal('enforce_2fa');
    });
  });

  describe('organizations_destroy', () => {
    it('needs an owner, then deletes the organization with its projects and memberships', async () => {
      const account = await newAccount(testDb());
      const admin = await newMember(testDb(), account.organization, MembershipLevel.admin);
      const path = `/api/organizations/${account.organization.id}/`;
      const denied = await server.http.withKey(admin.key).delete(path);
      expect(denied.status).to.equal(403);

      await testDb()('events').insert({
        team_id: account.environment.id,
        uuid: '0190f1c4-0000-7000-8000-0000000000d1',
        event: 'doomed',
        distinct_id: 'someone',
        timestamp: new Date(),
      });
      const res = await server.http.withKey(account.key).delete(path);
      expect(res.status).to.equal(204);
      expect(res.text).to.equal('');
      const db = testDb();
      expect(await db('events').where({ team_id: account.environment.id })).to.deep.equal([]);
      expect(await db('organizations').where({ id: account.organization.id }).first()).to.equal(undefined);
      expect(await db('environments').where({ organization_id: account.organization.id })).to.deep.equal([]);
      expect(await db('projects').where({ organization_id: account.organization.id })).to.deep.equal([]);
      expect(await db('organization_memberships').where({ organization_id: account.organization.id })).to.deep.equal([]);
      expect((await server.http.withKey(account.key).get(path)).status).to.equal(404);
    });
  });

  describe('organizations_environments_rollback_create', () => {
    async function organizationWithTwoEnvironments() {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      const [second] = await testDb()('environments')
        .insert({
          organization_id: account.organization.id,
          project_id: account.environment.project_id,
          name: 'Staging',
          api_token: unique('phc_staging'),
        })
        .returning('*');
      return { account, client, source: second.id as number, target: account.environment.id };
    }

    it('moves what belonged to the source environment into the target and removes the source', async () => {
      const { account, client, source, target } = await organizationWithTwoEnvironments();
      const db = testDb();
      await setCurrentTeam(db, account.user.id, account.organization.id, source);
      const scoped = await newMember(db, account.organization, MembershipLevel.member, { scopedTeams: [source] });
      const eventUuid = '0190f1c4-0000-7000-8000-0000000000e1';
      await db('events').insert({ team_id: source, uuid: eventUuid, event: 'moved', distinct_id: 'someone', timestamp: new Date() });
      const [person] = await db('persons').insert({ team_id: source, properties: {} }).returning('id');
      // Rows that point at each other by (team_id, id) move together.
      await db('person_distinct_ids').insert({ team_id: source, distinct_id: 'someone', person_id: person.id });
      const [playlist] = await db('session_recording_playlists')
        .insert({ team_id: source, short_id: randomUUID().slice(0, 12), type: 'collection' })
        .returning('id');
      await db('session_recording_playlist_items').insert({ team_id: source, playlist_id: playlist.id, session_id: 'recording' });
      const exportId = randomUUID();
      const backfillId = randomUUID();
      await db('batch_exports').insert({ id: exportId, team_id: source, name: 'moved', destination_type: 'NoOp' });
      await db('batch_export_backfills').insert({ id: backfillId, team_id: source, batch_export_id: exportId });
      await db('batch_export_runs').insert({
        id: randomUUID(),
        team_id: source,
        batch_export_id: exportId,
        backfill_id: backfillId,
        data_interval_end: new Date(),
      });

      const res = await client.post(`/api/organizations/${account.organization.id}/environments_rollback/`, {
        [String(source)]: target,
        [String(target)]: String(target),
      });
      expect(res.status).to.equal(200);
      expect(res.body.id).to.equal(account.organization.id);
      expect(res.body.teams.map((team: { id: number }) => team.id)).to.deep.equal([target]);
      expect(await db('environments').where({ id: source }).first()).to.equal(undefined);
      expect((await db('users').where({ id: account.user.id }).first()).current_team_id).to.equal(target);
      const key = await db('personal_api_keys').where({ user_id: scoped.user.id }).first();
      expect(key.scoped_teams).to.deep.equal([target]);
      expect(await db('events').where({ uuid: eventUuid }).pluck('team_id')).to.deep.equal([target]);
      expect(await db('persons').where({ id: person.id }).pluck('team_id')).to.deep.equal([target]);
      for (const table of ['person_distinct_ids', 'session_recording_playlist_items', 'batch_exports', 'batch_export_backfills', 'batch_export_runs']) {
        expect(await db(table).where({ team_id: source }).count<{ count: string }[]>('* as count'), table).to.deep.equal([{ count: '0' }]);
      }
      expect(await db('batch_export_runs').where({ batch_export_id: exportId }).pluck('team_id')).to.deep.equal([target]);
      expect(await db('session_recording_playlist_items').where({ playlist_id: playlist.id }).pluck('team_id')).to.deep.equal([target]);
    });

    it('removes a project left without environments', async () => {
      const account = await newAccount(testDb());
      const created = await server.http.withKey(account.key).post('/api/organizations/', { name: unique('Two') });
      const organizationId = created.body.id;
      const projectB = await server.http
        .withKey(account.key)
        .get(`/api/projects/?limit=1000`)
        .then((res) => res.body.results.find((p: { organization: string }) => p.organization === organizationId));
      // Give the organization a second project, then fold it into the first.
      const { createProject } = await import('../../db/queries/projects.js');
      const extra = await createProject(testDb(), organizationId, 'Second');
      const res = await server.http
        .withKey(account.key)
        .post(`/api/organizations/${organizationId}/environments_rollback/`, { [extra.environment.id]: projectB.id });
      expect(res.status).to.equal(200);
      expect(res.body.projects.map((p: { id: number }) => p.id)).to.deep.equal([projectB.id]);
      expect(await testDb()('projects').where({ id: extra.project.id }).first()).to.equal(undefined);
    });

    const invalid: [string, (ids: { source: number; target: number }) => unknown, string][] = [
      ['an empty mapping', () => ({}), 'Environment mappings are required'],
      ['an unknown environment', ({ source }) => ({ [source]: 999_999 }), 'Environments not found: {999999}'],
      ['a source that also moves elsewhere', ({ source, target }) => ({ [source]: target, [target]: source }), 'cannot be both'],
      ['a non-numeric target', ({ source }) => ({ [source]: 'abc' }), ''],
      ['a source written with a space', ({ source, target }) => ({ [` ${source}`]: target }), 'must be positive integers'],
      ['a source in exponent form', ({ target }) => ({ '1e1': target }), 'must be positive integers'],
      ['ids beyond any environment', ({ source }) => ({ [source]: 2147483648, '2147483649': source }), 'Environments not found: {2147483649, 2147483648}'],
    ];
    for (const [what, body, detail] of invalid) {
      it(`answers 400 for ${what} and moves nothing`, async () => {
        const { account, client, source, target } = await organizationWithTwoEnvironments();
        const res = await client.post(
          `/api/organizations/${account.organization.id}/environments_rollback/`,
          body({ source, target }),
        );
        expect(res.status).to.equal(400);
        expect(res.body.type).to.equal('validation_error');
        expect(res.body.detail).to.include(detail);
        expect(await testDb()('environments').whereIn('id', [source, target])).to.have.length(2);
      });
    }

    it('runs two opposite rollbacks at once one after the other: one moves, the other finds its source gone', async () => {
      const { account, client, source, target } = await organizationWithTwoEnvironments();
      await testDb()('session_recording_playlists').insert([
        { team_id: source, short_id: unique('s'), type: 'collection', name: 'In source' },
        { team_id: target, short_id: unique('t'), type: 'collection', name: 'In target' },
      ]);
      const path = `/api/organizations/${account.organization.id}/environments_rollback/`;
      const answers = await Promise.all([client.post(path, { [source]: target }), client.post(path, { [target]: source })]);
      expect(answers.map((res) => res.status).sort()).to.deep.equal([200, 400]);
      const refused = answers.find((res) => res.status === 400)!;
      expect(refused.body.detail).to.match(/^Environments not found: \{\d+\}$/);
      expect(await testDb()('environments').whereIn('id', [source, target])).to.have.length(1);
      expect(await testDb()('session_recording_playlists').whereIn('team_id', [source, target])).to.have.length(2);
    });

    it('refuses environments of another organization (400) and members below admin (403)', async () => {
      const { account, client, source } = await organizationWithTwoEnvironments();
      const other = await newAccount(testDb());
      const res = await client.post(`/api/organizations/${account.organization.id}/environments_rollback/`, {
        [source]: other.environment.id,
      });
      expect(res.status).to.equal(400);
      expect(res.body.detail).to.equal(`Environments not found: {${other.environment.id}}`);
      const member = await newMember(testDb(), account.organization, MembershipLevel.member);
      const denied = await server.http
        .withKey(member.key)
        .post(`/api/organizations/${account.organization.id}/environments_rollback/`, { [source]: source });
      expect(denied.status).to.equal(403);
    });
  });

  describe('keys scoped to projects', () => {
    it('list and read the organizations that hold their projects, and change none (403)', async () => {
      const account = await newAccount(testDb());
      const second = await server.http.withKey(account.key).post('/api/organizations/', { name: unique('Second') });
      const scoped = await newMember(testDb(), account.organization, MembershipLevel.owner, { scopedTeams: [account.environment.id] });
      // The member owns a second organization too, which holds none of the key's projects.
      await setMembership(testDb(), second.body.id, scoped.user.id, MembershipLevel.owner);
      const { createProject } = await import('../../db/queries/projects.js');
      await createProject(testDb(), account.organization.id, 'Outside the key');
      // The same user's unscoped key reads the second organization first: what it leaves in memory is its own.
      const { createPersonalApiKey } = await import('../../db/queries/personal-api-keys.js');
      const unscoped = await createPersonalApiKey(testDb(), { userId: scoped.user.id, label: 'unscoped', scopes: ['*'] });
      expect((await server.http.withKey(unscoped.key).get(`/api/organizations/${second.body.id}/`)).status).to.equal(200);
      const client = server.http.withKey(scoped.key);
      const listed = await client.get('/api/organizations/');
      expect(listed.body.results.map((organization: { id: string }) => organization.id)).to.deep.equal([account.organization.id]);
      const own = await client.get(`/api/organizations/${account.organization.id}/`);
      expect(own.status).to.equal(200);
      expect(own.body.teams.map((team: { id: number }) => team.id)).to.deep.equal([account.environment.id]);
      expect(own.body.projects.map((project: { id: number }) => project.id)).to.deep.equal([account.environment.project_id]);
      expect(listed.body.results[0].projects).to.deep.equal(own.body.projects);
      expect((await client.get(`/api/organizations/${second.body.id}/`)).status).to.equal(404);
      expect((await client.delete(`/api/organizations/${second.body.id}/`)).status).to.equal(404);
      const refused = {
        type: 'authentication_error',
        code: 'permission_denied',
        detail: 'API keys with scoped projects are only supported on project-based endpoints.',
        attr: null,
      };
      for (const res of [
        await client.patch(`/api/organizations/${account.organization.id}/`, { name: 'renamed' }),
        await client.delete(`/api/organizations/${account.organization.id}/`),
        await client.post(`/api/organizations/${account.organization.id}/environments_rollback/`, { [account.environment.id]: account.environment.id }),
        await client.post('/api/organizations/', { name: unique('Third') }),
        // Refused before the body is validated: a caller without access learns nothing of what a valid one is.
        await client.patch(`/api/organizations/${account.organization.id}/`, { name: 5 }),
        await client.post('/api/organizations/', {}),
      ]) {
        expect([res.status, res.body]).to.deep.equal([403, refused]);
      }
      expect((await testDb()('organizations').whereIn('id', [account.organization.id, second.body.id])).map((o: { name: string }) => o.name)).to.not.include('renamed');
      expect(await testDb()('organizations').whereIn('id', [account.organization.id, second.body.id])).to.have.length(2);
    });
  });

  describe('routing', () => {
    it('answers 404 for a path with a malformed %-escape, and 400 for a JSON body that is a string', async () => {
      for (const path of ['/api/organizations/%FF/', '/api/projects/%E0%A4/', `/api/environments/%FF/session_recording_playlists/`]) {
        const res = await http.get(path);
        expect([res.status, res.body.code], path).to.deep.equal([404, 'not_found']);
      }
      const stringBody = await http.request('POST', '/api/organizations/', {
        rawBody: JSON.stringify(JSON.stringify({ name: 'x' })),
        headers: { 'content-type': 'application/json' },
      });
      expect([stringBody.status, stringBody.body]).to.deep.equal([
        400,
        { type: 'validation_error', code: 'invalid_input', detail: 'Invalid data. Expected a dictionary, but got str.', attr: null },
      ]);
    });

    it('answers 400 naming the parameter for an offset beyond any list', async () => {
      const res = await http.get('/api/organizations/?offset=99999999999999999999');
      expect([res.status, res.body.attr]).to.deep.equal([400, 'offset']);
    });

    it('answers the same with and without the trailing slash', async () => {
      const withSlash = await http.get(`/api/organizations/${owner.organization.id}/`);
      const without = await http.get(`/api/organizations/${owner.organization.id}`);
      expect(without.status).to.equal(200);
      expect(without.body).to.deep.equal(withSlash.body);
    });

    it('answers 405 with Allow for a method the path lacks, and 404 for an unknown path', async () => {
      const res = await http.request('PUT', `/api/organizations/${owner.organization.id}/`, { body: { name: 'x' } });
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.equal('GET, HEAD, PATCH, DELETE');
      expect(res.body).to.deep.equal({
        type: 'invalid_request',
        code: 'method_not_allowed',
        detail: 'Method "PUT" not allowed.',
        attr: null,
      });
      const missing = await http.get('/api/nothing-here/');
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal({ type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null });
    });
  });
});
