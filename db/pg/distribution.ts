/**
 * Where each table of the schema lives on a distributed PostgreSQL (Citus). Tenant tables carry an
 * environment's `team_id` and are sharded by it, all colocated, so that every per-environment statement runs on
 * the one node that holds the environment. Reference tables are small, shared and copied to every node, so
 * that tenant tables may point at them. Local tables stay on the coordinator: bookkeeping that no tenant
 * statement joins.
 *
 * The lists are in the order they can be distributed: a table after the tables its foreign keys point at.
 * The catalogue test (test/integration/distribution-catalogue.test.ts) holds the plain schema to the rules
 * that make this possible.
 */

export const REFERENCE_TABLES = [
  'organizations',
  'projects',
  'environments',
  'users',
  'organization_memberships',
  'personal_api_keys',
] as const;

export const TENANT_TABLES = [
  'events',
  'persons',
  'person_distinct_ids',
  'group_type_mappings',
  'groups',
  'ingestion_warnings',
  'capture_person_epochs',
  'session_recording_playlists',
  'session_recording_playlist_items',
  'batch_exports',
  'batch_export_backfills',
  'batch_export_runs',
  'query_statuses',
] as const;

export const LOCAL_TABLES = ['knex_migrations', 'knex_migrations_lock', 'rate_limit_windows'] as const;

/**
 * Functions whose calls Citus hands whole to the node holding the environment named by their `argument`
 * (colocated with `events`): everything they read and write is that environment's. Given by signature.
 */
export const COLOCATED_FUNCTIONS = [
  {
    signature:
      'capture_store_events(integer, integer, bigint, uuid[], text[], text[], jsonb[], timestamptz[], text[], uuid[], jsonb[], text[], text[], text[], text[], text[], boolean[])',
    argument: 'environment_id',
  },
] as const;

/** The column every tenant table is sharded by. */
export const DISTRIBUTION_COLUMN = 'team_id';
