/**
 * Small requests that expand into large work: the capture payloads an attacker (or a broken client) can
 * send, for the hostile-input tests and `npm run bench -- hostile`. Each is a gzip of a few tens of kilobytes
 * that inflates to just under capture's 25 MiB decoded limit, or beyond it (a bomb).
 */
import { gzipSync } from 'node:zlib';

/** Just under capture's decoded limit (CAPTURE_DECODED_LIMIT_BYTES, 25 MiB). */
export const FLOOD_BYTES = 25 * 1024 * 1024 - 64;

/** `head` + `unit` repeated + `tail`, `total` bytes in all (the last unit without its separator). */
function repeated(head: string, unit: string, tail: string, total: number): Buffer {
  const units = Math.floor((total - head.length - tail.length) / unit.length);
  const text = Buffer.alloc(head.length + units * unit.length - 1 + tail.length);
  text.write(head, 0, 'latin1');
  text.fill(unit, head.length, head.length + units * unit.length - 1, 'latin1');
  text.write(tail, head.length + units * unit.length - 1, 'latin1');
  return text;
}

export type KeyChoice = { key: string } | 'wrong' | 'none';

function keyMember(choice: KeyChoice): string {
  if (choice === 'none') return '';
  return `"api_key":${JSON.stringify(choice === 'wrong' ? 'phc_thisKeyBelongsToNoProject000000000000' : choice.key)},`;
}

export interface HostilePayload {
  name: string;
  /** The gzip body. */
  body: Buffer;
  /** What it inflates to, in bytes. */
  decodedBytes: number;
}

function gzipped(name: string, text: Buffer): HostilePayload {
  return { name, body: gzipSync(text, { level: 9 }), decodedBytes: text.length };
}

/** A `/batch/` envelope of millions of empty events: `{"api_key":…,"batch":[{},{},…]}`. */
export function emptyEventFlood(choice: KeyChoice, bytes = FLOOD_BYTES): HostilePayload {
  return gzipped(`empty events, key ${typeof choice === 'string' ? choice : 'valid'}`, repeated(`{${keyMember(choice)}"batch":[`, '{},', ']}', bytes));
}

/** The same with the key after the events (as posthog-python orders its batch). */
export function emptyEventFloodKeyLast(choice: KeyChoice, bytes = FLOOD_BYTES): HostilePayload {
  const key = keyMember(choice);
  return gzipped(`empty events, key last ${typeof choice === 'string' ? choice : 'valid'}`, repeated('{"batch":[', '{},', `]${key ? `,${key.slice(0, -1)}` : ''}}`, bytes));
}

/** A bare array of millions of empty arrays: `[[],[],…]`. */
export function emptyArrayFlood(bytes = FLOOD_BYTES): HostilePayload {
  return gzipped('empty arrays', repeated('[', '[],', ']', bytes));
}

/** One event whose property holds millions of empty arrays: one event of 25 MiB. */
export function hugeEvent(choice: KeyChoice, bytes = FLOOD_BYTES): HostilePayload {
  return gzipped(
    'one huge event',
    repeated(`{${keyMember(choice)}"event":"huge","distinct_id":"attacker","properties":{"a":[`, '[],', ']}}', bytes),
  );
}

/** A gzip bomb: 64 MiB of spaces, far beyond what capture inflates. */
export function gzipBomb(): HostilePayload {
  return gzipped('gzip bomb', Buffer.alloc(64 * 1024 * 1024, ' '));
}
