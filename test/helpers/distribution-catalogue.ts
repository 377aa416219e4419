/**
 * The rules a schema must obey for its tables to be distributed as db/pg/distribution.ts lists them (Citus
 * refuses the rest), read from PostgreSQL's catalogue of one schema. Each rule answers its violations as
 * `table: what is wrong`, so a test can aim the rules at the migrated schema (no violations) and at a scratch
 * schema built to break one rule (exactly that violation).
 */
import type { Db } from '../../db/pg/client.js';

export interface TableLists {
  tenant: readonly string[];
  reference: readonly string[];
  local: readonly string[];
}

interface Catalogue {
  /** Tables (ordinary and partitioned) of the schema. */
  tables: string[];
  /** Tenant tables that have the distribution column. */
  withTeamId: Set<string>;
  /** Primary keys, unique constraints and unique indexes, with whether team_id is one of their key columns. */
  uniqueIndexes: Array<{ table: string; index: string; hasTeamId: boolean }>;
  /** Triggers PostgreSQL did not make itself (foreign keys are carried out by internal triggers). */
  triggers: Array<{ table: string; trigger: string }>;
  foreignKeys: Array<{
    table: string;
    constraint: string;
    referenced: string;
    /** Whether some column pair maps the table's team_id to the referenced table's team_id. */
    mapsTeamId: boolean;
    /** Whether an ON DELETE or ON UPDATE action sets the referencing team_id to null or to its default. */
    clearsTeamId: boolean;
  }>;
}

async function readCatalogue(db: Db, schema: string): Promise<Catalogue> {
  const rows = async <T>(sql: string): Promise<T[]> => (await db.raw<{ rows: T[] }>(sql, { schema })).rows;
  const tables = await rows<{ table: string }>(`
    select c.relname as "table" from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = :schema and c.relkind in ('r', 'p') and not c.relispartition
     order by 1`);
  const withTeamId = await rows<{ table: string }>(`
    select c.relname as "table" from pg_attribute a
      join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = :schema and a.attname = 'team_id' and not a.attisdropped`);
  const uniqueIndexes = await rows<{ table: string; index: string; hasTeamId: boolean }>(`
    select c.relname as "table", i.relname as "index",
           exists (select 1 from pg_attribute a, generate_series(0, x.indnkeyatts - 1) as key(position)
                    where a.attrelid = c.oid and a.attname = 'team_id' and x.indkey[key.position] = a.attnum) as "hasTeamId"
      from pg_index x
      join pg_class c on c.oid = x.indrelid join pg_class i on i.oid = x.indexrelid
      join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = :schema and x.indisunique
     order by 1, 2`);
  const triggers = await rows<{ table: string; trigger: string }>(`
    select c.relname as "table", t.tgname as "trigger"
      from pg_trigger t join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = :schema and not t.tgisinternal
     order by 1, 2`);
  const foreignKeys = await rows<Catalogue['foreignKeys'][number]>(`
    with keys as (
      select k.conname, k.conrelid, k.confrelid, k.conkey, k.confkey, k.confupdtype, k.confdeltype, k.confdelsetcols,
             (select attnum from pg_attribute where attrelid = k.conrelid and attname = 'team_id') as team_id,
             (select attnum from pg_attribute where attrelid = k.confrelid and attname = 'team_id') as referenced_team_id
        from pg_constraint k join pg_namespace n on n.oid = k.connamespace
       where n.nspname = :schema and k.contype = 'f'
    )
    select c.relname as "table", k.conname as "constraint", r.relname as referenced,
           exists (select 1 from unnest(k.conkey, k.confkey) as pair(referencing, referenced)
                    where pair.referencing = k.team_id and pair.referenced = k.referenced_team_id) as "mapsTeamId",
           (k.team_id = any (k.conkey) and (k.confupdtype in ('n', 'd') or k.confdeltype in ('n', 'd'))) as "clearsTeamId"
      from keys k join pg_class c on c.oid = k.conrelid join pg_class r on r.oid = k.confrelid
     order by 1, 2`);
  return {
    tables: tables.map((row) => row.table),
    withTeamId: new Set(withTeamId.map((row) => row.table)),
    uniqueIndexes,
    triggers,
    foreignKeys: foreignKeys.map((key) => ({ ...key, clearsTeamId: key.clearsTeamId === true })),
  };
}

type Kind = keyof TableLists;

interface Rule {
  name: string;
  violations(catalogue: Catalogue, lists: TableLists, kindOf: (table: string) => Kind | undefined): string[];
}

export const DISTRIBUTION_RULES: readonly Rule[] = [
  {
    name: 'every table is in exactly one of the lists, and every listed table exists',
    violations: ({ tables }, lists) => {
      const listed = [...lists.tenant, ...lists.reference, ...lists.local];
      return [
        ...tables.flatMap((table) => {
          const count = listed.filter((name) => name === table).length;
          return count === 1 ? [] : [`${table}: in ${count} lists`];
        }),
        ...[...new Set(listed)].filter((name) => !tables.includes(name)).map((name) => `${name}: listed, but no such table`),
      ];
    },
  },
  {
    name: 'every tenant table has a team_id column',
    violations: ({ tables, withTeamId }, lists) =>
      lists.tenant.filter((table) => tables.includes(table) && !withTeamId.has(table)).map((table) => `${table}: no team_id column`),
  },
  {
    name: "every primary key, unique constraint and unique index of a tenant table includes team_id",
    violations: ({ uniqueIndexes }, _lists, kindOf) =>
      uniqueIndexes
        .filter(({ table, hasTeamId }) => kindOf(table) === 'tenant' && !hasTeamId)
        .map(({ table, index }) => `${table}: unique index ${index} lacks team_id`),
  },
  {
    name: 'no tenant or reference table has a trigger',
    violations: ({ triggers }, _lists, kindOf) =>
      triggers.filter(({ table }) => kindOf(table) === 'tenant' || kindOf(table) === 'reference').map(({ table, trigger }) => `${table}: trigger ${trigger}`),
  },
  {
    // Citus refuses SET NULL and SET DEFAULT on a key that holds the distribution column, even of other columns.
    name: 'a foreign key between tenant tables maps team_id to team_id, and no action of it sets its columns to null or a default',
    violations: ({ foreignKeys }, _lists, kindOf) =>
      foreignKeys
        .filter(({ table, referenced }) => kindOf(table) === 'tenant' && kindOf(referenced) === 'tenant')
        .flatMap(({ table, constraint, referenced, mapsTeamId, clearsTeamId }) => [
          ...(mapsTeamId ? [] : [`${table}: foreign key ${constraint} to ${referenced} does not map team_id to team_id`]),
          ...(clearsTeamId ? [`${table}: foreign key ${constraint} to ${referenced} sets its columns to null or a default`] : []),
        ]),
  },
  {
    name: 'no reference table points at a tenant table',
    violations: ({ foreignKeys }, _lists, kindOf) =>
      foreignKeys
        .filter(({ table, referenced }) => kindOf(table) === 'reference' && kindOf(referenced) === 'tenant')
        .map(({ table, constraint, referenced }) => `${table}: foreign key ${constraint} to tenant table ${referenced}`),
  },
  {
    name: 'no tenant or reference table points at a local table',
    violations: ({ foreignKeys }, _lists, kindOf) =>
      foreignKeys
        .filter(({ table, referenced }) => kindOf(table) !== 'local' && kindOf(table) !== undefined && kindOf(referenced) === 'local')
        .map(({ table, constraint, referenced }) => `${table}: foreign key ${constraint} to local table ${referenced}`),
  },
];

/** Each rule's violations in `schema`, by rule name (an empty list for a rule the schema obeys). */
export async function distributionViolations(db: Db, schema: string, lists: TableLists): Promise<Record<string, string[]>> {
  const catalogue = await readCatalogue(db, schema);
  const kindOf = (table: string): Kind | undefined => (['tenant', 'reference', 'local'] as const).find((kind) => lists[kind].includes(table));
  return Object.fromEntries(DISTRIBUTION_RULES.map((rule) => [rule.name, rule.violations(catalogue, lists, kindOf)]));
}
