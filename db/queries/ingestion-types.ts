/**
 * What one group-commit transaction of capture writes (db/queries/ingestion.ts), as the capture pipeline's
 * planners (handlers/capture/persons.ts, groups.ts) produce it. The writer owns these shapes, so the planners
 * import them from here and the data layer never reaches up into handlers/.
 */

/** A note for the project's ingestion warnings (PostHog's `ingestion_warnings`). */
export interface IngestionWarning {
  type: string;
  details: Record<string, unknown>;
}

/** The row an event becomes in `events`. */
export interface NewEventRow {
  teamId: number;
  uuid: string;
  event: string;
  distinctId: string;
  propertiesJson: string;
  timestamp: Date;
  elementsChain: string;
  personId: string | null;
  /**
   * The person's properties once the event was processed, as JSON text; null for an event without a person, or
   * when the event changed none and the insert reads them from the person (capture's quick path).
   */
  personPropertiesJson: string | null;
  groups: Array<string | null>;
  historicalMigration: boolean;
}

/** Group type → index, per project. */
export type GroupTypeIndexes = Map<number, Map<string, number>>;

export interface GroupPlan {
  newTypes: Array<{ teamId: number; type: string; index: number }>;
  /** One entry per group, its `$group_set`s of the batch merged in event order. */
  upserts: Array<{ teamId: number; index: number; key: string; properties: Record<string, unknown>; createdAt: Date }>;
  /** Per event: the group key of each type index 0-4, or null. */
  eventGroups: Array<Array<string | null>>;
  warnings: IngestionWarning[];
}

/** A person as loaded from the database. */
export interface StoredPerson {
  id: string;
  uuid: string;
  properties: Record<string, unknown>;
  isIdentified: boolean;
  createdAt: Date;
}

/** One distinct id already in the database and its person. */
export interface StoredDistinctId {
  teamId: number;
  distinctId: string;
  person: StoredPerson;
}

export interface PersonPlan {
  /** New persons to insert, with their final properties. */
  created: Array<{ uuid: string; teamId: number; properties: Record<string, unknown>; isIdentified: boolean; createdAt: Date }>;
  /** Existing persons whose properties or identified flag changed. */
  updated: Array<{ id: string; properties: Record<string, unknown>; isIdentified: boolean }>;
  /** Existing persons merged away, in order: move their distinct ids (and events) to the target, then delete. */
  merges: Array<{ teamId: number; sourceId: string; targetUuid: string }>;
  /** Distinct ids that are new to the database, with the person they end up with. */
  links: Array<{ teamId: number; distinctId: string; personUuid: string }>;
  /** Each event's person's properties once the event was processed, as JSON text (null for a personless event). */
  eventPersonProperties: Array<string | null>;
  /** The person uuid each event is stored with (null for a personless event). */
  eventPersons: Array<string | null>;
  /** Every distinct id the plan knows, with the person it has once the plan is applied. */
  distinctIdPersons: Array<[distinctId: string, personUuid: string]>;
  warnings: IngestionWarning[];
}
