import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDb } from '../../db/pg/client.js';
import type * as sourceTree from '../../db/pg/migrate.js';
import { MIGRATION_NAME, migrateLatest, rollbackAll } from '../../db/pg/migrate.js';
import * as orderDistinctIds from '../../db/migrations/20261121170000_order_person_distinct_ids.js';
import * as coverDistinctIds from '../../db/migrations/20261122110000_cover_person_distinct_ids.js';
import { bootstrap } from '../../db/queries/bootstrap.js';
import { insertPerson, mergePersonInto } from '../helpers/seed-persons.js';
import { privateBuild } from '../../scripts/build.js';
import { createDatabase, databaseUrl, dropDatabase } from '../helpers/database.js';

describe('migrations', () => {
  it('are named YYYYMMDDHHMMSS_<what>.ts and each exports up and down', async () => {
    const files = (await readdir(new URL('../../db/migrations/', import.meta.url))).filter((f) => f.endsWith('.ts'));
    expect(files.length).to.be.greaterThan(5);
    for (const file of files) {
      expect(file).to.match(MIGRATION_NAME);
      const migration = await import(new URL(`../../db/migrations/${file}`, import.meta.url).href);
      expect(migration.up, file).to.be.a('function');
      expect(migration.down, file).to.be.a('function');
    }
  });

  it('go up, all the way down, and up again on an empty database', async function () {
    this.timeout(60_000);
    // Plain PostgreSQL even under npm run test:citus: going down undoes a schema, which a cluster's distributed
    // tables (test/citus/) are not built to do.
    const name = await createDatabase('hedgerow_migrations', { local: true });
    const db = createDb(databaseUrl(name));
    try {
      const applied = await migrateLatest(db);
      const tables = async () =>
        (await db('pg_tables').where({ schemaname: 'public' }).pluck('tablename')).filter((t: string) => !t.startsWith('knex_'));
      const all = await tables();
      expect(all).to.include.members(['organizations', 'projects', 'environments', 'users', 'personal_api_keys', 'events']);
      expect(await rollbackAll(db)).to.have.length(applied.length);
      expect(await tables()).to.deep.equal([]);
      expect(await migrateLatest(db)).to.deep.equal(applied);
      expect((await tables()).sort()).to.deep.equal(all.sort());
    } finally {
      await db.destroy();
      await dropDatabase(name);
    }
  });

  it('record the same names from the sources and from the build npm start runs, so either tree finds the other up to date', async function () {
    this.timeout(60_000);
    const build = await privateBuild('migrations-test');
    const built = (await import(pathToFileURL(join(build.dir, 'db/pg/migrate.js')).href)) as typeof sourceTree;
    const name = await createDatabase('hedgerow_migrations', { local: true });
    const db = createDb(databaseUrl(name));
    try {
      const applied = await built.migrateLatest(db);
      expect(applied.length).to.be.greaterThan(5);
      for (const file of applied) expect(file).to.match(MIGRATION_NAME);
      expect(await migrateLatest(db)).to.deep.equal([]);
      expect(await rollbackAll(db)).to.have.length(applied.length);
      expect(await migrateLatest(db)).to.deep.equal(applied);
      expect(await built.migrateLatest(db)).to.deep.equal([]);
    } finally {
      await db.destroy();
      await dropDatabase(name);
      build.remove();
    }
  });

  it('number the distinct ids already stored by person and distinct id, and those added later after them', async function () {
    this.timeout(60_000);
    const name = await createDatabase('hedgerow_migrations', { local: true });
    const db = createDb(databaseUrl(name));
    try {
      await migrateLatest(db);
      // Back to before the numbering (undoing, first, the later migration that changed its index).
      await coverDistinctIds.down(db);
      await orderDistinctIds.down(db);
      const { project_id: team } = await bootstrap(db, { email: 'a@example.com', organizationName: 'O', projectName: 'P' });
      const anonymous = await insertPerson(db, team, { distinctIds: ['zed', 'alpha'] });
      const known = await insertPerson(db, team, { distinctIds: ['mid'] });
      const other = await insertPerson(db, team, { distinctIds: ['bee'] });
      await mergePersonInto(db, team, anonymous.id, known.id); // moves its rows to the end of the table
      await orderDistinctIds.up(db);
      await coverDistinctIds.up(db);
      const numbered = async () =>
        (await db('person_distinct_ids').orderBy('id').select('distinct_id', 'person_id')).map(
          (row: { distinct_id: string; person_id: string }) => [row.distinct_id, String(row.person_id)],
        );
      expect(await numbered()).to.deep.equal([
        ['alpha', String(known.id)],
        ['mid', String(known.id)],
        ['zed', String(known.id)],
        ['bee', String(other.id)],
      ]);
      await db('person_distinct_ids').insert({ team_id: team, distinct_id: 'added', person_id: other.id });
      expect((await numbered()).slice(-1)).to.deep.equal([['added', String(other.id)]]);
    } finally {
      await db.destroy();
      await dropDatabase(name);
    }
  });
});
