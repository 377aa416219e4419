/**
 * What a batch of events does to group analytics, as a pure function: each project numbers its group types
 * 0-4 in the order they are first seen (from `$groups` or `$groupidentify`); `$groups` links an event to a
 * group key per type (columns group_0 … group_4) without creating the group; `$groupidentify` creates or
 * updates the group, its `$group_set` merged over the stored properties.
 */
import { setProperty } from './properties.js';
import type { GroupPlan, GroupTypeIndexes, IngestionWarning } from '../../db/queries/ingestion-types.js';
import type { EventEffects } from './types.js';

export const MAX_GROUP_TYPES = 5;



/** The project ids whose group types the plan needs (those with an event that names a group). */
export function teamsWithGroups(teamEvents: ReadonlyArray<{ teamId: number; event: EventEffects }>): number[] {
  const teams = new Set<number>();
  for (const { teamId, event } of teamEvents) {
    if (event.groups.length > 0 || event.groupIdentify) teams.add(teamId);
  }
  return [...teams];
}

export function planGroups(
  teamEvents: ReadonlyArray<{ teamId: number; event: EventEffects }>,
  known: GroupTypeIndexes,
): GroupPlan {
  const newTypes: GroupPlan['newTypes'] = [];
  const warnings: IngestionWarning[] = [];
  const refused = new Set<string>();
  const upserts = new Map<string, GroupPlan['upserts'][number]>();
  // The caller's map stays as it was: the plan's new types exist only once its transaction commits.
  const working: GroupTypeIndexes = new Map();

  const indexOf = (teamId: number, type: string, eventUuid: string): number | null => {
    let types = working.get(teamId);
    if (!types) {
      types = new Map(known.get(teamId));
      working.set(teamId, types);
    }
    const existing = types.get(type);
    if (existing !== undefined) return existing;
    const used = new Set(types.values());
    let free = 0;
    while (used.has(free)) free += 1;
    if (free >= MAX_GROUP_TYPES) {
      if (!refused.has(`${teamId}\u0000${type}`)) {
        refused.add(`${teamId}\u0000${type}`);
        warnings.push({ type: 'group_type_limit_reached', details: { groupType: type, eventUuid } });
      }
      return null;
    }
    types.set(type, free);
    newTypes.push({ teamId, type, index: free });
    return free;
  };

  const eventGroups = teamEvents.map(({ teamId, event }) => {
    const columns: Array<string | null> = [null, null, null, null, null];
    for (const [type, key] of event.groups) {
      const index = indexOf(teamId, type, event.uuid);
      if (index !== null) columns[index] = key;
    }
    if (event.groupIdentify) {
      const { type, key, set } = event.groupIdentify;
      const index = indexOf(teamId, type, event.uuid);
      if (index !== null) {
        const id = `${teamId}\u0000${index}\u0000${key}`;
        const entry = upserts.get(id);
        if (entry) for (const [name, value] of Object.entries(set)) setProperty(entry.properties, name, value);
        else upserts.set(id, { teamId, index, key, properties: { ...set }, createdAt: event.timestamp });
      }
    }
    return columns;
  });

  return { newTypes, upserts: [...upserts.values()], eventGroups, warnings };
}
