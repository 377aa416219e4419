/**
 * Capture decoding: from the bytes of a request to the JSON payload, whichever way an SDK encoded it.
 *
 *   payload source   the `data` query parameter when present (GET capture), else the body; a form body
 *                    (`application/x-www-form-urlencoded`) gives its `data` field, unless it is plainly JSON
 *   compression      from `?compression=`, the form's `compression`, or `Content-Encoding` (first known wins)
 *   decompression    gzip when announced or when the bytes start with gzip's magic number (posthog-js sends
 *                    gzip as text/plain without saying so); lz64 when announced; base64 when announced or when
 *                    the payload is nothing but base64 characters
 *   parse            UTF-8, then JSON
 *
 * Every step is bounded: the decoded payload may not exceed `maxBytes` (413), and what it decodes to is held
 * against the request's lease of capture's memory budget (handlers/capture/budget.ts) as it grows, so that a
 * gzip bomb costs no more memory than the budget allows, however many arrive at once.
 */
import { isUtf8 } from 'node:buffer';
import { createGunzip, gunzipSync } from 'node:zlib';
import { parseJsonExactly } from '../../db/core/exact-json.js';
import { MAX_JSON_DEPTH, scanJsonValue } from '../../db/core/json-limits.js';
import type { BudgetLease } from './budget.js';
import { captureErrors } from './errors.js';
import { DecodedTooLarge, InvalidLzString, decompressLz64 } from './lz-string.js';

/** The decoded payload may be at most this large (PostHog's capture uses the same 25 MiB event-size limit). */
export const CAPTURE_DECODED_LIMIT_BYTES = 25 * 1024 * 1024;

/** `/flags/` bodies are small JSON objects, parsed whole. */
export const FLAGS_DECODED_LIMIT_BYTES = 1024 * 1024;

/**
 * A gzip that inflates to at most this much is inflated at once on the main thread, which is cheaper than a
 * stream through libuv's thread pool for the small bodies SDKs send; a larger one (a batch, or a bomb) is
 * streamed off the main thread, its output held against the budget as it comes.
 */
const SYNC_INFLATE_MAX_BYTES = 256 * 1024;

/** zlib's default output chunk (16 KiB) makes a callback per chunk: a 25 MiB payload inflated several times slower. */
const INFLATE_CHUNK_BYTES = 1024 * 1024;

export type Compression = 'gzip' | 'lz64' | 'base64';

/** What decoding needs to know of a request. */
export interface EncodedRequest {
  body: Buffer;
  /** The query string's parameters (only `data` and `compression` matter here). */
  query: Readonly<Record<string, unknown>>;
  contentType: string | undefined;
  contentEncoding: string | undefined;
}

/** A compression name as SDKs spell it, or null for none or an unknown one. */
export function compressionOf(value: string | undefined | null): Compression | null {
  switch ((value ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'gzip-js':
      return 'gzip';
    case 'lz64':
    case 'lz-string':
      return 'lz64';
    case 'base64':
    case 'b64':
      return 'base64';
    default:
      return null;
  }
}

export function hasGzipMagic(bytes: Buffer): boolean {
  return bytes.length >= 3 && bytes[0] === 0x1f && bytes[1] === 0x8b && bytes[2] === 0x08;
}

const BASE64_BYTE = new Uint8Array(256);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=') {
  BASE64_BYTE[char.charCodeAt(0)] = 1;
}

/**
 * Whether a payload looks like standard base64 (as PostHog's capture guesses it): a length that is a multiple
 * of four and only base64 characters in its first 128 bytes. JSON never does: it starts with `{`, `[` or `"`.
 */
export function looksLikeBase64(bytes: Buffer): boolean {
  if (bytes.length === 0 || bytes.length % 4 !== 0) return false;
  const end = Math.min(bytes.length, 128);
  for (let index = 0; index < end; index += 1) {
    if (!BASE64_BYTE[bytes[index]!]) return false;
  }
  return true;
}

function looksLikeJson(bytes: Buffer): boolean {
  for (const byte of bytes) {
    if (byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09) continue;
    return byte === 0x7b || byte === 0x5b; // { or [
  }
  return false;
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * A `data` value from a form or a query string. URL decoding turned every unescaped `+` into a space, which
 * breaks base64; JSON would start with `{` or `[`, so anything else gets its `+` back.
 */
function dataValue(raw: string): string {
  const trimmed = raw.trim();
  return trimmed.startsWith('{') || trimmed.startsWith('[') ? raw : raw.replace(/ /g, '+');
}

async function inflate(bytes: Buffer, maxBytes: number, lease: BudgetLease | null): Promise<Buffer> {
  try {
    const small = gunzipSync(bytes, { maxOutputLength: Math.min(maxBytes, SYNC_INFLATE_MAX_BYTES) });
    await lease?.grow(small.length);
    return small;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw captureErrors.malformed('invalid gzip data.');
    if (maxBytes <= SYNC_INFLATE_MAX_BYTES) throw captureErrors.decodedTooLarge(maxBytes);
  }
  return inflateStreaming(bytes, maxBytes, lease);
}

/**
 * Inflates in libuv's thread pool. The size the gzip announces (its trailer's ISIZE, which zlib checks at the
 * end) is held against the budget before the first byte is inflated, all at once, so that concurrent requests
 * never each hold half of what they need while waiting for the rest; output beyond it (several gzip members)
 * is held as it comes, pausing while the budget has no room.
 */
async function inflateStreaming(bytes: Buffer, maxBytes: number, lease: BudgetLease | null): Promise<Buffer> {
  await lease?.turnForLargeWork();
  const announced = Math.min(bytes.length >= 18 ? bytes.readUInt32LE(bytes.length - 4) : 0, maxBytes);
  await lease?.grow(announced);
  const gunzip = createGunzip({ chunkSize: INFLATE_CHUNK_BYTES });
  // Written into one buffer of the announced size, not gathered and copied again at the end (twice the memory).
  const whole = lease ? lease.bufferForLargeWork(announced) : Buffer.allocUnsafe(announced);
  const chunks: Buffer[] = [];
  let total = 0;
  return new Promise<Buffer>((resolve, reject) => {
    const fail = (error: unknown) => {
      gunzip.destroy();
      reject(error);
    };
    gunzip.on('data', (chunk: Buffer) => {
      const beyond = Math.max(0, total + chunk.length - Math.max(total, announced));
      if (total + chunk.length > maxBytes) return fail(captureErrors.decodedTooLarge(maxBytes));
      if (total + chunk.length <= announced) chunk.copy(whole, total);
      else chunks.push(total < announced ? chunk.subarray(announced - total) : chunk);
      if (total < announced && total + chunk.length > announced) chunk.copy(whole, total, 0, announced - total);
      total += chunk.length;
      const wait = beyond > 0 ? lease?.grow(beyond) : null;
      if (wait) {
        gunzip.pause();
        wait.then(() => gunzip.resume(), fail);
      }
    });
    gunzip.on('end', () => {
      if (chunks.length === 0) resolve(whole.subarray(0, total));
      else resolve(Buffer.concat([whole.subarray(0, Math.min(total, announced)), ...chunks], total));
    });
    gunzip.on('error', () => fail(captureErrors.malformed('invalid gzip data.')));
    gunzip.end(bytes);
  });
}

function fromBase64(text: string, maxBytes: number): Buffer {
  const cleaned = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(cleaned)) throw captureErrors.malformed('invalid base64 data.');
  if (Math.floor((cleaned.length * 3) / 4) > maxBytes) throw captureErrors.decodedTooLarge(maxBytes);
  return Buffer.from(cleaned, 'base64');
}

function fromLz64(text: string, maxBytes: number): Buffer {
  try {
    // A UTF-16 code unit takes at most three UTF-8 bytes; the exact size is checked after encoding.
    const decoded = Buffer.from(decompressLz64(text, maxBytes), 'utf8');
    if (decoded.length > maxBytes) throw new DecodedTooLarge();
    return decoded;
  } catch (error) {
    if (error instanceof DecodedTooLarge) throw captureErrors.decodedTooLarge(maxBytes);
    if (error instanceof InvalidLzString) throw captureErrors.malformed(`${error.message}.`);
    throw error;
  }
}

/** Where the payload is and what it says about its compression. */
function locatePayload(request: EncodedRequest): { bytes: Buffer; hint: Compression | null } {
  const queryHint = compressionOf(typeof request.query.compression === 'string' ? request.query.compression : null);
  const headerHint = compressionOf(request.contentEncoding);
  const queryData = request.query.data;
  if (typeof queryData === 'string' && queryData !== '') {
    return { bytes: Buffer.from(dataValue(queryData), 'utf8'), hint: queryHint ?? headerHint };
  }
  if (request.body.length === 0) throw captureErrors.noData();
  // A JSON body sent with curl's default form content type is still JSON.
  if (mediaTypeOf(request.contentType) === 'application/x-www-form-urlencoded' && !hasGzipMagic(request.body) && !looksLikeJson(request.body)) {
    const form = new URLSearchParams(request.body.toString('utf8'));
    const data = form.get('data');
    if (data === null) throw captureErrors.malformed('expected form data with a "data" field.');
    if (data === '') throw captureErrors.noData();
    return { bytes: Buffer.from(dataValue(data), 'utf8'), hint: queryHint ?? compressionOf(form.get('compression')) ?? headerHint };
  }
  return { bytes: request.body, hint: queryHint ?? headerHint };
}

/** Undoes the payload's compression and base64 layers; returns the UTF-8 bytes of the JSON. */
export async function decompressPayload(
  request: EncodedRequest,
  maxBytes = CAPTURE_DECODED_LIMIT_BYTES,
  lease: BudgetLease | null = null,
): Promise<Buffer> {
  const { bytes, hint } = locatePayload(request);
  let payload = bytes;
  // A payload read out of a form or the query string is a copy of its own.
  if (bytes !== request.body) await lease?.grow(bytes.length);
  if (hint === 'gzip' || hasGzipMagic(payload)) {
    payload = await inflate(payload, maxBytes, lease);
  } else if (hint === 'lz64') {
    payload = fromLz64(payload.toString('latin1'), maxBytes);
    await lease?.grow(payload.length);
  } else if (hint === 'base64' || looksLikeBase64(payload)) {
    await lease?.grow(Math.floor((payload.length * 3) / 4));
    payload = fromBase64(payload.toString('latin1'), maxBytes);
    // Some old clients base64-encoded a gzip body, or base64-encoded twice.
    if (hasGzipMagic(payload)) payload = await inflate(payload, maxBytes, lease);
    else if (looksLikeBase64(payload)) payload = fromBase64(payload.toString('latin1'), maxBytes);
  }
  if (payload.length > maxBytes) throw captureErrors.decodedTooLarge(maxBytes);
  return payload;
}

/** The payload as JSON.parse reads it (and exact where it holds integers beyond 2^53), within MAX_JSON_DEPTH. */
export function parsePayload(bytes: Buffer): unknown {
  return parseJsonText(bytes, 0, bytes.length, MAX_JSON_DEPTH);
}

/**
 * One JSON value from `bytes[start, end)`, checked for invalid UTF-8, nesting beyond `maxDepth` and numbers out
 * of range, with integers beyond 2^53 kept exact.
 */
export function parseJsonText(bytes: Buffer, start: number, end: number, maxDepth: number, utf8Checked = false): unknown {
  const whole = start === 0 && end === bytes.length;
  if (!utf8Checked && !isUtf8(whole ? bytes : bytes.subarray(start, end))) throw captureErrors.malformed('invalid UTF-8 in request payload.');
  const text = bytes.toString('utf8', start, end);
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (error) {
    throw captureErrors.malformed(`Invalid JSON: ${(error as Error).message}`);
  }
  const scan = scanJsonValue(payload, maxDepth);
  if (scan.problem) throw captureErrors.malformed(`${scan.problem}.`);
  // Read again, keeping them exact (and within maxDepth, which the scan checked).
  return scan.largeNumbers ? parseJsonExactly(text, maxDepth) : payload;
}

/** The JSON payload of a request, parsed whole: for small ones (`/flags/`, within FLAGS_DECODED_LIMIT_BYTES). */
export async function decodePayload(request: EncodedRequest, maxBytes = CAPTURE_DECODED_LIMIT_BYTES): Promise<unknown> {
  return parsePayload(await decompressPayload(request, maxBytes));
}
