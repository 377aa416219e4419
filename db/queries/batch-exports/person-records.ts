/** The records of the persons model: a record per distinct id whose person or mapping changed in the window. */
import { keyword, param, sql } from '../../hogql/sql.js';
import { asQuery, windowCondition, type RecordsQuery, type RecordsRequest } from './records-query.js';

export const PERSON_RECORD_COLUMNS = [
  'team_id',
  'distinct_id',
  'person_id',
  'properties',
  'person_distinct_id_version',
  'person_version',
  'created_at',
  '_inserted_at',
  'is_deleted',
] as const;

/**
 * One record per distinct id whose person or mapping changed in the window (persons.updated_at,
 * person_distinct_ids.updated_at, set by the statements that change them, db/queries/ingestion.ts); `_inserted_at`
 * is the change in the window, the earlier when both changed. Backfills select by the same columns: persons have
 * no other time. A merged-away person is deleted and its distinct ids now point at the person they joined, so
 * `is_deleted` is always false here.
 */
export function personsQuery(request: RecordsRequest, ordered: boolean): RecordsQuery {
  const team = request.batchExport.team_id;
  const personChanged = windowCondition('p.updated_at', request);
  const mappingChanged = windowCondition('pdi.updated_at', request);
  const query = sql`select * from (
      select pdi.team_id, pdi.distinct_id, p.uuid::text as person_id, p.properties,
             pdi.version as person_distinct_id_version, p.version as person_version, p.created_at,
             least(case when ${personChanged} then p.updated_at end,
                   case when ${mappingChanged} then pdi.updated_at end) as _inserted_at,
             false as is_deleted
        from person_distinct_ids pdi
        join persons p on p.team_id = pdi.team_id and p.id = pdi.person_id
       where pdi.team_id = ${param(team, 'int')} and p.team_id = ${param(team, 'int')}
         and ((${personChanged}) or (${mappingChanged}))
    ) changed
    ${keyword(ordered ? 'order by _inserted_at, distinct_id' : '')}`;
  return asQuery(query, [...PERSON_RECORD_COLUMNS]);
}
