/** Mocha root hooks: the run's database exists for every test file and is dropped at the end. */
import { closeSharedDatabase, openSharedDatabase } from './helpers/database.js';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(60_000);
    await openSharedDatabase();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await closeSharedDatabase();
  },
};
