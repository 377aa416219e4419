/**
 * Writing stored events directly: the tests of the event listing insert events through here, while capture has
 * its own faster path (group commit, binary arrays, COPY); the table is the contract between them.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/pg/client.js';
import { translated } from '../../db/pg/errors.js';

/** One event as stored; everything but the name, the distinct id and the time has the table's default. */
export interface NewEvent {
  uuid?: string;
  event: string;
  distinct_id: string;
  properties?: Record<string, unknown>;
  /** A Date, or an ISO 8601 string when microseconds matter. */
  timestamp: Date | string;
  elements_chain?: string;
  /** The person the distinct id belonged to when the event was ingested. */
  person_id?: string | null;
  /**
   * The person's properties stored with the event (`poe.properties`, exports' person_properties); by default,
   * as capture would store them, those of `person_id`'s person at the time of the insert.
   */
  person_properties?: Record<string, unknown> | null;
  /** Group keys by group type index 0-4. */
  groups?: Partial<Record<0 | 1 | 2 | 3 | 4, string>>;
  historical_migration?: boolean;
}

const INSERT_CHUNK = 1000;

/** Inserts events of one environment in multi-row statements; returns their uuids in input order. */
export async function insertEvents(db: Db, teamId: number, events: readonly NewEvent[]): Promise<string[]> {
  // The persons' properties are read before the insert: Citus refuses a subquery inside an INSERT's VALUES.
  const personIds = [...new Set(events.filter((event) => event.person_properties === undefined && event.person_id).map((event) => event.person_id!))];
  const persons: Array<{ uuid: string; properties: unknown }> =
    personIds.length === 0 ? [] : await db('persons').where('team_id', teamId).whereIn('uuid', personIds).select('uuid', 'properties');
  const propertiesOf = new Map(persons.map((person) => [person.uuid, JSON.stringify(person.properties)]));
  const rows = events.map((event) => ({
    team_id: teamId,
    uuid: event.uuid ?? randomUUID(),
    event: event.event,
    distinct_id: event.distinct_id,
    properties: JSON.stringify(event.properties ?? {}),
    timestamp: event.timestamp,
    elements_chain: event.elements_chain ?? '',
    person_id: event.person_id ?? null,
    person_properties:
      event.person_properties !== undefined
        ? event.person_properties === null
          ? null
          : JSON.stringify(event.person_properties)
        : event.person_id ? (propertiesOf.get(event.person_id) ?? null) : null,
    group_0: event.groups?.[0] ?? null,
    group_1: event.groups?.[1] ?? null,
    group_2: event.groups?.[2] ?? null,
    group_3: event.groups?.[3] ?? null,
    group_4: event.groups?.[4] ?? null,
    historical_migration: event.historical_migration ?? false,
  }));
  await translated(async () => {
    for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
      await db('events').insert(rows.slice(start, start + INSERT_CHUNK));
    }
  });
  return rows.map((row) => row.uuid);
}
