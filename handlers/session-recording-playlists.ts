/**
 * Session recording playlists: list, create, read, update (including the soft delete and its undo), the
 * refused hard delete, and the recordings pinned to a collection. The rules on `type` and `filters` are
 * PostHog's, with its messages.
 */
import {
  DEFAULT_PLAYLIST_ORDER,
  createPlaylist,
  findPlaylistRow,
  getPlaylist,
  isEmptyFilters,
  listPinnedRecordings,
  listPlaylists,
  pinRecording,
  playlistOrder,
  unpinRecording,
  updatePlaylist,
  type PlaylistChanges,
} from '../db/queries/session-recording-playlists.js';
import type { Db } from '../db/pg/client.js';
import type { PlaylistType, SessionRecordingPlaylistRow } from '../db/rows.js';
import { errors } from '../db/core/errors.js';
import { pageLinks, pageOf } from './pagination.js';
import { environmentOf, principalOf, type Handler, type RequestState } from './types.js';

/** The page size of the pinned recordings when the request gives none, as PostHog's. */
const PINNED_RECORDINGS_PAGE_SIZE = 50;

const teamOf = (state: RequestState): number => environmentOf(state).environment.id;

function playlistTypeOf(value: unknown): PlaylistType {
  if (value === 'collection' || value === 'filters') return value;
  throw errors.validation('Must provide a valid playlist type: either filters or collection');
}

/** The playlist the path names, unless it is deleted: 404 otherwise. */
async function visiblePlaylist(db: Db, state: RequestState, shortId: string): Promise<SessionRecordingPlaylistRow> {
  const row = await findPlaylistRow(db, teamOf(state), shortId);
  if (!row) throw errors.notFound();
  return row;
}

export const environments_session_recording_playlists_list: Handler<
  'environments_session_recording_playlists_list'
> = async ({ query, state, deps, ctx }) => {
  const page = pageOf(query);
  const requested = query.order ?? DEFAULT_PLAYLIST_ORDER;
  const order = playlistOrder(requested);
  if (!order) throw errors.validation(`"${requested}" is not a valid choice.`, 'order', 'invalid_choice');
  const filters = {
    createdBy: query.created_by,
    shortId: query.short_id,
    search: query.search,
    pinned: query.pinned,
    type: query.type,
  };
  const { results, count } = await listPlaylists(deps.db, teamOf(state), filters, order, page);
  return { status: 200, body: { count, ...pageLinks(ctx, page, count), results } };
};

export const environments_session_recording_playlists_create: Handler<
  'environments_session_recording_playlists_create'
> = async ({ body, state, deps }) => {
  const type = playlistTypeOf(body.type);
  if (type === 'collection' && !isEmptyFilters(body.filters)) {
    throw errors.validation('You cannot create a collection with filters');
  }
  if (type === 'filters' && isEmptyFilters(body.filters)) {
    throw errors.validation('You must provide a valid filters when creating a saved filter');
  }
  const playlist = await createPlaylist(deps.db, teamOf(state), principalOf(state).user.id, {
    type,
    name: body.name,
    derived_name: body.derived_name,
    description: body.description,
    pinned: body.pinned,
    deleted: body.deleted,
    filters: body.filters,
    create_in_folder: body._create_in_folder,
  });
  return { status: 201, body: playlist };
};

export const environments_session_recording_playlists_retrieve: Handler<
  'environments_session_recording_playlists_retrieve'
> = async ({ params, state, deps }) => {
  const playlist = await getPlaylist(deps.db, teamOf(state), params.short_id);
  if (!playlist) throw errors.notFound();
  return { status: 200, body: playlist };
};

export const environments_session_recording_playlists_partial_update: Handler<
  'environments_session_recording_playlists_partial_update'
> = async ({ params, body, state, deps }) => {
  // Updates reach deleted playlists too: that is how a soft delete is undone.
  const row = await findPlaylistRow(deps.db, teamOf(state), params.short_id, { includeDeleted: true });
  if (!row) throw errors.notFound();
  const changes: PlaylistChanges = {
    name: body.name,
    derived_name: body.derived_name,
    description: body.description,
    pinned: body.pinned,
    deleted: body.deleted,
  };
  if ('filters' in body) {
    if (row.type === 'collection' && !isEmptyFilters(body.filters)) {
      throw errors.validation('You cannot update a collection to add filters');
    }
    if (row.type === 'filters' && isEmptyFilters(body.filters)) {
      throw errors.validation('You cannot remove all filters when updating a saved filter');
    }
    changes.filters = body.filters;
  }
  const playlist = await updatePlaylist(deps.db, row.team_id, row.id, principalOf(state).user.id, changes);
  if (!playlist) throw errors.notFound();
  return { status: 200, body: playlist };
};

/**
 * Hard delete is refused, whether or not the playlist exists, as PostHog refuses it (soft delete is a PATCH); the
 * scope and the project were checked before.
 */
export const environments_session_recording_playlists_destroy: Handler<
  'environments_session_recording_playlists_destroy'
> = async ({ ctx, allowedMethods }) => {
  throw errors.methodNotAllowed(ctx.method, allowedMethods());
};

export const environments_session_recording_playlists_recordings_retrieve: Handler<
  'environments_session_recording_playlists_recordings_retrieve'
> = async ({ params, query, state, deps }) => {
  const playlist = await visiblePlaylist(deps.db, state, params.short_id);
  const page = { limit: query.limit ?? PINNED_RECORDINGS_PAGE_SIZE, offset: query.offset ?? 0 };
  return { status: 200, body: await listPinnedRecordings(deps.db, playlist.team_id, playlist.id, page) };
};

export const environments_session_recording_playlists_recordings_create: Handler<
  'environments_session_recording_playlists_recordings_create'
> = async ({ params, state, deps }) => {
  const playlist = await visiblePlaylist(deps.db, state, params.short_id);
  if (playlist.type === 'filters') {
    throw errors.validation("Cannot add recordings to a playlist that is type 'filters'.");
  }
  await pinRecording(deps.db, playlist.team_id, playlist.id, params.session_recording_id);
  return { status: 200, body: { success: true } };
};

export const environments_session_recording_playlists_recordings_destroy: Handler<
  'environments_session_recording_playlists_recordings_destroy'
> = async ({ params, state, deps }) => {
  const playlist = await visiblePlaylist(deps.db, state, params.short_id);
  const unpinned = await unpinRecording(deps.db, playlist.team_id, playlist.id, params.session_recording_id);
  if (!unpinned) throw errors.notFound();
  return { status: 200, body: { success: true } };
};
