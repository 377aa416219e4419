/**
 * The handler registry: one entry per operationId of spec/openapi.yaml (the type makes a missing or misspelled
 * one a compile error). NOT_BUILT operations answer 501 and are listed in the README as not built yet.
 */
import {
  environments_events_list,
  environments_events_retrieve,
  environments_events_values_retrieve,
  events_list,
  events_retrieve,
  events_values_retrieve,
} from './events.js';
import {
  capture_batch_create,
  capture_batch_options,
  capture_batch_retrieve,
  capture_capture_create,
  capture_capture_options,
  capture_capture_retrieve,
  capture_e_create,
  capture_e_options,
  capture_e_retrieve,
  capture_engage_create,
  capture_engage_options,
  capture_engage_retrieve,
  capture_event_create,
  capture_event_options,
  capture_event_retrieve,
  capture_track_create,
  capture_track_options,
  capture_track_retrieve,
  flags_create,
  flags_options,
  remote_config_js_retrieve,
  remote_config_retrieve,
} from './capture-endpoints.js';
import { health_retrieve, metrics_retrieve, readiness_retrieve } from './operations.js';
import { docs_renderer_retrieve, docs_retrieve, openapi_json_retrieve, openapi_yaml_retrieve } from './meta.js';
import {
  organizations_create,
  organizations_destroy,
  organizations_environments_rollback_create,
  organizations_list,
  organizations_partial_update,
  organizations_retrieve,
} from './organizations.js';
import { projects_list, projects_retrieve } from './projects.js';
import { environments_query_create, query_create } from './query.js';
import {
  environments_session_recording_playlists_create,
  environments_session_recording_playlists_destroy,
  environments_session_recording_playlists_list,
  environments_session_recording_playlists_partial_update,
  environments_session_recording_playlists_recordings_create,
  environments_session_recording_playlists_recordings_destroy,
  environments_session_recording_playlists_recordings_retrieve,
  environments_session_recording_playlists_retrieve,
} from './session-recording-playlists.js';
import { NOT_BUILT, type HandlerRegistry } from './types.js';

export const registry: HandlerRegistry = {
  health_retrieve,
  readiness_retrieve,

  openapi_yaml_retrieve,
  openapi_json_retrieve,
  docs_retrieve,
  docs_renderer_retrieve,

  organizations_list,
  organizations_create,
  organizations_retrieve,
  organizations_partial_update,
  organizations_destroy,
  organizations_environments_rollback_create,

  projects_list,
  projects_retrieve,

  // The capture lane (x-hedgerow-lane: capture in the spec; dispatched by handlers/server/lane.ts).
  capture_event_create,
  capture_event_retrieve,
  capture_event_options,
  capture_e_create,
  capture_e_retrieve,
  capture_e_options,
  capture_capture_create,
  capture_capture_retrieve,
  capture_capture_options,
  capture_track_create,
  capture_track_retrieve,
  capture_track_options,
  capture_engage_create,
  capture_engage_retrieve,
  capture_engage_options,
  capture_batch_create,
  capture_batch_retrieve,
  capture_batch_options,
  flags_create,
  flags_options,
  remote_config_retrieve,
  remote_config_js_retrieve,
  metrics_retrieve,

  environments_query_create,
  query_create,
  environments_query_retrieve: NOT_BUILT,
  environments_query_destroy: NOT_BUILT,
  environments_query_check_auth_for_async_create: NOT_BUILT,
  environments_query_draft_sql_retrieve: NOT_BUILT,

  environments_session_recording_playlists_list,
  environments_session_recording_playlists_create,
  environments_session_recording_playlists_retrieve,
  environments_session_recording_playlists_partial_update,
  environments_session_recording_playlists_destroy,
  environments_session_recording_playlists_recordings_retrieve,
  environments_session_recording_playlists_recordings_create,
  environments_session_recording_playlists_recordings_destroy,

  batch_exports_list: NOT_BUILT,
  batch_exports_create: NOT_BUILT,
  batch_exports_retrieve: NOT_BUILT,
  batch_exports_partial_update: NOT_BUILT,
  batch_exports_destroy: NOT_BUILT,
  batch_exports_backfill_create: NOT_BUILT,

  events_list,
  events_retrieve,
  events_values_retrieve,
  environments_events_list,
  environments_events_retrieve,
  environments_events_values_retrieve,
};
