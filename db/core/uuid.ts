/** UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits; what the SDKs generate, and capture too. */
import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 16 * 256;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

/**
 * A UUIDv7 for the millisecond `now`. Its random bits come from the system's generator, or from `random` (each
 * byte a draw in [0, 1)) where the caller needs the same UUIDs on every run (scripts/generate-events.ts).
 */
export function uuidv7(now: number = Date.now(), random?: () => number): string {
  // The first six bytes are the time's: only the ten after them are drawn.
  const bytes = random ? Buffer.from([0, 0, 0, 0, 0, 0, ...Array.from({ length: 10 }, () => Math.floor(random() * 256))]) : pooledRandomBytes();
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function pooledRandomBytes(): Buffer {
  if (poolOffset >= POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  return bytes;
}
