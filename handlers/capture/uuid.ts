/** UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits; what the SDKs generate, and capture too. */
import { randomFillSync } from 'node:crypto';

const POOL_SIZE = 16 * 256;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

export function uuidv7(now: number = Date.now()): string {
  if (poolOffset >= POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + 16));
  poolOffset += 16;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
