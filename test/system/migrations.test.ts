import { expect } from 'chai';
import { readdir } from 'node:fs/promises';
import { createDb } from '../../db/client.js';
import type * as sourceTree from '../../db/migrate.js';
import { MIGRATION_NAME, migrateLatest, rollbackAll } from '../../db/migrate.js';
import { BUILD_DIR, buildServer } from '../../scripts/build.js';
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
    const name = await createDatabase('hedgerow_migrations');
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
    await buildServer();
    const built = (await import(new URL(`file://${BUILD_DIR}/db/migrate.js`).href)) as typeof sourceTree;
    const name = await createDatabase('hedgerow_migrations');
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
    }
  });
});
