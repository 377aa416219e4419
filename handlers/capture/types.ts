/** The values that flow through capture: from a normalised event to what the database stores. */
import type { IngestionWarning } from '../../db/queries/ingestion-types.js';

/**
 * Why an event was answered 200 and not ingested. PostHog's capture answers these 200 so that SDKs do not
 * retry what can never succeed; each drop is counted under its reason and recorded as a warning.
 */
export type DropReason =
  | 'missing_event_name'
  | 'missing_distinct_id'
  | 'empty_distinct_id'
  | 'survey_missing_survey_id'
  | 'invalid_event_when_process_person_profile_is_false';

export const DROP_REASONS: readonly DropReason[] = [
  'missing_event_name',
  'missing_distinct_id',
  'empty_distinct_id',
  'survey_missing_survey_id',
  'invalid_event_when_process_person_profile_is_false',
];

/** How a group-commit batch was stored (handlers/capture/ingest.ts): with remembered persons, or loading them. */
export type BatchPath = 'quick' | 'full';
export const BATCH_PATHS: readonly BatchPath[] = ['quick', 'full'];

export interface PersonUpdate {
  set: Record<string, unknown>;
  setOnce: Record<string, unknown>;
  unset: string[];
}

/** One event ready to be stored, with what it does to persons and groups. */
export interface CapturedEvent {
  uuid: string;
  /** Whether the client chose the uuid (a retry may repeat it); a uuid Hedgerow generated cannot be stored yet. */
  clientUuid: boolean;
  event: string;
  distinctId: string;
  /** As stored: the client's properties, without `$elements_chain` (kept in its own column). */
  properties: Record<string, unknown>;
  timestamp: Date;
  elementsChain: string;
  historicalMigration: boolean;
  /** False for `$process_person_profile: false`: the event neither creates nor changes a person. */
  processPerson: boolean;
  personUpdate: PersonUpdate | null;
  /** `$identify`, with its `$anon_distinct_id` when it has one. */
  identify: { anonDistinctId: string | null } | null;
  /** `$create_alias` (and `$merge_dangerously`): the other distinct id. */
  alias: string | null;
  /** `$groupidentify`. */
  groupIdentify: { type: string; key: string; set: Record<string, unknown> } | null;
  /** `$groups`: group type → group key. */
  groups: Array<[type: string, key: string]>;
}

/** What of an event decides its effects on persons and groups (everything but its properties). */
export type EventEffects = Omit<CapturedEvent, 'properties'>;

/** An event as the group commit stores it: its properties already serialised as jsonb-safe JSON text. */
export interface StoredEvent extends EventEffects {
  propertiesJson: string;
}

export type Normalised =
  | { kind: 'ingest'; event: CapturedEvent; warnings: IngestionWarning[] }
  | { kind: 'drop'; reason: DropReason; warnings: IngestionWarning[] };

/** The events of one request for one project, and the warnings they raised. */
export interface IngestRequest {
  teamId: number;
  events: StoredEvent[];
  warnings: IngestionWarning[];
}

