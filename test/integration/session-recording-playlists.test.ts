import { expect } from 'chai';
import { createProject } from '../../db/queries/projects.js';
import { setCurrentTeam } from '../../db/queries/users.js';
import type { UserRow } from '../../db/rows.js';
import { testDb } from '../helpers/database.js';
import { MembershipLevel, newAccount, newMember, unique, type Account } from '../helpers/fixtures.js';
import type { HttpClient } from '../helpers/http.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const PLAYLIST_KEYS = [
  'id',
  'short_id',
  'name',
  'derived_name',
  'description',
  'pinned',
  'created_at',
  'created_by',
  'deleted',
  'filters',
  'last_modified_at',
  'last_modified_by',
  'recordings_counts',
  'type',
  'is_synthetic',
].sort();

const NO_COUNTS = {
  collection: { count: null, watched_count: 0 },
  saved_filters: { count: null, has_more: null, watched_count: null, increased: null, last_refreshed_at: null },
};

const LONG_AGO = '2020-01-01T00:00:00.000Z';

function userBasic(user: UserRow) {
  return {
    id: user.id,
    uuid: user.uuid,
    distinct_id: user.distinct_id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    is_email_verified: user.is_email_verified,
    hedgehog_config: user.hedgehog_config,
    role_at_organization: user.role_at_organization,
  };
}

const validationError = (detail: string) => ({ type: 'validation_error', code: 'invalid_input', detail, attr: null });
const NOT_FOUND = { type: 'invalid_request', code: 'not_found', detail: 'Not found.', attr: null };

const playlistsPath = (account: Account) => `/api/environments/${account.environment.id}/session_recording_playlists/`;

const playlistRow = (shortId: string) => testDb()('session_recording_playlists').where({ short_id: shortId }).first();

/** Moves the playlist's modification time into the past, so that a later bump (or its absence) shows. */
const backdate = (shortId: string) =>
  testDb()('session_recording_playlists')
    .where({ short_id: shortId })
    .update({ last_modified_at: LONG_AGO, created_at: LONG_AGO });

describe('session recording playlists', () => {
  let server: TestServer;
  let owner: Account;
  let http: HttpClient;
  let base: string;

  before(async () => {
    server = await startTestServer();
    owner = await newAccount(testDb());
    http = server.http.withKey(owner.key);
    base = playlistsPath(owner);
  });
  after(() => server.close());

  const createCollection = async (body: Record<string, unknown> = {}, client: HttpClient = http, path = base) => {
    const res = await client.post(path, { name: unique('Collection'), type: 'collection', ...body });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };
  const createSavedFilter = async (body: Record<string, unknown> = {}, client: HttpClient = http, path = base) => {
    const res = await client.post(path, { name: unique('Saved'), type: 'filters', filters: { date_from: '-7d' }, ...body });
    expect(res.status, res.text).to.equal(201);
    return res.body;
  };

  describe('environments_session_recording_playlists_create', () => {
    it('creates a collection owned and last modified by the caller', async () => {
      const name = unique('Checkout drop-offs');
      const res = await http.post(base, { name, description: 'Left at payment', type: 'collection' });
      expect(res.status).to.equal(201);
      expect(Object.keys(res.body).sort()).to.deep.equal(PLAYLIST_KEYS);
      expect(res.body).to.deep.include({
        name,
        derived_name: null,
        description: 'Left at payment',
        pinned: false,
        deleted: false,
        filters: {},
        type: 'collection',
        recordings_counts: NO_COUNTS,
        is_synthetic: false,
        created_by: userBasic(owner.user),
        last_modified_by: userBasic(owner.user),
      });
      expect(res.body.short_id).to.match(/^[A-Za-z0-9]{8}$/);
      expect(res.body.last_modified_at).to.equal(res.body.created_at);
      expect(Date.now() - Date.parse(res.body.created_at)).to.be.within(0, 60_000);

      const row = await playlistRow(res.body.short_id);
      expect(row).to.include({
        id: res.body.id,
        team_id: owner.environment.id,
        type: 'collection',
        created_by: owner.user.id,
        last_modified_by: owner.user.id,
        deleted: false,
      });
    });

    it('creates a saved filter with the filters as given, with every writable field', async () => {
      const filters = { date_from: '-7d', events: [{ id: '$rageclick', type: 'events' }] };
      const res = await http.post(base, {
        name: null,
        derived_name: 'Rage clicks',
        description: 'd',
        pinned: true,
        deleted: false,
        filters,
        type: 'filters',
      });
      expect(res.status).to.equal(201);
      expect(res.body).to.deep.include({
        name: null,
        derived_name: 'Rage clicks',
        description: 'd',
        pinned: true,
        deleted: false,
        filters,
        type: 'filters',
        recordings_counts: NO_COUNTS,
        is_synthetic: false,
      });
    });

    it('takes any JSON value as filters', async () => {
      for (const filters of [[{ id: 'a' }], 'recent', 42, true]) {
        const res = await http.post(base, { type: 'filters', filters });
        expect(res.status, JSON.stringify(filters)).to.equal(201);
        expect(res.body.filters).to.deep.equal(filters);
      }
      const empty = await http.post(base, { type: 'collection', filters: null });
      expect(empty.status).to.equal(201);
      expect(empty.body.filters).to.equal(null);
      expect((await playlistRow(empty.body.short_id)).filters).to.equal(null);
    });

    it('stores _create_in_folder and never returns it', async () => {
      const res = await http.post(base, { type: 'collection', _create_in_folder: 'Replay/Checkout' });
      expect(res.status).to.equal(201);
      expect(res.body).to.not.have.property('_create_in_folder');
      expect((await playlistRow(res.body.short_id)).create_in_folder).to.equal('Replay/Checkout');
      const read = await http.get(`${base}${res.body.short_id}/`);
      expect(read.body).to.not.have.property('_create_in_folder');
    });

    it('gives every playlist its own short id, unique per environment (and only per environment)', async () => {
      const shortIds = new Set<string>();
      for (let i = 0; i < 20; i += 1) shortIds.add((await createCollection()).short_id);
      expect(shortIds.size).to.equal(20);

      const other = await newAccount(testDb());
      const [shortId] = [...shortIds];
      const copy = { short_id: shortId, type: 'collection' };
      await testDb()('session_recording_playlists').insert({ ...copy, team_id: other.environment.id });
      let failure: unknown = null;
      await testDb()('session_recording_playlists')
        .insert({ ...copy, team_id: owner.environment.id })
        .catch((error: unknown) => (failure = error));
      expect((failure as { code?: string } | null)?.code).to.equal('23505');
    });

    const refused: [string, Record<string, unknown>, string][] = [
      ['no type', { name: 'x' }, 'Must provide a valid playlist type: either filters or collection'],
      ['an unknown type', { name: 'x', type: 'tomato' }, 'Must provide a valid playlist type: either filters or collection'],
      ['a type that is not a string', { type: 5 }, 'Must provide a valid playlist type: either filters or collection'],
      ['a null type', { type: null }, 'Must provide a valid playlist type: either filters or collection'],
      ['a collection with filters', { type: 'collection', filters: { events: [{ id: 'x' }] } }, 'You cannot create a collection with filters'],
      ['a saved filter without filters', { type: 'filters' }, 'You must provide a valid filters when creating a saved filter'],
      ['a saved filter with empty filters', { type: 'filters', filters: {} }, 'You must provide a valid filters when creating a saved filter'],
      ['a saved filter with null filters', { type: 'filters', filters: null }, 'You must provide a valid filters when creating a saved filter'],
    ];
    for (const [what, body, detail] of refused) {
      it(`answers 400 "${detail}" for ${what}, creating nothing`, async () => {
        const before = await testDb()('session_recording_playlists').where({ team_id: owner.environment.id }).count();
        const res = await http.post(base, body);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal(validationError(detail));
        const after = await testDb()('session_recording_playlists').where({ team_id: owner.environment.id }).count();
        expect(after).to.deep.equal(before);
      });
    }

    const invalidFields: [string, Record<string, unknown>, string | null, string, string][] = [
      ['a name over 400 characters', { name: 'x'.repeat(401) }, 'name', 'max_length', 'Ensure this field has no more than 400 characters.'],
      ['a derived_name over 400 characters', { derived_name: 'x'.repeat(401) }, 'derived_name', 'max_length', 'Ensure this field has no more than 400 characters.'],
      ['a pinned that is not a boolean', { pinned: 'yes' }, 'pinned', 'invalid_input', 'Must be a valid boolean.'],
      ['a deleted that is not a boolean', { deleted: 'maybe' }, 'deleted', 'invalid_input', 'Must be a valid boolean.'],
      ['a name with a NUL character', { name: 'a\u0000b' }, null, 'null_characters_not_allowed', 'Null characters are not allowed.'],
    ];
    for (const [what, body, attr, code, detail] of invalidFields) {
      it(`answers 400 for ${what}`, async () => {
        const res = await http.post(base, { type: 'collection', ...body });
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({ type: 'validation_error', code, detail, attr });
      });
    }

    it('needs the write scope', async () => {
      const reader = await newMember(testDb(), owner.organization, MembershipLevel.member, {
        scopes: ['session_recording_playlist:read'],
      });
      const res = await server.http.withKey(reader.key).post(base, { type: 'collection' });
      expect(res.status).to.equal(403);
      expect(res.body.detail).to.equal("API key missing required scope 'session_recording_playlist:write'");
    });
  });

  describe('environments_session_recording_playlists_retrieve', () => {
    it('returns the playlist, also under @current', async () => {
      const created = await createCollection({ description: 'read me' });
      const res = await http.get(`${base}${created.short_id}/`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal(created);
      await setCurrentTeam(testDb(), owner.user.id, owner.organization.id, owner.environment.id);
      const current = await http.get(`/api/environments/@current/session_recording_playlists/${created.short_id}/`);
      expect(current.status).to.equal(200);
      expect(current.body.id).to.equal(created.id);
    });

    it('answers 404 for an unknown short id', async () => {
      const res = await http.get(`${base}nOsUchId/`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_FOUND);
    });

    it('answers 404 for a playlist of another environment of the same user', async () => {
      const org = await http.post('/api/organizations/', { name: unique('Elsewhere') });
      const elsewhere = `/api/environments/${org.body.teams[0].id}/session_recording_playlists/`;
      const theirs = await createCollection({}, http, elsewhere);
      expect((await http.get(`${elsewhere}${theirs.short_id}/`)).status).to.equal(200);
      const res = await http.get(`${base}${theirs.short_id}/`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_FOUND);
    });

    it('answers 404 to a key of another organization', async () => {
      const created = await createCollection();
      const stranger = await newAccount(testDb());
      const res = await server.http.withKey(stranger.key).get(`${base}${created.short_id}/`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ ...NOT_FOUND, detail: 'Project not found.' });
    });

    it('is allowed with the read scope', async () => {
      const created = await createCollection();
      const reader = await newMember(testDb(), owner.organization, MembershipLevel.member, {
        scopes: ['session_recording_playlist:read'],
      });
      const res = await server.http.withKey(reader.key).get(`${base}${created.short_id}/`);
      expect(res.status).to.equal(200);
    });
  });

  describe('environments_session_recording_playlists_partial_update', () => {
    let editor: { user: UserRow; key: string };
    let editorHttp: HttpClient;

    before(async () => {
      editor = await newMember(testDb(), owner.organization, MembershipLevel.member, {
        scopes: ['session_recording_playlist:write'],
      });
      editorHttp = server.http.withKey(editor.key);
    });

    it('changes name, description and filters, and records who changed them and when', async () => {
      const created = await createSavedFilter();
      await backdate(created.short_id);
      const filters = { events: [{ id: 'updated' }] };
      const res = await editorHttp.patch(`${base}${created.short_id}/`, {
        name: 'changed name',
        description: 'changed description',
        filters,
      });
      expect(res.status).to.equal(200);
      expect(Object.keys(res.body).sort()).to.deep.equal(PLAYLIST_KEYS);
      expect(res.body).to.deep.include({
        id: created.id,
        short_id: created.short_id,
        name: 'changed name',
        description: 'changed description',
        filters,
        type: 'filters',
        created_by: userBasic(owner.user),
        last_modified_by: userBasic(editor.user),
        created_at: LONG_AGO,
      });
      expect(Date.now() - Date.parse(res.body.last_modified_at)).to.be.within(0, 60_000);
      const row = await playlistRow(created.short_id);
      expect(row).to.include({ name: 'changed name', last_modified_by: editor.user.id });
    });

    for (const [field, value] of [
      ['name', 'renamed'],
      ['description', 'described'],
    ] as const) {
      it(`bumps last_modified_at/by when only ${field} changes`, async () => {
        const created = await createCollection();
        await backdate(created.short_id);
        const res = await editorHttp.patch(`${base}${created.short_id}/`, { [field]: value });
        expect(res.status).to.equal(200);
        expect(res.body[field]).to.equal(value);
        expect(res.body.last_modified_at).to.not.equal(LONG_AGO);
        expect(res.body.last_modified_by).to.deep.equal(userBasic(editor.user));
      });
    }

    const immaterial: [string, Record<string, unknown>][] = [
      ['pinned', { pinned: true }],
      ['derived_name', { derived_name: 'Derived' }],
      ['deleted', { deleted: true }],
      ['nothing at all', {}],
      ['the same name again', { name: 'SAME' }],
      ['the same filters, keys in another order', { filters: { b: 2, a: 1 } }],
    ];
    for (const [what, body] of immaterial) {
      it(`leaves last_modified_at/by alone when the PATCH changes ${what}`, async () => {
        const created = await createSavedFilter({ name: 'SAME', filters: { a: 1, b: 2 } });
        await backdate(created.short_id);
        const res = await editorHttp.patch(`${base}${created.short_id}/`, body);
        expect(res.status).to.equal(200);
        for (const [field, value] of Object.entries(body)) expect(res.body[field]).to.deep.equal(value);
        expect(res.body.last_modified_at).to.equal(LONG_AGO);
        expect(res.body.last_modified_by).to.deep.equal(userBasic(owner.user));
      });
    }

    it('ignores read-only fields and _create_in_folder', async () => {
      const created = await createCollection({ _create_in_folder: 'Folder A' });
      const res = await http.patch(`${base}${created.short_id}/`, {
        short_id: 'something else',
        type: 'filters',
        id: 1,
        created_at: LONG_AGO,
        recordings_counts: {},
        is_synthetic: true,
        _create_in_folder: 'Folder B',
        name: 'updated name',
        pinned: true,
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({
        id: created.id,
        short_id: created.short_id,
        type: 'collection',
        created_at: created.created_at,
        name: 'updated name',
        pinned: true,
        is_synthetic: false,
      });
      expect((await playlistRow(created.short_id)).create_in_folder).to.equal('Folder A');
    });

    it('lets a saved filter be renamed without sending its filters', async () => {
      const created = await createSavedFilter();
      const res = await http.patch(`${base}${created.short_id}/`, { name: 'renamed' });
      expect(res.status).to.equal(200);
      expect(res.body.filters).to.deep.equal(created.filters);
    });

    it('accepts empty filters on a collection (with a soft delete)', async () => {
      const created = await createCollection();
      const res = await http.patch(`${base}${created.short_id}/`, { filters: {}, deleted: true });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ filters: {}, deleted: true });
    });

    const refused: [string, 'collection' | 'filters', Record<string, unknown>, string][] = [
      ['filters on a collection', 'collection', { filters: { events: [{ id: 'x' }] } }, 'You cannot update a collection to add filters'],
      ['a type change to filters, with filters', 'collection', { type: 'filters', filters: { events: [{ id: 'x' }] } }, 'You cannot update a collection to add filters'],
      ['empty filters on a saved filter', 'filters', { filters: {} }, 'You cannot remove all filters when updating a saved filter'],
      ['null filters on a saved filter', 'filters', { filters: null, name: 'x' }, 'You cannot remove all filters when updating a saved filter'],
      ['an empty list of filters on a saved filter', 'filters', { filters: [] }, 'You cannot remove all filters when updating a saved filter'],
    ];
    for (const [what, type, body, detail] of refused) {
      it(`answers 400 "${detail}" for ${what}, changing nothing`, async () => {
        const created = type === 'collection' ? await createCollection() : await createSavedFilter();
        const before = await playlistRow(created.short_id);
        const res = await http.patch(`${base}${created.short_id}/`, body);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal(validationError(detail));
        expect(await playlistRow(created.short_id)).to.deep.equal(before);
      });
    }

    it('answers 400 for a field that fails validation', async () => {
      const created = await createCollection();
      const res = await http.patch(`${base}${created.short_id}/`, { name: 'x'.repeat(401) });
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.include({ code: 'max_length', attr: 'name' });
    });

    it('answers 404 for an unknown short id and to a key of another organization', async () => {
      const missing = await http.patch(`${base}nOsUchId/`, { name: 'x' });
      expect(missing.status).to.equal(404);
      expect(missing.body).to.deep.equal(NOT_FOUND);
      const created = await createCollection();
      const stranger = await newAccount(testDb());
      const res = await server.http.withKey(stranger.key).patch(`${base}${created.short_id}/`, { name: 'hacked' });
      expect(res.status).to.equal(404);
      expect((await playlistRow(created.short_id)).name).to.equal(created.name);
    });

    it('needs the write scope', async () => {
      const created = await createCollection();
      const reader = await newMember(testDb(), owner.organization, MembershipLevel.member, {
        scopes: ['session_recording_playlist:read'],
      });
      const res = await server.http.withKey(reader.key).patch(`${base}${created.short_id}/`, { name: 'x' });
      expect(res.status).to.equal(403);
      expect((await playlistRow(created.short_id)).name).to.equal(created.name);
    });
  });

  describe('soft delete and restore', () => {
    it('hides a playlist deleted with PATCH from retrieve, list and recordings, and restores it', async () => {
      const created = await createCollection();
      const item = `${base}${created.short_id}/`;
      await http.post(`${item}recordings/session-1/`);

      const deleted = await http.patch(item, { deleted: true });
      expect(deleted.status).to.equal(200);
      expect(deleted.body.deleted).to.equal(true);
      expect((await playlistRow(created.short_id)).deleted).to.equal(true);

      expect((await http.get(item)).status).to.equal(404);
      const listed = await http.get(`${base}?short_id=${created.short_id}`);
      expect(listed.body).to.include({ count: 0 });
      expect((await http.get(`${item}recordings/`)).status).to.equal(404);
      expect((await http.post(`${item}recordings/session-2/`)).status).to.equal(404);
      expect((await http.delete(`${item}recordings/session-1/`)).status).to.equal(404);

      const restored = await http.patch(item, { deleted: false });
      expect(restored.status).to.equal(200);
      expect(restored.body.deleted).to.equal(false);
      expect(restored.body.recordings_counts.collection.count).to.equal(1);
      expect((await http.get(item)).status).to.equal(200);
      expect((await http.get(`${base}?short_id=${created.short_id}`)).body.count).to.equal(1);
    });
  });

  describe('environments_session_recording_playlists_destroy', () => {
    const refusal = { type: 'invalid_request', code: 'method_not_allowed', detail: 'Method "DELETE" not allowed.', attr: null };

    it('answers 405 in the error format, with what the path allows, and deletes nothing', async () => {
      const created = await createCollection();
      const res = await http.delete(`${base}${created.short_id}/`);
      expect([res.status, res.headers.get('allow'), res.body]).to.deep.equal([405, 'GET, HEAD, PATCH', refusal]);
      expect(await playlistRow(created.short_id)).to.include({ id: created.id, deleted: false });
      expect((await http.get(`${base}${created.short_id}/`)).status).to.equal(200);
    });

    it('answers 405 whether or not the playlist exists', async () => {
      const res = await http.delete(`${base}nOsUchId/`);
      expect([res.status, res.body]).to.deep.equal([405, refusal]);
    });

    it('checks the write scope first: 403 for a read-only key', async () => {
      const created = await createCollection();
      const reader = await newMember(testDb(), owner.organization, MembershipLevel.member, {
        scopes: ['session_recording_playlist:read'],
      });
      const res = await server.http.withKey(reader.key).delete(`${base}${created.short_id}/`);
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({
        type: 'authentication_error',
        code: 'permission_denied',
        detail: "API key missing required scope 'session_recording_playlist:write'",
        attr: null,
      });
      expect(await playlistRow(created.short_id)).to.include({ deleted: false });
    });

    it('answers 404 to a key of another organization', async () => {
      const created = await createCollection();
      const stranger = await newAccount(testDb());
      const res = await server.http.withKey(stranger.key).delete(`${base}${created.short_id}/`);
      expect(res.status).to.equal(404);
      expect(await playlistRow(created.short_id)).to.include({ deleted: false });
    });
  });

  describe('environments_session_recording_playlists_list', () => {
    let lister: Account;
    let member: { user: UserRow; key: string };
    let listHttp: HttpClient;
    let listBase: string;
    /** short ids by name */
    const ids: Record<string, string> = {};

    /** The names of the listed playlists, in order. */
    const names = async (query: string) => {
      const res = await listHttp.get(`${listBase}${query}`);
      expect(res.status, res.text).to.equal(200);
      return res.body.results.map((playlist: { name: string | null; derived_name: string | null }) => playlist.name ?? playlist.derived_name);
    };

    before(async () => {
      lister = await newAccount(testDb());
      member = await newMember(testDb(), lister.organization, MembershipLevel.member);
      listHttp = server.http.withKey(lister.key);
      listBase = playlistsPath(lister);
      const made: [string, Record<string, unknown>, HttpClient][] = [
        ['Alpha checkout', { type: 'collection', pinned: true }, listHttp],
        ['Beta CHECKOUT', { type: 'filters', filters: { a: 1 } }, listHttp],
        ['Gamma', { type: 'collection', name: null, derived_name: 'Gamma' }, listHttp],
        ['Delta 100%', { type: 'filters', filters: { b: 1 }, pinned: true }, server.http.withKey(member.key)],
        ['Epsilon', { type: 'collection' }, listHttp],
        ['Zeta deleted', { type: 'collection' }, listHttp],
      ];
      for (const [index, [name, body, client]] of made.entries()) {
        const res = await client.post(listBase, { name, ...body });
        expect(res.status, res.text).to.equal(201);
        ids[name] = res.body.short_id;
        // Modified in creation order, created in the reverse order, a day apart.
        await testDb()('session_recording_playlists')
          .where({ id: res.body.id })
          .update({
            last_modified_at: new Date(Date.UTC(2026, 0, 1 + index)),
            created_at: new Date(Date.UTC(2026, 0, 10 - index)),
          });
      }
      await listHttp.patch(`${listBase}${ids['Zeta deleted']}/`, { deleted: true });
    });

    it('lists the environment’s playlists that are not deleted, most recently modified first', async () => {
      const res = await listHttp.get(listBase);
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ count: 5, next: null, previous: null });
      expect(res.body.results.map((p: { short_id: string }) => p.short_id)).to.deep.equal(
        ['Epsilon', 'Delta 100%', 'Gamma', 'Beta CHECKOUT', 'Alpha checkout'].map((name) => ids[name]),
      );
      for (const playlist of res.body.results) expect(Object.keys(playlist).sort()).to.deep.equal(PLAYLIST_KEYS);
      const delta = res.body.results.find((p: { short_id: string }) => p.short_id === ids['Delta 100%']);
      expect(delta.created_by).to.deep.equal(userBasic(member.user));
      expect(delta.last_modified_by).to.deep.equal(userBasic(member.user));
    });

    it('orders by any known field, either way', async () => {
      expect(await names('?order=last_modified_at')).to.deep.equal(['Alpha checkout', 'Beta CHECKOUT', 'Gamma', 'Delta 100%', 'Epsilon']);
      expect(await names('?order=-created_at')).to.deep.equal(['Alpha checkout', 'Beta CHECKOUT', 'Gamma', 'Delta 100%', 'Epsilon']);
      expect(await names('?order=created_at')).to.deep.equal(['Epsilon', 'Delta 100%', 'Gamma', 'Beta CHECKOUT', 'Alpha checkout']);
      // Ascending puts null names last, as PostgreSQL (and so PostHog) does.
      expect(await names('?order=name')).to.deep.equal(['Alpha checkout', 'Beta CHECKOUT', 'Delta 100%', 'Epsilon', 'Gamma']);
      expect(await names('?order=-id')).to.deep.equal(['Epsilon', 'Delta 100%', 'Gamma', 'Beta CHECKOUT', 'Alpha checkout']);
      expect(await names('?order=-pinned')).to.deep.equal(['Delta 100%', 'Alpha checkout', 'Epsilon', 'Gamma', 'Beta CHECKOUT']);
      expect(await names('?order=type')).to.deep.equal(['Alpha checkout', 'Gamma', 'Epsilon', 'Beta CHECKOUT', 'Delta 100%']);
    });

    it('refuses an order that is not a known field, without running it', async () => {
      for (const order of ['team_id', 'name;drop table users', '--name', 'created_at desc', '']) {
        const res = await listHttp.get(`${listBase}?order=${encodeURIComponent(order)}`);
        expect(res.status, order).to.equal(400);
        expect(res.body).to.deep.equal({
          type: 'validation_error',
          code: 'invalid_choice',
          detail: `"${order}" is not a valid choice.`,
          attr: 'order',
        });
      }
    });

    it('answers 400 naming the parameter for a creator id or an offset beyond what can exist', async () => {
      for (const [query, attr] of [
        ['created_by=2147483648', 'created_by'],
        ['offset=99999999999999999999', 'offset'],
      ]) {
        const res = await listHttp.get(`${listBase}?${query}`);
        expect([res.status, res.body.attr], query).to.deep.equal([400, attr]);
      }
    });

    it('filters by search on name or derived name, ignoring case and taking wildcards literally', async () => {
      expect(await names('?search=checkout')).to.deep.equal(['Beta CHECKOUT', 'Alpha checkout']);
      expect(await names('?search=GAMM')).to.deep.equal(['Gamma']);
      expect(await names(`?search=${encodeURIComponent('%')}`)).to.deep.equal(['Delta 100%']);
      expect(await names('?search=_')).to.deep.equal([]);
      expect(await names('?search=deleted')).to.deep.equal([]);
    });

    it('filters by pinned, type, created_by and short_id, and combines filters', async () => {
      expect(await names('?pinned=true')).to.deep.equal(['Delta 100%', 'Alpha checkout']);
      expect(await names('?pinned=false')).to.deep.equal(['Epsilon', 'Gamma', 'Beta CHECKOUT']);
      expect(await names('?type=filters')).to.deep.equal(['Delta 100%', 'Beta CHECKOUT']);
      expect(await names('?type=collection')).to.deep.equal(['Epsilon', 'Gamma', 'Alpha checkout']);
      expect(await names(`?created_by=${member.user.id}`)).to.deep.equal(['Delta 100%']);
      expect(await names(`?created_by=${lister.user.id}&type=collection&pinned=true`)).to.deep.equal(['Alpha checkout']);
      expect(await names(`?short_id=${ids.Gamma}`)).to.deep.equal(['Gamma']);
      expect(await names(`?short_id=${ids['Zeta deleted']}`)).to.deep.equal([]);
    });

    it('answers 400 for filter values of the wrong kind', async () => {
      const cases: [string, string, string][] = [
        ['type=tomato', 'type', 'invalid_choice'],
        ['pinned=perhaps', 'pinned', 'invalid_input'],
        ['created_by=me', 'created_by', 'invalid_input'],
        ['limit=0', 'limit', 'min_value'],
        ['user=true', 'user', 'unknown_field'],
      ];
      for (const [query, attr, code] of cases) {
        const res = await listHttp.get(`${listBase}?${query}`);
        expect(res.status, query).to.equal(400);
        expect(res.body, query).to.deep.include({ type: 'validation_error', attr, code });
      }
    });

    it('pages with limit and offset, keeping the other parameters in the links', async () => {
      const first = await listHttp.get(`${listBase}?type=collection&limit=2`);
      expect(first.body.count).to.equal(3);
      expect(first.body.results.map((p: { name: string | null }) => p.name)).to.deep.equal(['Epsilon', null]);
      expect(first.body.previous).to.equal(null);
      const next = new URL(first.body.next);
      expect(next.pathname).to.equal(listBase);
      expect(Object.fromEntries(next.searchParams)).to.deep.equal({ type: 'collection', limit: '2', offset: '2' });

      const second = await listHttp.get(`${next.pathname}${next.search}`);
      expect(second.body.results.map((p: { name: string }) => p.name)).to.deep.equal(['Alpha checkout']);
      expect(second.body.next).to.equal(null);
      const previous = new URL(second.body.previous);
      expect(Object.fromEntries(previous.searchParams)).to.deep.equal({ type: 'collection', limit: '2' });

      const middle = await listHttp.get(`${listBase}?limit=1&offset=3`);
      expect(middle.body.results.map((p: { name: string }) => p.name)).to.deep.equal(['Beta CHECKOUT']);
      expect(Object.fromEntries(new URL(middle.body.previous).searchParams)).to.deep.equal({ limit: '1', offset: '2' });
      expect(Object.fromEntries(new URL(middle.body.next).searchParams)).to.deep.equal({ limit: '1', offset: '4' });
    });

    it('lists nothing of other environments', async () => {
      const res = await http.get(`${base}?short_id=${ids.Gamma}`);
      expect(res.body.count).to.equal(0);
    });

    it('answers 404 to a key of another organization', async () => {
      const res = await http.get(listBase);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ ...NOT_FOUND, detail: 'Project not found.' });
    });
  });

  describe('pinned recordings — …/{short_id}/recordings/', () => {
    describe('environments_session_recording_playlists_recordings_create', () => {
      it('pins recordings to a collection once each, counting them', async () => {
        const created = await createCollection();
        const item = `${base}${created.short_id}/`;
        const counts = async () => (await http.get(item)).body.recordings_counts;
        expect(await counts()).to.deep.equal(NO_COUNTS);

        const pinned = await http.post(`${item}recordings/session-a/`);
        expect(pinned.status).to.equal(200);
        expect(pinned.body).to.deep.equal({ success: true });
        expect((await counts()).collection).to.deep.equal({ count: 1, watched_count: 0 });

        expect((await http.post(`${item}recordings/session-a/`)).status).to.equal(200);
        expect((await counts()).collection.count).to.equal(1);
        await http.post(`${item}recordings/session-b/`);
        await http.post(`${item}recordings/session-c/`);
        const all = await counts();
        expect(all.collection.count).to.equal(3);
        expect(all.saved_filters).to.deep.equal(NO_COUNTS.saved_filters);
        const items = await testDb()('session_recording_playlist_items').where({ playlist_id: created.id }).orderBy('id');
        expect(items.map((row: { session_id: string }) => row.session_id)).to.deep.equal(['session-a', 'session-b', 'session-c']);
      });

      it('shows the pinned count in the list', async () => {
        const created = await createCollection();
        await http.post(`${base}${created.short_id}/recordings/one/`);
        await http.post(`${base}${created.short_id}/recordings/two/`);
        const res = await http.get(`${base}?short_id=${created.short_id}`);
        expect(res.body.results[0].recordings_counts.collection).to.deep.equal({ count: 2, watched_count: 0 });
      });

      it(`refuses to pin to a saved filter: 400 "Cannot add recordings to a playlist that is type 'filters'."`, async () => {
        const created = await createSavedFilter();
        const res = await http.post(`${base}${created.short_id}/recordings/session-x/`);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal(validationError("Cannot add recordings to a playlist that is type 'filters'."));
        expect(await testDb()('session_recording_playlist_items').where({ playlist_id: created.id })).to.deep.equal([]);
        const listed = await http.get(`${base}${created.short_id}/recordings/`);
        expect(listed.body).to.deep.equal({ results: [], has_next: false });
      });

      it('answers 400 for a session id over 200 characters', async () => {
        const created = await createCollection();
        const res = await http.post(`${base}${created.short_id}/recordings/${'s'.repeat(201)}/`);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.include({ code: 'max_length', attr: 'session_recording_id' });
      });
    });

    describe('environments_session_recording_playlists_recordings_retrieve', () => {
      it('lists the pinned recordings most recent first, in pages', async () => {
        const created = await createCollection();
        const item = `${base}${created.short_id}/`;
        for (const session of ['session-a', 'session-b', 'session-c']) await http.post(`${item}recordings/${session}/`);

        const listed = await http.get(`${item}recordings/`);
        expect(listed.status).to.equal(200);
        expect(listed.body).to.deep.equal({
          results: [{ id: 'session-c' }, { id: 'session-b' }, { id: 'session-a' }],
          has_next: false,
        });
        const page = await http.get(`${item}recordings/?limit=2`);
        expect(page.body).to.deep.equal({ results: [{ id: 'session-c' }, { id: 'session-b' }], has_next: true });
        const rest = await http.get(`${item}recordings/?limit=2&offset=2`);
        expect(rest.body).to.deep.equal({ results: [{ id: 'session-a' }], has_next: false });
      });
    });

    describe('environments_session_recording_playlists_recordings_destroy', () => {
      it('unpins recordings, down to no counts and no rows', async () => {
        const created = await createCollection();
        const item = `${base}${created.short_id}/`;
        for (const session of ['session-a', 'session-b', 'session-c']) await http.post(`${item}recordings/${session}/`);

        const unpinned = await http.delete(`${item}recordings/session-b/`);
        expect(unpinned.status).to.equal(200);
        expect(unpinned.body).to.deep.equal({ success: true });
        expect((await http.get(`${item}recordings/`)).body.results).to.deep.equal([{ id: 'session-c' }, { id: 'session-a' }]);
        await http.delete(`${item}recordings/session-a/`);
        await http.delete(`${item}recordings/session-c/`);
        expect((await http.get(item)).body.recordings_counts).to.deep.equal(NO_COUNTS);
        expect(await testDb()('session_recording_playlist_items').where({ playlist_id: created.id })).to.deep.equal([]);
      });

      it('unpins the same recording from one playlist, leaving the others', async () => {
        const first = await createCollection();
        const second = await createCollection();
        await http.post(`${base}${first.short_id}/recordings/shared/`);
        await http.post(`${base}${second.short_id}/recordings/shared/`);
        await http.delete(`${base}${first.short_id}/recordings/shared/`);
        expect((await http.get(`${base}${first.short_id}/recordings/`)).body.results).to.deep.equal([]);
        expect((await http.get(`${base}${second.short_id}/recordings/`)).body.results).to.deep.equal([{ id: 'shared' }]);
      });
    });

    it('answers 404 for an unknown playlist, or a recording that is not pinned', async () => {
      for (const [method, path] of [
        ['GET', `${base}nOsUchId/recordings/`],
        ['POST', `${base}nOsUchId/recordings/session-1/`],
        ['DELETE', `${base}nOsUchId/recordings/session-1/`],
      ] as const) {
        const res = await http.request(method, path);
        expect(res.status, method).to.equal(404);
        expect(res.body).to.deep.equal(NOT_FOUND);
      }
      const created = await createCollection();
      const res = await http.delete(`${base}${created.short_id}/recordings/never-pinned/`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(NOT_FOUND);
    });

    it('reads with the read scope, changes only with the write scope', async () => {
      const created = await createCollection();
      await http.post(`${base}${created.short_id}/recordings/kept/`);
      const reader = server.http.withKey(
        (await newMember(testDb(), owner.organization, MembershipLevel.member, { scopes: ['session_recording_playlist:read'] })).key,
      );
      expect((await reader.get(`${base}${created.short_id}/recordings/`)).status).to.equal(200);
      expect((await reader.post(`${base}${created.short_id}/recordings/other/`)).status).to.equal(403);
      expect((await reader.delete(`${base}${created.short_id}/recordings/kept/`)).status).to.equal(403);
      expect((await http.get(`${base}${created.short_id}/recordings/`)).body.results).to.deep.equal([{ id: 'kept' }]);
    });

    it('answers 404 to a key of another organization', async () => {
      const created = await createCollection();
      const stranger = server.http.withKey((await newAccount(testDb())).key);
      for (const [method, path] of [
        ['GET', `${base}${created.short_id}/recordings/`],
        ['POST', `${base}${created.short_id}/recordings/intruder/`],
        ['DELETE', `${base}${created.short_id}/recordings/intruder/`],
      ] as const) {
        expect((await stranger.request(method, path)).status, method).to.equal(404);
      }
      expect(await testDb()('session_recording_playlist_items').where({ playlist_id: created.id })).to.deep.equal([]);
    });
  });

  describe('playlists follow their environment', () => {
    it('are deleted with their organization, pinned recordings included', async () => {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      const created = await createCollection({}, client, playlistsPath(account));
      await client.post(`${playlistsPath(account)}${created.short_id}/recordings/gone/`);
      const res = await client.delete(`/api/organizations/${account.organization.id}/`);
      expect(res.status).to.equal(204);
      expect(await playlistRow(created.short_id)).to.equal(undefined);
      expect(await testDb()('session_recording_playlist_items').where({ playlist_id: created.id })).to.deep.equal([]);
    });

    it('move with the environment rollback', async () => {
      const account = await newAccount(testDb());
      const client = server.http.withKey(account.key);
      const { environment: source } = await createProject(testDb(), account.organization.id, 'Second');
      const sourcePath = `/api/environments/${source.id}/session_recording_playlists/`;
      const created = await createCollection({}, client, sourcePath);
      await client.post(`${sourcePath}${created.short_id}/recordings/moved/`);

      const res = await client.post(`/api/organizations/${account.organization.id}/environments_rollback/`, {
        [String(source.id)]: account.environment.id,
      });
      expect(res.status).to.equal(200);
      expect((await playlistRow(created.short_id)).team_id).to.equal(account.environment.id);
      const moved = await client.get(`${playlistsPath(account)}${created.short_id}/`);
      expect(moved.status).to.equal(200);
      expect(moved.body.recordings_counts.collection.count).to.equal(1);
    });
  });
});
