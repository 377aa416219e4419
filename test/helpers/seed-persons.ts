/**
 * Writing persons, their distinct ids and groups directly: the tests of the event listing set up persons,
 * merges and groups through here (capture writes its own, in its batches).
 */
import type { Db } from '../../db/pg/client.js';
import { translated } from '../../db/pg/errors.js';

export interface PersonRow {
  id: string;
  uuid: string;
  team_id: number;
  properties: Record<string, unknown>;
  is_identified: boolean;
  version: number;
  created_at: Date;
}

export interface NewPerson {
  distinctIds: readonly string[];
  properties?: Record<string, unknown>;
  isIdentified?: boolean;
  uuid?: string;
}

/** Creates a person of the environment owning `distinctIds`. */
export async function insertPerson(db: Db, teamId: number, person: NewPerson): Promise<PersonRow> {
  return translated(() =>
    db.transaction(async (trx) => {
      const [row] = await trx<PersonRow>('persons')
        .insert({
          team_id: teamId,
          properties: JSON.stringify(person.properties ?? {}) as unknown as Record<string, unknown>,
          is_identified: person.isIdentified ?? false,
          ...(person.uuid ? { uuid: person.uuid } : {}),
        })
        .returning('*');
      if (person.distinctIds.length > 0) {
        await trx('person_distinct_ids').insert(
          person.distinctIds.map((distinctId) => ({ team_id: teamId, distinct_id: distinctId, person_id: row!.id })),
        );
      }
      return row!;
    }),
  );
}

/** Creates many persons of the environment at once (two statements), each owning its distinct ids. */
export async function insertPersons(db: Db, teamId: number, persons: readonly NewPerson[]): Promise<PersonRow[]> {
  if (persons.length === 0) return [];
  return translated(() =>
    db.transaction(async (trx) => {
      const rows = await trx<PersonRow>('persons')
        .insert(
          persons.map((person) => ({
            team_id: teamId,
            properties: JSON.stringify(person.properties ?? {}) as unknown as Record<string, unknown>,
            is_identified: person.isIdentified ?? false,
            ...(person.uuid ? { uuid: person.uuid } : {}),
          })),
        )
        .returning('*');
      const distinctIds = persons.flatMap((person, index) =>
        person.distinctIds.map((distinctId) => ({ team_id: teamId, distinct_id: distinctId, person_id: rows[index]!.id })),
      );
      for (let start = 0; start < distinctIds.length; start += 1000) {
        await trx('person_distinct_ids').insert(distinctIds.slice(start, start + 1000));
      }
      return rows;
    }),
  );
}

/**
 * Merges person `from` into person `into`, as an alias of two known distinct ids does: every distinct id of
 * `from` now points at `into`, and the emptied person is deleted.
 */
export async function mergePersonInto(db: Db, teamId: number, from: string, into: string): Promise<void> {
  await translated(() =>
    db.transaction(async (trx) => {
      // Stamped as capture stamps a move (db/queries/ingestion.ts): batch exports of persons read it.
      await trx('person_distinct_ids')
        .where({ team_id: teamId, person_id: from })
        .update({ person_id: into, version: trx.raw('version + 1'), updated_at: trx.fn.now() });
      await trx('persons').where({ team_id: teamId, id: from }).delete();
    }),
  );
}

/** Names a group type of the environment and stores one group's properties. */
export async function upsertGroup(
  db: Db,
  teamId: number,
  group: { groupType: string; groupTypeIndex: number; groupKey: string; properties?: Record<string, unknown> },
): Promise<void> {
  await translated(async () => {
    await db('group_type_mappings')
      .insert({ team_id: teamId, group_type: group.groupType, group_type_index: group.groupTypeIndex })
      .onConflict(['team_id', 'group_type'])
      .ignore();
    await db('groups')
      .insert({
        team_id: teamId,
        group_type_index: group.groupTypeIndex,
        group_key: group.groupKey,
        group_properties: JSON.stringify(group.properties ?? {}),
      })
      .onConflict(['team_id', 'group_type_index', 'group_key'])
      .merge(['group_properties']);
  });
}
