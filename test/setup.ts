/**
 * Mocha root hooks: the run's database exists for every test file and is dropped at the end. The contract
 * harness loads the spec first: loading it inside a test that has a server running held the event loop while a
 * kept-alive connection idled past the server's keep-alive timeout, and the next request met a closed socket.
 */
import { loadSpec } from './helpers/contract.js';
import { closeSharedDatabase, openSharedDatabase } from './helpers/database.js';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(60_000);
    await Promise.all([openSharedDatabase(), loadSpec()]);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await closeSharedDatabase();
  },
};
