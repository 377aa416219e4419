/**
 * Session recording playlists of an environment and the recordings pinned to them.
 *
 * Every function takes the environment (team) id the caller was resolved to, so a playlist of another
 * environment is never reachable. Soft-deleted playlists are invisible except to `findPlaylistRow(…,
 * { includeDeleted: true })`, which the update uses so that a PATCH can restore them.
 */
import type { Knex } from 'knex';
import type { components } from '../../generated/api.js';
import { errors } from '../core/errors.js';
import type { Db } from '../pg/client.js';
import { escapeLike } from '../core/text.js';
import { translated } from '../pg/errors.js';
import { paginate, type Page } from '../pagination.js';
import type { PlaylistType, SessionRecordingPlaylistRow, UserRow } from '../rows.js';
import { newShortId } from '../tokens.js';
import { toUserBasic } from './users.js';

export type Playlist = components['schemas']['SessionRecordingPlaylist'];
export type PlaylistRecordings = components['schemas']['PlaylistRecordings'];
type RecordingsCounts = components['schemas']['RecordingsCounts'];

const TABLE = 'session_recording_playlists';
const ITEMS = 'session_recording_playlist_items';

export interface PlaylistFilters {
  createdBy?: number;
  shortId?: string;
  /** Case-insensitive substring of `name` or `derived_name`. */
  search?: string;
  pinned?: boolean;
  type?: PlaylistType;
}

/**
 * The sort keys the list accepts and the column each stands for. The request's `order` is only ever used to
 * look a column up here; its text never reaches SQL.
 */
const ORDER_COLUMNS = {
  id: 'p.id',
  short_id: 'p.short_id',
  name: 'p.name',
  derived_name: 'p.derived_name',
  description: 'p.description',
  pinned: 'p.pinned',
  type: 'p.type',
  created_at: 'p.created_at',
  created_by: 'p.created_by',
  last_modified_at: 'p.last_modified_at',
  last_modified_by: 'p.last_modified_by',
} as const;

export const DEFAULT_PLAYLIST_ORDER = '-last_modified_at';

export interface PlaylistOrder {
  column: (typeof ORDER_COLUMNS)[keyof typeof ORDER_COLUMNS];
  direction: 'asc' | 'desc';
}

/** `name` → ascending, `-name` → descending; null for anything that is not a known sort key. */
export function playlistOrder(order: string): PlaylistOrder | null {
  const descending = order.startsWith('-');
  const key = descending ? order.slice(1) : order;
  if (!Object.hasOwn(ORDER_COLUMNS, key)) return null;
  return { column: ORDER_COLUMNS[key as keyof typeof ORDER_COLUMNS], direction: descending ? 'desc' : 'asc' };
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards in `text` taken literally. */
function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}

/** Whether a `filters` value counts as "no filters": null, or an empty object, array or string. */
export function isEmptyFilters(filters: unknown): boolean {
  if (filters === null || filters === undefined) return true;
  if (typeof filters === 'string' || Array.isArray(filters)) return filters.length === 0;
  if (typeof filters === 'object') return Object.keys(filters).length === 0;
  return false;
}

/** The jsonb parameter for any JSON value (the driver would turn arrays into PostgreSQL arrays). */
const jsonb = (value: unknown): string => JSON.stringify(value ?? null);

/** Turns rows into API playlists, loading their users and pinned-recording counts in bulk. */
async function toPlaylists(db: Db, rows: SessionRecordingPlaylistRow[]): Promise<Playlist[]> {
  if (rows.length === 0) return [];
  const userIds = [
    ...new Set(rows.flatMap((row) => [row.created_by, row.last_modified_by]).filter((id): id is number => id !== null)),
  ];
  const [users, counts] = await Promise.all([
    userIds.length > 0 ? db<UserRow>('users').whereIn('id', userIds) : Promise.resolve([] as UserRow[]),
    db(ITEMS)
      // The playlists are one environment's: naming it keeps the count on that environment's node.
      .whereIn('team_id', [...new Set(rows.map((row) => row.team_id))])
      .whereIn('playlist_id', rows.map((row) => row.id))
      .groupBy('playlist_id')
      .select<{ playlist_id: number; count: string }[]>('playlist_id', db.raw('count(*) as count')),
  ]);
  const userById = new Map(users.map((user) => [user.id, toUserBasic(user)]));
  const countById = new Map(counts.map((row) => [row.playlist_id, Number(row.count)]));
  const userOf = (id: number | null) => (id === null ? null : (userById.get(id) ?? null));
  return rows.map((row) => ({
    id: row.id,
    short_id: row.short_id,
    name: row.name,
    derived_name: row.derived_name,
    description: row.description,
    pinned: row.pinned,
    created_at: row.created_at.toISOString(),
    created_by: userOf(row.created_by),
    deleted: row.deleted,
    filters: row.filters,
    last_modified_at: row.last_modified_at.toISOString(),
    last_modified_by: userOf(row.last_modified_by),
    recordings_counts: recordingsCounts(countById.get(row.id) ?? 0),
    type: row.type,
    // PostHog's synthetic playlists are lists it makes up on the fly and never stores; every stored one is a user's.
    is_synthetic: false,
  }));
}

/**
 * PostHog's shape. Nobody's viewing of recordings is recorded, so `watched_count` is 0; the saved-filter
 * counts come from a periodic count of matching recordings that Hedgerow does not run, so they stay null.
 */
function recordingsCounts(pinned: number): RecordingsCounts {
  return {
    collection: { count: pinned > 0 ? pinned : null, watched_count: 0 },
    saved_filters: { count: null, has_more: null, watched_count: null, increased: null, last_refreshed_at: null },
  };
}

async function toPlaylist(db: Db, row: SessionRecordingPlaylistRow): Promise<Playlist> {
  const [playlist] = await toPlaylists(db, [row]);
  return playlist!;
}

/** The environment's playlists that are not deleted, filtered, in `order` (ties broken by id the same way). */
export async function listPlaylists(
  db: Db,
  teamId: number,
  filters: PlaylistFilters,
  order: PlaylistOrder,
  page: Page,
): Promise<{ results: Playlist[]; count: number }> {
  return translated(async () => {
    const query: Knex.QueryBuilder = db(`${TABLE} as p`).where({ 'p.team_id': teamId, 'p.deleted': false });
    if (filters.createdBy !== undefined) query.andWhere('p.created_by', filters.createdBy);
    if (filters.shortId !== undefined) query.andWhere('p.short_id', filters.shortId);
    if (filters.type !== undefined) query.andWhere('p.type', filters.type);
    if (filters.pinned !== undefined) query.andWhere('p.pinned', filters.pinned);
    if (filters.search !== undefined) {
      const pattern = containsPattern(filters.search);
      query.andWhere((where) => where.whereILike('p.name', pattern).orWhereILike('p.derived_name', pattern));
    }
    query.orderBy([
      { column: order.column, order: order.direction },
      { column: 'p.id', order: order.direction },
    ]);
    const { rows, count } = await paginate<SessionRecordingPlaylistRow>(query.select('p.*'), page);
    return { results: await toPlaylists(db, rows), count };
  });
}

export interface NewPlaylist {
  type: PlaylistType;
  name?: string | null;
  derived_name?: string | null;
  description?: string;
  pinned?: boolean;
  deleted?: boolean;
  filters?: unknown;
  create_in_folder?: string;
}

const SHORT_ID_ATTEMPTS = 5;

/** Creates a playlist created and last modified by `userId`, under a short id that is free in the environment. */
export async function createPlaylist(db: Db, teamId: number, userId: number, input: NewPlaylist): Promise<Playlist> {
  return translated(async () => {
    const values = {
      team_id: teamId,
      type: input.type,
      name: input.name ?? null,
      derived_name: input.derived_name ?? null,
      description: input.description ?? '',
      pinned: input.pinned ?? false,
      deleted: input.deleted ?? false,
      filters: jsonb(input.filters === undefined ? {} : input.filters),
      create_in_folder: input.create_in_folder ?? null,
      created_by: userId,
      last_modified_by: userId,
    };
    for (let attempt = 0; attempt < SHORT_ID_ATTEMPTS; attempt += 1) {
      const [row] = await db<SessionRecordingPlaylistRow>(TABLE)
        .insert({ ...values, short_id: newShortId() })
        .onConflict(['team_id', 'short_id'])
        .ignore()
        .returning('*');
      if (row) return toPlaylist(db, row);
    }
    throw errors.conflict('Could not find a free short id for the playlist; try again.');
  });
}

/** The environment's playlist with this short id; deleted ones only when asked for. */
export async function findPlaylistRow(
  db: Db,
  teamId: number,
  shortId: string,
  options: { includeDeleted?: boolean } = {},
): Promise<SessionRecordingPlaylistRow | undefined> {
  return translated(async () => {
    const query = db<SessionRecordingPlaylistRow>(TABLE).where({ team_id: teamId, short_id: shortId });
    if (!options.includeDeleted) query.andWhere({ deleted: false });
    return query.first();
  });
}

/** The environment's playlist with this short id, unless it is deleted. */
export async function getPlaylist(db: Db, teamId: number, shortId: string): Promise<Playlist | null> {
  const row = await findPlaylistRow(db, teamId, shortId);
  return row ? toPlaylist(db, row) : null;
}

export interface PlaylistChanges {
  name?: string | null;
  derived_name?: string | null;
  description?: string;
  pinned?: boolean;
  deleted?: boolean;
  /** Present (even as null) only when the request sets the filters. */
  filters?: unknown;
}

/** Changing one of these materially alters the playlist: it bumps `last_modified_at` and `last_modified_by`. */
const MATERIAL_FIELDS = ['name', 'description', 'filters'] as const;

/**
 * Applies the changes to the playlist. `last_modified_at`/`last_modified_by` move to now and `userId` only when
 * a material field ends up different from what it was (compared in SQL, so `filters` compares as JSON).
 */
export async function updatePlaylist(
  db: Db,
  teamId: number,
  playlistId: number,
  userId: number,
  changes: PlaylistChanges,
): Promise<Playlist | null> {
  return translated(async () => {
    const sets: Record<string, unknown> = {};
    for (const field of ['name', 'derived_name', 'description', 'pinned', 'deleted'] as const) {
      if (changes[field] !== undefined) sets[field] = changes[field];
    }
    if ('filters' in changes) sets.filters = jsonb(changes.filters);

    const material = MATERIAL_FIELDS.filter((field) => field in sets);
    if (material.length > 0) {
      const changed = material
        .map((field) => (field === 'filters' ? '?? is distinct from ?::jsonb' : '?? is distinct from ?'))
        .join(' or ');
      const bindings = material.flatMap((field) => [field, sets[field]]) as Knex.RawBinding[];
      // The database's time is read first and passed in: Citus refuses now() inside a CASE of an UPDATE.
      const { rows } = await db.raw<{ rows: { now: string }[] }>('select now()::text as now');
      sets.last_modified_at = db.raw(`case when ${changed} then ?::timestamptz else last_modified_at end`, [...bindings, rows[0]!.now]);
      sets.last_modified_by = db.raw(`case when ${changed} then ?::int else last_modified_by end`, [...bindings, userId]);
    }

    const query = db<SessionRecordingPlaylistRow>(TABLE).where({ team_id: teamId, id: playlistId });
    const [row] =
      Object.keys(sets).length > 0 ? await query.update(sets).returning('*') : [await query.first()];
    return row ? toPlaylist(db, row) : null;
  });
}

/** Pins the recording to the playlist; pinning it again changes nothing. */
export async function pinRecording(db: Db, teamId: number, playlistId: number, sessionId: string): Promise<void> {
  await translated(() =>
    db(ITEMS)
      .insert({ team_id: teamId, playlist_id: playlistId, session_id: sessionId })
      .onConflict(['playlist_id', 'session_id', 'team_id'])
      .ignore(),
  );
}

/** Unpins the recording; false when it was not pinned to the playlist. */
export async function unpinRecording(db: Db, teamId: number, playlistId: number, sessionId: string): Promise<boolean> {
  const deleted = await translated(() =>
    db(ITEMS).where({ team_id: teamId, playlist_id: playlistId, session_id: sessionId }).delete(),
  );
  return deleted > 0;
}

/** One page of the recordings pinned to the playlist, most recently pinned first. */
export async function listPinnedRecordings(db: Db, teamId: number, playlistId: number, page: Page): Promise<PlaylistRecordings> {
  return translated(async () => {
    const sessionIds: string[] = await db(ITEMS)
      .where({ team_id: teamId, playlist_id: playlistId })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit + 1)
      .offset(page.offset)
      .pluck('session_id');
    return {
      results: sessionIds.slice(0, page.limit).map((id) => ({ id })),
      has_next: sessionIds.length > page.limit,
    };
  });
}
