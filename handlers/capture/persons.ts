/**
 * What a batch of events does to persons, worked out in memory in event order (a pure function of the persons
 * the batch's distinct ids already have, table-tested in test/unit/capture-persons.test.ts). The result is a
 * plan that db/queries/ingestion.ts applies in the same transaction that stores the events.
 *
 * Rules (PostHog's):
 * - an event of a new distinct id creates a person; `$set`, `$set_once` and `$unset` change its properties in
 *   event order;
 * - `$create_alias`: `alias` becomes another distinct id of the person of `distinct_id`; when both ids already
 *   have different persons, the alias's person is merged into the other (properties merged, the surviving
 *   person's values winning; every distinct id moved);
 * - `$identify` with `$anon_distinct_id`: the same, except that an anonymous person that is already identified
 *   is not merged (warning `cannot_merge_already_identified`);
 * - ids such as `anonymous`, `null` or `0` are never merged (warning `cannot_merge_with_illegal_distinct_id`);
 * - the person becomes identified when an alias or an `$identify`'s anonymous id names a second legal id, merged
 *   or not; an `$identify` without one (posthog-node's) changes only properties;
 * - personless events (`$process_person_profile: false`) change no person and are stored without one, as the
 *   events table defines them; `$groupidentify` changes no person and is stored with the one its distinct id
 *   has, if any.
 */
import { stringifyExact } from '../../db/core/exact-json.js';
import { jsonbText } from '../../db/core/jsonb-text.js';
import { setProperty } from './properties.js';
import type { IngestionWarning, PersonPlan, StoredDistinctId } from '../../db/queries/ingestion-types.js';
import type { EventEffects, PersonUpdate } from './types.js';


const ILLEGAL_ANY_CASE = new Set([
  'anonymous',
  'guest',
  'distinctid',
  'distinct_id',
  'id',
  'not_authenticated',
  'email',
  'undefined',
  'true',
  'false',
]);
const ILLEGAL_EXACT = new Set(['[object Object]', 'NaN', 'None', 'none', 'null', '0']);

/** Distinct ids that SDK bugs send for many different users; merging on them would join strangers. */
export function isIllegalMergeId(distinctId: string): boolean {
  const trimmed = distinctId.trim();
  return trimmed === '' || ILLEGAL_ANY_CASE.has(trimmed.toLowerCase()) || ILLEGAL_EXACT.has(trimmed);
}

class Person {
  mergedInto: Person | null = null;
  dirty = false;
  /** The properties as JSON text, kept until they change (consecutive events of a person share one). */
  private text: string | null = null;

  constructor(
    readonly teamId: number,
    readonly id: string | null,
    readonly uuid: string,
    public properties: Record<string, unknown>,
    public isIdentified: boolean,
    public createdAt: Date,
  ) {}

  /** The properties as stored on an event: written once per change, not once per event. */
  propertiesText(): string {
    this.text ??= jsonbText(this.properties);
    return this.text;
  }

  /** Marks the properties changed (and to be written). */
  changed(): void {
    this.dirty = true;
    this.text = null;
  }

  /** The person this one was merged into, finally (itself when it was not merged). */
  get final(): Person {
    return this.mergedInto ? this.mergedInto.final : this;
  }
}

const keyOf = (teamId: number, distinctId: string) => `${teamId}\u0000${distinctId}`;

/** The distinct ids whose persons the plan needs (those of events that process persons). */
export function referencedDistinctIds(events: readonly EventEffects[]): string[] {
  const ids = new Set<string>();
  for (const event of events) {
    if (!event.processPerson) continue;
    ids.add(event.distinctId);
    if (event.alias !== null) ids.add(event.alias);
    if (event.identify?.anonDistinctId) ids.add(event.identify.anonDistinctId);
  }
  return [...ids];
}

export function applyPersonUpdate(properties: Record<string, unknown>, update: PersonUpdate): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(update.setOnce)) {
    if (!Object.hasOwn(properties, key)) {
      setProperty(properties, key, value);
      changed = true;
    }
  }
  for (const [key, value] of Object.entries(update.set)) {
    // Compared as stored: an integer of 64 bits read back from the database is exact where the event's value may
    // be a double of the same digits (db/core/exact-json.ts).
    if (!Object.hasOwn(properties, key) || stringifyExact(properties[key]) !== stringifyExact(value)) {
      setProperty(properties, key, value);
      changed = true;
    }
  }
  for (const key of update.unset) {
    if (Object.hasOwn(properties, key)) {
      delete properties[key];
      changed = true;
    }
  }
  return changed;
}

export function planPersons(
  teamEvents: ReadonlyArray<{ teamId: number; event: EventEffects }>,
  stored: readonly StoredDistinctId[],
  newUuid: () => string,
): PersonPlan {
  const byId = new Map<string, Person>();
  const byDistinctId = new Map<string, Person>();
  for (const row of stored) {
    let person = byId.get(row.person.id);
    if (!person) {
      const { id, uuid, properties, isIdentified, createdAt } = row.person;
      person = new Person(row.teamId, id, uuid, { ...properties }, isIdentified, createdAt);
      byId.set(row.person.id, person);
    }
    byDistinctId.set(keyOf(row.teamId, row.distinctId), person);
  }
  const created: Person[] = [];
  const newDistinctIds = new Map<string, { teamId: number; distinctId: string }>();
  const merges: Array<{ teamId: number; source: Person; target: Person }> = [];
  const warnings: IngestionWarning[] = [];

  const personOf = (teamId: number, distinctId: string) => byDistinctId.get(keyOf(teamId, distinctId))?.final;
  const link = (teamId: number, distinctId: string, person: Person) => {
    const key = keyOf(teamId, distinctId);
    if (!byDistinctId.has(key)) newDistinctIds.set(key, { teamId, distinctId });
    byDistinctId.set(key, person);
  };
  const create = (teamId: number, distinctId: string, at: Date): Person => {
    const person = new Person(teamId, null, newUuid(), {}, false, at);
    created.push(person);
    link(teamId, distinctId, person);
    return person;
  };

  /**
   * Makes `other` a distinct id of the person of `main`, merging two persons when allowed. Returns whether the
   * ids were two legal ones, which (as in PostHog) makes the person of `main` identified, merged or not.
   */
  const join = (teamId: number, event: EventEffects, main: string, other: string, mergeIdentified: boolean): boolean => {
    if (main === other) return false;
    if (isIllegalMergeId(main) || isIllegalMergeId(other)) {
      warnings.push({
        type: 'cannot_merge_with_illegal_distinct_id',
        details: { eventUuid: event.uuid, event: event.event, distinctId: main, otherDistinctId: other },
      });
      return false;
    }
    const mainPerson = personOf(teamId, main);
    const otherPerson = personOf(teamId, other);
    if (!mainPerson && !otherPerson) {
      link(teamId, other, create(teamId, main, event.timestamp));
    } else if (mainPerson && !otherPerson) {
      link(teamId, other, mainPerson);
    } else if (!mainPerson && otherPerson) {
      link(teamId, main, otherPerson);
    } else if (mainPerson && otherPerson && mainPerson !== otherPerson) {
      if (!mergeIdentified && otherPerson.isIdentified) {
        warnings.push({
          type: 'cannot_merge_already_identified',
          details: { eventUuid: event.uuid, distinctId: main, otherDistinctId: other },
        });
        return true;
      }
      mainPerson.properties = { ...otherPerson.properties, ...mainPerson.properties };
      if (otherPerson.createdAt < mainPerson.createdAt) mainPerson.createdAt = otherPerson.createdAt;
      mainPerson.changed();
      otherPerson.mergedInto = mainPerson;
      if (otherPerson.id !== null) merges.push({ teamId, source: otherPerson, target: mainPerson });
    }
    return true;
  };

  // Each event's person's properties once the event is processed, as PostHog stores them on the event.
  const eventPersonProperties: Array<string | null> = [];
  for (const { teamId, event } of teamEvents) {
    if (!event.processPerson) {
      eventPersonProperties.push(null);
      continue;
    }
    if (event.groupIdentify) {
      eventPersonProperties.push(personOf(teamId, event.distinctId)?.propertiesText() ?? null);
      continue;
    }
    let joined = false;
    if (event.alias !== null) joined = join(teamId, event, event.distinctId, event.alias, true);
    if (event.identify?.anonDistinctId) joined = join(teamId, event, event.distinctId, event.identify.anonDistinctId, false) || joined;
    const person = personOf(teamId, event.distinctId) ?? create(teamId, event.distinctId, event.timestamp);
    if (event.personUpdate && applyPersonUpdate(person.properties, event.personUpdate)) person.changed();
    if (joined && !person.isIdentified) {
      person.isIdentified = true;
      person.dirty = true;
    }
    eventPersonProperties.push(person.propertiesText());
  }

  return {
    created: created
      .filter((person) => person.mergedInto === null)
      .map(({ uuid, teamId, properties, isIdentified, createdAt }) => ({ uuid, teamId, properties, isIdentified, createdAt })),
    updated: [...byId.values()]
      .filter((person) => person.mergedInto === null && person.dirty)
      .map((person) => ({ id: person.id!, properties: person.properties, isIdentified: person.isIdentified })),
    merges: merges.map(({ teamId, source, target }) => ({ teamId, sourceId: source.id!, targetUuid: target.final.uuid })),
    links: [...newDistinctIds.values()].map(({ teamId, distinctId }) => ({
      teamId,
      distinctId,
      personUuid: byDistinctId.get(keyOf(teamId, distinctId))!.final.uuid,
    })),
    eventPersonProperties,
    eventPersons: teamEvents.map(({ teamId, event }) => (event.processPerson ? (personOf(teamId, event.distinctId)?.uuid ?? null) : null)),
    distinctIdPersons: [...byDistinctId].map(([key, person]) => [key.slice(key.indexOf('\u0000') + 1), person.final.uuid]),
    warnings,
  };
}
