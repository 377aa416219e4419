import { expect } from 'chai';
import { gzipSync } from 'node:zlib';
import { MemoryBudget } from '../../handlers/capture/budget.js';
import { decompressPayload } from '../../handlers/capture/decode.js';
import { ApiError } from '../../db/core/errors.js';

const MB = 1024 * 1024;

/** Settles a promise-or-null into what happened to it within `ms`. */
async function outcome(wait: Promise<void> | null, ms = 50): Promise<'granted' | 'waiting' | ApiError> {
  if (wait === null) return 'granted';
  return Promise.race([
    wait.then(
      () => 'granted' as const,
      (error: ApiError) => error,
    ),
    new Promise<'waiting'>((resolve) => setTimeout(() => resolve('waiting'), ms)),
  ]);
}

describe('capture memory budget (handlers/capture/budget.ts)', () => {
  it('grants what fits at once and makes the rest wait until it fits', async () => {
    const budget = new MemoryBudget(10 * MB, 1000);
    const first = budget.lease();
    const second = budget.lease();
    expect(await outcome(first.grow(6 * MB))).to.equal('granted');
    const waiting = second.grow(6 * MB);
    expect(await outcome(waiting)).to.equal('waiting');
    expect(budget.inUse).to.equal(6 * MB);
    first.release();
    expect(await outcome(waiting)).to.equal('granted');
    expect(budget.inUse).to.equal(6 * MB);
    expect(second.bytes).to.equal(6 * MB);
    second.release();
    expect(budget.inUse).to.equal(0);
    expect(budget.peak).to.equal(6 * MB);
  });

  it('refuses with 503 capture_busy and Retry-After when no room comes in time', async () => {
    const budget = new MemoryBudget(10 * MB, 30);
    const holder = budget.lease();
    holder.grow(8 * MB);
    const refused = await outcome(budget.lease().grow(4 * MB), 500);
    expect(refused).to.be.instanceOf(ApiError);
    const error = refused as ApiError;
    expect([error.status, error.code, error.headers['Retry-After']]).to.deep.equal([503, 'capture_busy', '1']);
    expect(budget.inUse).to.equal(8 * MB);
  });

  it('lets a request larger than the whole budget run beside small ones only', async () => {
    const budget = new MemoryBudget(8 * MB, 1000);
    const small = budget.lease();
    small.grow(1 * MB);
    expect(await outcome(budget.lease().grow(12 * MB))).to.equal('granted');
    const crowded = new MemoryBudget(8 * MB, 1000);
    const medium = crowded.lease();
    medium.grow(2 * MB);
    const large = crowded.lease().grow(12 * MB);
    expect(await outcome(large)).to.equal('waiting');
    medium.shrinkTo(1 * MB);
    expect(await outcome(large)).to.equal('granted');
  });

  it('lets a request larger than the whole budget run alone, and grow while alone', async () => {
    const budget = new MemoryBudget(4 * MB, 1000);
    const alone = budget.lease();
    expect(await outcome(alone.grow(6 * MB))).to.equal('granted');
    expect(await outcome(alone.grow(2 * MB))).to.equal('granted');
    const other = budget.lease().grow(1);
    expect(await outcome(other)).to.equal('waiting');
    alone.release();
    expect(await outcome(other)).to.equal('granted');
  });

  it('lets small requests pass a waiting large one when they fit, but not large ones', async () => {
    const budget = new MemoryBudget(10 * MB, 1000);
    budget.lease().grow(6 * MB);
    const large = budget.lease().grow(6 * MB);
    expect(await outcome(large)).to.equal('waiting');
    expect(await outcome(budget.lease().grow(64 * 1024))).to.equal('granted');
    expect(await outcome(budget.lease().grow(2 * MB))).to.equal('waiting');
  });

  it('gives back what a lease holds beyond a smaller size, and what it was granted after its release', async () => {
    const budget = new MemoryBudget(10 * MB, 1000);
    const holder = budget.lease();
    holder.grow(9 * MB);
    const lease = budget.lease();
    const waiting = lease.grow(4 * MB);
    lease.release();
    holder.shrinkTo(1 * MB);
    expect(await outcome(waiting)).to.equal('granted');
    expect(budget.inUse).to.equal(1 * MB);
  });

  it('holds the size a gzip announces before inflating it, and refuses a bomb at the limit', async () => {
    const budget = new MemoryBudget(64 * MB, 1000);
    const text = Buffer.alloc(3 * MB, '{},');
    const lease = budget.lease();
    const decoded = await decompressPayload(
      { body: gzipSync(text), query: {}, contentType: 'application/json', contentEncoding: 'gzip' },
      25 * MB,
      lease,
    );
    expect(decoded.equals(text)).to.equal(true);
    expect(lease.bytes).to.equal(text.length);
    lease.release();

    const bomb = budget.lease();
    const error = await decompressPayload(
      { body: gzipSync(Buffer.alloc(8 * MB, ' ')), query: {}, contentType: 'text/plain', contentEncoding: undefined },
      2 * MB,
      bomb,
    ).catch((failure: unknown) => failure);
    expect((error as ApiError).code).to.equal('request_too_large');
    expect(bomb.bytes).to.equal(2 * MB);
  });

  it('inflates large payloads into a buffer kept for the next one, once the request is answered', async () => {
    const budget = new MemoryBudget(64 * MB, 1000, 1);
    const request = (text: Buffer) =>
      ({ body: gzipSync(text), query: {}, contentType: 'application/json', contentEncoding: 'gzip' }) as const;
    const first = budget.lease();
    await first.turnForLargeWork();
    const firstText = Buffer.alloc(2 * MB, '{},');
    const decoded = await decompressPayload(request(firstText), 25 * MB, first);
    expect(decoded.equals(firstText)).to.equal(true);
    first.release();

    const second = budget.lease();
    await second.turnForLargeWork();
    const secondText = Buffer.alloc(1 * MB, '[],');
    const again = await decompressPayload(request(secondText), 25 * MB, second);
    expect(again.equals(secondText)).to.equal(true);
    expect(again.buffer).to.equal(decoded.buffer);
    // While it is in use, another large request (with a turn of its own) inflates elsewhere.
    const wider = new MemoryBudget(64 * MB, 1000, 2);
    const [one, two] = [wider.lease(), wider.lease()];
    const [a, b] = await Promise.all([decompressPayload(request(firstText), 25 * MB, one), decompressPayload(request(secondText), 25 * MB, two)]);
    expect(a.buffer).to.not.equal(b.buffer);
    expect([a.equals(firstText), b.equals(secondText)]).to.deep.equal([true, true]);
    second.release();
  });

  it('makes an inflating request wait for room, and refuses it when none comes', async () => {
    const budget = new MemoryBudget(4 * MB, 40);
    budget.lease().grow(3 * MB);
    const error = await decompressPayload(
      { body: gzipSync(Buffer.alloc(2 * MB, '[],')), query: {}, contentType: 'application/json', contentEncoding: 'gzip' },
      25 * MB,
      budget.lease(),
    ).catch((failure: unknown) => failure);
    expect((error as ApiError).code).to.equal('capture_busy');
  });
});
