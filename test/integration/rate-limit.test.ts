/**
 * The personal API keys' request budget as the database counts it (db/queries/rate-limit.ts through
 * handlers/server/rate-limit.ts): the window's answers, counting that concurrent requests cannot overrun, and
 * the cleanup that keeps the table to the last minute's keys.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import pino from 'pino';
import { deleteEndedWindows } from '../../db/queries/rate-limit.js';
import { DatabaseRateLimiter } from '../../handlers/server/rate-limit.js';
import { testDb } from '../helpers/database.js';

const silent = pino({ level: 'silent' });

/** Moves the key's window back in time, as if it had started `ms` ago. */
async function startedAgo(keyId: string, ms: number): Promise<void> {
  await testDb()('rate_limit_windows')
    .where({ key_id: keyId })
    .update({ started_at: testDb().raw(`now() - make_interval(secs => ?)`, [ms / 1000]) });
}

describe('the rate limit in the database', () => {
  it('allows the budget per minute, then says how long to wait, then starts a new window', async () => {
    const limiter = new DatabaseRateLimiter(testDb(), 3, silent);
    const key = randomUUID();
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push(await limiter.take(key));
    expect(answers.slice(0, 3)).to.deep.equal([0, 0, 0]);
    expect(answers[3]).to.be.within(59, 60);
    expect(await limiter.take(randomUUID())).to.equal(0);
    await startedAgo(key, 45_500);
    expect(await limiter.take(key)).to.equal(15);
    await startedAgo(key, 60_000);
    expect(await limiter.take(key)).to.equal(0);
    expect(await limiter.take(key)).to.equal(0);
    expect(await limiter.take(key)).to.equal(0);
    expect(await limiter.take(key)).to.be.within(59, 60);
  });

  it('lets through exactly the budget of requests that arrive at once', async () => {
    const limiter = new DatabaseRateLimiter(testDb(), 5, silent);
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 30 }, () => limiter.take(key)));
    expect(answers.filter((wait) => wait === 0)).to.have.length(5);
    const row = await testDb()('rate_limit_windows').where({ key_id: key }).first();
    // Refused requests are counted no further than one past the budget.
    expect(row.requests).to.equal(6);
  });

  it('is off at 0, and writes nothing', async () => {
    const limiter = new DatabaseRateLimiter(testDb(), 0, silent);
    const key = randomUUID();
    for (let i = 0; i < 100; i += 1) expect(await limiter.take(key)).to.equal(0);
    expect(await testDb()('rate_limit_windows').where({ key_id: key })).to.deep.equal([]);
  });

  it('deletes the windows that ended and keeps the others', async () => {
    const limiter = new DatabaseRateLimiter(testDb(), 3, silent);
    const [ended, current] = [randomUUID(), randomUUID()];
    await limiter.take(ended);
    await limiter.take(current);
    await startedAgo(ended, 61_000);
    expect(await deleteEndedWindows(testDb())).to.be.at.least(1);
    const left = await testDb()('rate_limit_windows').whereIn('key_id', [ended, current]).pluck('key_id');
    expect(left).to.deep.equal([current]);
  });

  it('deletes the ended windows itself at most once a minute, off the request path', async () => {
    let now = 1_000_000;
    const limiter = new DatabaseRateLimiter(testDb(), 3, silent, () => now);
    const ended = randomUUID();
    await limiter.take(ended);
    await startedAgo(ended, 61_000);
    await limiter.take(randomUUID());
    expect(await testDb()('rate_limit_windows').where({ key_id: ended })).to.have.length(1);
    now += 60_000;
    await limiter.take(randomUUID());
    const gone = async () => (await testDb()('rate_limit_windows').where({ key_id: ended })).length === 0;
    for (let i = 0; i < 50 && !(await gone()); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await gone()).to.equal(true);
  });
});
