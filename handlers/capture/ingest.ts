/**
 * One group-commit transaction of capture: everything the batched requests do to the database, all or nothing.
 *
 * The quick path, for a batch that changes no person and no group and whose distinct ids' persons capture
 * remembers (steady traffic of known users): one message that locks each environment, checks that it still
 * exists and its person epoch (db/migrations/…_create_capture_person_epochs), stores the events with their
 * remembered persons (one prepared INSERT of binary column arrays that is its own transaction, on Citus for one
 * environment one call that runs on the environment's node; when the batch has warnings or an environment's
 * first events, a script with the INSERT or a COPY), adds the warnings and
 * commits: one or two round trips; the prepared INSERT leaves out events already stored (an SDK retry). If a
 * person moved meanwhile (another process merged persons), the script finds an event's uuid already stored, or
 * it deadlocked with another quick batch over such uuids, it is rolled back and the batch takes the full path
 * instead.
 *
 * The full path, for everything else:
 *   1. lock the batch's environments, set `ingested_event` on those receiving their first events, read their
 *      person epochs, find the events already stored and load the persons of the batch's distinct ids (one round
 *      trip)
 *   2. persons: plan in event order, apply (handlers/capture/persons.ts)
 *   3. groups: number new group types, upsert `$groupidentify` groups (handlers/capture/groups.ts)
 *   4. the events (INSERT or COPY), warnings, commit (one message)
 */
import { randomUUID } from 'node:crypto';
import type { Transaction } from '../../db/pg/group-commit.js';
import {
  STALE_PERSONS,
  applyGroupPlan,
  applyPersonPlan,
  finishBatch,
  loadGroupTypes,
  startBatch,
  storesOnEnvironmentNodes,
} from '../../db/queries/ingestion.js';
import type { GroupTypeIndexes, NewEventRow } from '../../db/queries/ingestion-types.js';
import { planGroups, teamsWithGroups } from './groups.js';
import { planPersons, referencedDistinctIds } from './persons.js';
import type { BatchPath, EventEffects, IngestRequest, StoredEvent } from './types.js';

export interface IngestOutcome {
  stored: number;
  duplicates: number;
  /** Which path stored the batch (a quick attempt that fell back counts as full). */
  path: BatchPath;
}

/** How many distinct ids' persons are remembered, over all environments, before the memory starts again. */
const MAX_REMEMBERED_DISTINCT_IDS = 200_000;

const UNIQUE_VIOLATION = '23505';
/**
 * Two quick batches in flight at once (handlers/capture/services.ts) share the environment's lock, and if both
 * hold the same uuids in opposite orders (an SDK retry), each waits on the other's: PostgreSQL aborts one.
 */
const DEADLOCK_DETECTED = '40P01';

/**
 * What capture remembers between transactions: group type numbers (a type's number never changes once
 * given), the person of each distinct id it has seen, valid while the environment's person epoch is the one
 * remembered with it, and the environments already marked as having received events.
 */
export class IngestState {
  readonly groupTypes: GroupTypeIndexes = new Map();
  readonly ingestedTeams = new Set<number>();
  /** Whether the database is a Citus cluster (db/queries/ingestion.ts storesOnEnvironmentNodes), once known. */
  onEnvironmentNodes: boolean | undefined;
  private readonly persons = new Map<number, { epoch: number; byDistinctId: Map<string, string> }>();
  private remembered = 0;

  knowsAllGroupTypes(teamEvents: ReadonlyArray<{ teamId: number; event: EventEffects }>): boolean {
    return teamEvents.every(({ teamId, event }) => {
      const types = this.groupTypes.get(teamId);
      const named = event.groups.map(([type]) => type);
      if (event.groupIdentify) named.push(event.groupIdentify.type);
      return named.every((type) => types?.has(type));
    });
  }

  epochOf(teamId: number): number | undefined {
    return this.persons.get(teamId)?.epoch;
  }

  personOf(teamId: number, distinctId: string): string | undefined {
    return this.persons.get(teamId)?.byDistinctId.get(distinctId);
  }

  /** Records what one environment's persons are at `epoch` (forgetting what it knew at another epoch). */
  rememberPersons(teamId: number, epoch: number, entries: Iterable<[string, string]>): void {
    let known = this.persons.get(teamId);
    if (!known || known.epoch !== epoch) {
      if (known) this.remembered -= known.byDistinctId.size;
      known = { epoch, byDistinctId: new Map() };
      this.persons.set(teamId, known);
    }
    for (const [distinctId, personUuid] of entries) {
      if (!known.byDistinctId.has(distinctId)) {
        if (this.remembered >= MAX_REMEMBERED_DISTINCT_IDS) {
          for (const other of this.persons.values()) other.byDistinctId.clear();
          this.remembered = 0;
        }
        this.remembered += 1;
      }
      known.byDistinctId.set(distinctId, personUuid);
    }
  }

  forgetPersons(teamId: number): void {
    const known = this.persons.get(teamId);
    if (!known) return;
    this.remembered -= known.byDistinctId.size;
    this.persons.delete(teamId);
  }

  /** The event's person, when it changes no person or group and its person is remembered; else undefined. */
  quickPerson(teamId: number, event: EventEffects): string | null | undefined {
    if (event.groupIdentify || event.alias !== null || event.identify || event.personUpdate) return undefined;
    if (event.groups.length > 0) {
      const types = this.groupTypes.get(teamId);
      if (!event.groups.every(([type]) => types?.has(type))) return undefined;
    }
    if (!event.processPerson) return null;
    return this.personOf(teamId, event.distinctId);
  }
}

type TeamEvent = { teamId: number; event: StoredEvent };

function byTeam(teamEvents: readonly TeamEvent[]): Map<number, TeamEvent[]> {
  const teams = new Map<number, TeamEvent[]>();
  for (const entry of teamEvents) {
    let list = teams.get(entry.teamId);
    if (!list) teams.set(entry.teamId, (list = []));
    list.push(entry);
  }
  return teams;
}

function rowOf(
  teamId: number,
  event: StoredEvent,
  personId: string | null,
  personPropertiesJson: string | null,
  groups: Array<string | null>,
): NewEventRow {
  return {
    teamId,
    uuid: event.uuid,
    event: event.event,
    distinctId: event.distinctId,
    propertiesJson: event.propertiesJson,
    timestamp: event.timestamp,
    elementsChain: event.elementsChain,
    personId,
    personPropertiesJson,
    groups,
    historicalMigration: event.historicalMigration,
  };
}

interface Batch {
  all: TeamEvent[];
  teamIds: number[];
  warnings: Array<{ teamId: number; type: string; details: Record<string, unknown> }>;
  newlyIngested: number[];
}

/** The quick path's rows, or null when the batch needs the full path. */
function quickRows(batch: Batch, state: IngestState): NewEventRow[] | null {
  if (batch.teamIds.some((teamId) => state.epochOf(teamId) === undefined)) return null;
  const rows: NewEventRow[] = [];
  for (const { teamId, event } of batch.all) {
    const person = state.quickPerson(teamId, event);
    if (person === undefined) return null;
    const groups: Array<string | null> = [null, null, null, null, null];
    if (event.groups.length > 0) {
      const types = state.groupTypes.get(teamId)!;
      for (const [type, key] of event.groups) groups[types.get(type)!] = key;
    }
    // The event changes no person: the insert reads the person's properties as they are (under the lock).
    rows.push(rowOf(teamId, event, person, null, groups));
  }
  return rows;
}

export async function ingest(
  transaction: Transaction,
  requests: readonly IngestRequest[],
  state: IngestState,
  onStored: (outcome: IngestOutcome) => void,
): Promise<() => void> {
  const all: TeamEvent[] = requests.flatMap((request) => request.events.map((event) => ({ teamId: request.teamId, event })));
  const eventTeams = new Set(all.map(({ teamId }) => teamId));
  const batch: Batch = {
    all,
    teamIds: [...new Set(requests.map((request) => request.teamId))],
    warnings: requests.flatMap((request) => request.warnings.map((warning) => ({ teamId: request.teamId, ...warning }))),
    newlyIngested: [...eventTeams].filter((teamId) => !state.ingestedTeams.has(teamId)),
  };
  const markIngested = () => {
    for (const teamId of batch.newlyIngested) state.ingestedTeams.add(teamId);
  };

  const rows = quickRows(batch, state);
  if (rows) {
    state.onEnvironmentNodes ??= await storesOnEnvironmentNodes(transaction);
    try {
      const stored = await finishBatch(transaction, {
        locks: batch.teamIds.map((teamId) => ({ teamId, epoch: state.epochOf(teamId)! })),
        rows,
        warnings: batch.warnings,
        newlyIngested: batch.newlyIngested,
        onEnvironmentNodes: state.onEnvironmentNodes === true,
      });
      return () => {
        markIngested();
        onStored({ stored, duplicates: all.length - stored, path: 'quick' });
      };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code !== STALE_PERSONS && code !== UNIQUE_VIOLATION && code !== DEADLOCK_DETECTED) throw error;
      // Persons moved under us, or an SDK re-sent an event: do it again the long way (which holds the
      // environment's lock alone, and leaves out the events already stored).
      await transaction.abandon();
      if (code === STALE_PERSONS) for (const teamId of batch.teamIds) state.forgetPersons(teamId);
    }
  }
  return fullIngest(transaction, batch, state, markIngested, onStored);
}

async function fullIngest(
  transaction: Transaction,
  batch: Batch,
  state: IngestState,
  markIngested: () => void,
  onStored: (outcome: IngestOutcome) => void,
): Promise<() => void> {
  const { all } = batch;
  const teams = byTeam(all);
  const { stored, persons, epochs } = await startBatch(transaction, {
    teamIds: batch.teamIds,
    newlyIngested: batch.newlyIngested,
    // Only a uuid the client chose can already be stored (an SDK retrying); generated ones are new.
    eventKeys: all.filter(({ event }) => event.clientUuid).map(({ teamId, event }) => ({ teamId, uuid: event.uuid })),
    distinctIds: [...teams].flatMap(([teamId, teamEvents]) =>
      referencedDistinctIds(teamEvents.map(({ event }) => event)).map((distinctId) => ({ teamId, distinctId })),
    ),
  });
  const seen = new Set<string>();
  const fresh = all.filter(({ teamId, event }) => {
    if (!event.clientUuid) return true;
    const key = `${teamId}:${event.uuid}`;
    if (stored.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });

  const groupTeams = teamsWithGroups(fresh);
  let groupTypes = state.groupTypes;
  if (groupTeams.length > 0 && !state.knowsAllGroupTypes(fresh)) groupTypes = await loadGroupTypes(transaction, groupTeams);

  const rows: NewEventRow[] = [];
  const learnedTypes: Array<{ teamId: number; type: string; index: number }> = [];
  const learnedPersons: Array<{ teamId: number; epoch: number; entries: Array<[string, string]> }> = [];
  const warnings = [...batch.warnings];
  const freshByTeam = byTeam(fresh);
  for (const teamId of batch.teamIds) {
    const teamEvents = freshByTeam.get(teamId) ?? [];
    const personPlan = planPersons(
      teamEvents,
      persons.filter((row) => row.teamId === teamId),
      randomUUID,
    );
    const bumped = await applyPersonPlan(transaction, teamId, personPlan);
    learnedPersons.push({ teamId, epoch: bumped ?? epochs.get(teamId) ?? 0, entries: personPlan.distinctIdPersons });
    const groupPlan = planGroups(teamEvents, groupTypes);
    await applyGroupPlan(transaction, groupPlan);
    learnedTypes.push(...groupPlan.newTypes);
    for (const warning of [...personPlan.warnings, ...groupPlan.warnings]) warnings.push({ teamId, ...warning });
    teamEvents.forEach(({ event }, index) => {
      const personId = personPlan.eventPersons[index] ?? null;
      const properties = personId === null ? null : (personPlan.eventPersonProperties[index] ?? null);
      rows.push(rowOf(teamId, event, personId, properties, groupPlan.eventGroups[index]!));
    });
  }

  const inserted = await finishBatch(transaction, { locks: [], rows, warnings, newlyIngested: [], onEnvironmentNodes: false });

  return () => {
    if (groupTypes !== state.groupTypes) {
      for (const [teamId, types] of groupTypes) state.groupTypes.set(teamId, new Map(types));
    }
    for (const { teamId, type, index } of learnedTypes) {
      let types = state.groupTypes.get(teamId);
      if (!types) state.groupTypes.set(teamId, (types = new Map()));
      types.set(type, index);
    }
    for (const { teamId, epoch, entries } of learnedPersons) state.rememberPersons(teamId, epoch, entries);
    markIngested();
    onStored({ stored: inserted, duplicates: all.length - inserted, path: 'full' });
  };
}
