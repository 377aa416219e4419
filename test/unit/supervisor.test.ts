/**
 * How many workers `npm start` runs: the number asked for, or one per CPU, within the database's free sessions.
 */
import { expect } from 'chai';
import { planWorkers } from '../../handlers/supervisor.js';

describe('unit: planWorkers', () => {
  const cases: Array<{ name: string; requested: number | undefined; cpus: number; max: number; reserved: number; used: number; count: number }> = [
    { name: 'one per CPU when the database has room', requested: undefined, cpus: 4, max: 100, reserved: 3, used: 1, count: 4 },
    { name: 'the number asked for when the database has room', requested: 3, cpus: 2, max: 100, reserved: 3, used: 1, count: 3 },
    { name: 'no more than the free sessions allow (50 - 3 - 10 = 37, 16 each)', requested: undefined, cpus: 8, max: 50, reserved: 3, used: 10, count: 2 },
    { name: 'no more than the free sessions allow, even when asked', requested: 6, cpus: 2, max: 100, reserved: 3, used: 50, count: 2 },
    { name: 'exactly enough sessions', requested: 2, cpus: 2, max: 35, reserved: 3, used: 0, count: 2 },
    { name: 'one session short', requested: 2, cpus: 2, max: 34, reserved: 3, used: 0, count: 1 },
    { name: 'at least one, even on a full database', requested: undefined, cpus: 2, max: 20, reserved: 3, used: 30, count: 1 },
  ];
  for (const { name, requested, cpus, max, reserved, used, count } of cases) {
    it(name, () => {
      const plan = planWorkers({ requested, cpus, budget: { max, reserved, used }, perWorker: 16 });
      expect(plan.count).to.equal(count);
      expect(plan.reason).to.include(`max_connections ${max} - reserved ${reserved} - in use ${used}`);
    });
  }
});
