/** Helpers for tests that generate events: a seeded generator and exact timestamps. */

/** A small deterministic generator, so that a failure can be replayed. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Microseconds since the epoch, from an ISO 8601 text with up to six decimals. */
export function micros(iso: string): bigint {
  const [, seconds, fraction = ''] = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/.exec(iso)!;
  return BigInt(Date.parse(`${seconds}Z`)) * 1000n + BigInt(fraction.padEnd(6, '0'));
}

/** A UUID (version 4 layout) drawn from a seeded generator, so that the order of equal timestamps replays too. */
export function seededUuid(next: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(next() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const text = hex.join('');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
}
