/** Generation and hashing of the two kinds of keys, in PostHog's formats. */
import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length)) {
      // 248 = 4 * 62: dropping bytes above it keeps every character equally likely.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** A project API key (public; goes into capture requests). */
export const newProjectApiToken = (): string => `phc_${randomBase62(43)}`;

/** A personal API key (secret; shown once, stored only as its hash). */
export const newPersonalApiKey = (): string => `phx_${randomBase62(43)}`;

/** The stored form of a personal API key: unsalted SHA-256, as PostHog stores them. */
export const hashPersonalApiKey = (key: string): string => `sha256$${createHash('sha256').update(key).digest('hex')}`;

/** What may be shown of a key later: its prefix and last four characters. */
export const maskPersonalApiKey = (key: string): string => `${key.slice(0, 4)}...${key.slice(-4)}`;

/** Eight random letters and digits, as PostHog's short ids. */
export const newShortId = (): string => randomBase62(8);
