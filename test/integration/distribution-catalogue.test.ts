/**
 * The plain schema obeys what a distributed PostgreSQL (Citus) needs to shard it as db/pg/distribution.ts lists
 * its tables, and the rules that say so catch each way of breaking them: every rule is run against the migrated
 * schema, then against scratch schemas, each built to break one rule.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { LOCAL_TABLES, REFERENCE_TABLES, TENANT_TABLES } from '../../db/pg/distribution.js';
import { testDb } from '../helpers/database.js';
import { DISTRIBUTION_RULES, distributionViolations, type TableLists } from '../helpers/distribution-catalogue.js';

const [LISTED_ONCE, HAS_TEAM_ID, KEYS_HAVE_TEAM_ID, NO_TRIGGERS, TENANT_KEYS_MAP_TEAM_ID, NO_REFERENCE_TO_TENANT, NO_POINTER_TO_LOCAL] =
  DISTRIBUTION_RULES.map((rule) => rule.name);

/** An environment (reference) and a note of one (tenant), keyed as the rules want. */
const BASE = [
  'create table environments (id int primary key)',
  `create table notes (team_id int not null references environments (id) on delete cascade, id int not null, slug text,
     primary key (team_id, id))`,
];
const BASE_LISTS: TableLists = { tenant: ['notes'], reference: ['environments'], local: [] };

interface Case {
  title: string;
  /** Statements run after BASE in a scratch schema. */
  ddl: string[];
  lists?: Partial<TableLists>;
  /** The one rule the schema breaks, and its violations; null for a schema that breaks none. */
  breaks: { rule: string | undefined; violations: string[] } | null;
}

const CASES: Case[] = [
  {
    title: 'keys, foreign keys and triggers as the rules want',
    ddl: [
      'create unique index notes_slug_unique on notes (lower(slug), team_id)',
      `create table comments (team_id int not null references environments (id), id int not null, note_id int,
         primary key (id, team_id),
         constraint comments_note_foreign foreign key (team_id, note_id) references notes (team_id, id)
           on delete cascade)`,
      'create table kinds (id int primary key, environment_id int references environments (id))',
    ],
    lists: { tenant: ['notes', 'comments'], local: ['kinds'] },
    breaks: null,
  },
  {
    title: 'a table in no list, one in two, and a listed table that does not exist',
    ddl: ['create table stray (id int)'],
    lists: { reference: ['environments', 'notes', 'ghost'] },
    breaks: { rule: LISTED_ONCE, violations: ['notes: in 2 lists', 'stray: in 0 lists', 'ghost: listed, but no such table'] },
  },
  {
    title: 'a tenant table without team_id',
    ddl: ['create table tags (label text)'],
    lists: { tenant: ['notes', 'tags'] },
    breaks: { rule: HAS_TEAM_ID, violations: ['tags: no team_id column'] },
  },
  {
    title: 'a primary key, a unique constraint and unique indexes without team_id among their keys',
    ddl: [
      'create table tags (id int primary key, team_id int not null)',
      'alter table notes add constraint notes_slug_unique unique (slug)',
      'create unique index notes_slug_including_team on notes (slug) include (team_id)',
      'create unique index notes_lower_slug on notes (lower(slug))',
    ],
    lists: { tenant: ['notes', 'tags'] },
    breaks: {
      rule: KEYS_HAVE_TEAM_ID,
      violations: [
        'notes: unique index notes_lower_slug lacks team_id',
        'notes: unique index notes_slug_including_team lacks team_id',
        'notes: unique index notes_slug_unique lacks team_id',
        'tags: unique index tags_pkey lacks team_id',
      ],
    },
  },
  {
    title: 'a trigger on a tenant table and one on a reference table',
    ddl: [
      "create function touch() returns trigger language plpgsql as $$ begin return new; end $$",
      'create trigger notes_touch before update on notes for each row execute function touch()',
      'create trigger environments_touch before update on environments for each row execute function touch()',
    ],
    breaks: { rule: NO_TRIGGERS, violations: ['environments: trigger environments_touch', 'notes: trigger notes_touch'] },
  },
  {
    title: 'a foreign key between tenant tables that maps team_id to another column',
    ddl: [
      `create table comments (team_id int not null, id int not null, note_team int, note_id int, primary key (team_id, id),
         constraint comments_note_foreign foreign key (note_team, note_id) references notes (team_id, id))`,
    ],
    lists: { tenant: ['notes', 'comments'] },
    breaks: { rule: TENANT_KEYS_MAP_TEAM_ID, violations: ['comments: foreign key comments_note_foreign to notes does not map team_id to team_id'] },
  },
  {
    title: 'a foreign key between tenant tables that sets one of its other columns to null',
    ddl: [
      `create table comments (team_id int not null, id int not null, note_id int, unique (team_id, id),
         constraint comments_note_foreign foreign key (team_id, note_id) references notes (team_id, id) on delete set null (note_id))`,
    ],
    lists: { tenant: ['notes', 'comments'] },
    breaks: { rule: TENANT_KEYS_MAP_TEAM_ID, violations: ['comments: foreign key comments_note_foreign to notes sets its columns to null or a default'] },
  },
  {
    title: 'a foreign key between tenant tables that sets team_id to null',
    ddl: [
      `create table comments (team_id int, id int not null, note_id int, unique (team_id, id),
         constraint comments_note_foreign foreign key (team_id, note_id) references notes (team_id, id) on delete set null)`,
    ],
    lists: { tenant: ['notes', 'comments'] },
    breaks: { rule: TENANT_KEYS_MAP_TEAM_ID, violations: ['comments: foreign key comments_note_foreign to notes sets its columns to null or a default'] },
  },
  {
    title: 'a reference table pointing at a tenant table',
    ddl: [
      `create table labels (id int primary key, team_id int, note_id int,
         constraint labels_note_foreign foreign key (team_id, note_id) references notes (team_id, id))`,
    ],
    lists: { reference: ['environments', 'labels'] },
    breaks: { rule: NO_REFERENCE_TO_TENANT, violations: ['labels: foreign key labels_note_foreign to tenant table notes'] },
  },
  {
    title: 'a tenant table and a reference table pointing at a local table',
    ddl: [
      'create table kinds (id int primary key)',
      'alter table notes add column kind int constraint notes_kind_foreign references kinds (id)',
      'alter table environments add column kind int constraint environments_kind_foreign references kinds (id)',
    ],
    lists: { local: ['kinds'] },
    breaks: {
      rule: NO_POINTER_TO_LOCAL,
      violations: [
        'environments: foreign key environments_kind_foreign to local table kinds',
        'notes: foreign key notes_kind_foreign to local table kinds',
      ],
    },
  },
];

describe('integration: the distribution catalogue (db/pg/distribution.ts) of the migrated schema', () => {
  let violations: Record<string, string[]>;

  before(async () => {
    violations = await distributionViolations(testDb(), 'public', {
      tenant: TENANT_TABLES,
      reference: REFERENCE_TABLES,
      local: LOCAL_TABLES,
    });
  });

  for (const rule of DISTRIBUTION_RULES) {
    it(rule.name, () => {
      expect(violations[rule.name]).to.deep.equal([]);
    });
  }
});

describe('integration: the distribution catalogue rules catch a scratch schema that breaks them', () => {
  it('names every rule once, so each case below breaks the rule it means', () => {
    expect(new Set(DISTRIBUTION_RULES.map((rule) => rule.name)).size).to.equal(7);
  });

  for (const testCase of CASES) {
    it(`${testCase.breaks ? 'reports' : 'accepts'} ${testCase.title}`, async () => {
      const db = testDb();
      const schema = `distribution_${randomUUID().slice(0, 8)}`;
      try {
        await db.transaction(async (trx) => {
          await trx.raw('create schema ??', [schema]);
          await trx.raw('set local search_path to ??', [schema]);
          for (const statement of [...BASE, ...testCase.ddl]) await trx.raw(statement);
        });
        const found = await distributionViolations(db, schema, { ...BASE_LISTS, ...testCase.lists });
        const expected = Object.fromEntries(DISTRIBUTION_RULES.map((rule) => [rule.name, [] as string[]]));
        if (testCase.breaks) expected[testCase.breaks.rule!] = testCase.breaks.violations;
        expect(found).to.deep.equal(expected);
      } finally {
        await db.raw('drop schema if exists ?? cascade', [schema]);
      }
    });
  }
});
