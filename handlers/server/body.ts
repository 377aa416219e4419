/**
 * Reads request bodies with a hard size limit, counting bytes as they arrive so that an oversized body is
 * refused (413) without ever being buffered whole.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors } from '../../db/core/errors.js';
import { jsonValueProblem } from '../../db/core/json-limits.js';

/** Management API bodies are small JSON documents. */
export const API_BODY_LIMIT_BYTES = 1024 * 1024;

/** Capture request bodies must be under 20 MB, as PostHog's. */
export const CAPTURE_BODY_LIMIT_BYTES = 20 * 1024 * 1024 - 1;

/** What a body holds of a memory budget (handlers/capture/budget.ts): grown as its bytes arrive. */
export interface ByteLease {
  /** Null when granted at once; else resolves when granted (rejects when refused). */
  grow(bytes: number): Promise<void> | null;
  shrinkTo(bytes: number): void;
}

/**
 * Reads the body. With a lease, its bytes are held against the budget: the announced length before the first
 * byte is read (all at once, so that requests never hold half of what they need while waiting for the rest),
 * or chunk by chunk without one; while the budget has no room the socket is paused.
 */
export async function readBody(req: IncomingMessage, limitBytes: number, lease: ByteLease | null = null): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  const announced = Number.isFinite(declared) && declared >= 0 && req.headers['content-length'] !== undefined;
  if (announced && declared > limitBytes) {
    req.resume();
    throw errors.tooLarge(limitBytes);
  }
  if (lease && announced) {
    const wait = lease.grow(declared);
    if (wait) {
      req.pause();
      await wait.catch((error: unknown) => {
        req.resume();
        throw error;
      });
    }
  }
  // Plain 'data' events rather than an async iterator: the iterator costs several microseconds per request,
  // which shows on the capture path.
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const fail = (error: unknown) => {
      cleanup();
      req.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes || (announced && received > declared)) {
        fail(errors.tooLarge(limitBytes));
        return;
      }
      chunks.push(chunk);
      const wait = lease && !announced ? lease.grow(chunk.length) : null;
      if (wait) {
        req.pause();
        wait.then(() => req.resume(), fail);
      }
    };
    const onEnd = () => {
      cleanup();
      if (lease && announced) lease.shrinkTo(received);
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error('the client closed the connection before sending the whole body'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
    req.resume();
  });
}

/**
 * How much of a refused body's remainder is read and thrown away, at most, and for how long, before the
 * connection is closed on a client that is still sending.
 */
export const REFUSED_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
export const REFUSED_BODY_DRAIN_MS = 10_000;

/**
 * Answers a request whose body is refused while the client may still be sending it (a 413): the answer goes
 * out at once with `Connection: close`, and the connection closes only once the rest of the body has been read
 * and thrown away, within REFUSED_BODY_DRAIN_BYTES and REFUSED_BODY_DRAIN_MS. Kept alive, the connection would
 * read the rest of any body, however large or slow; closed at once, a socket with unread bytes is reset by the
 * kernel, and the client's writes fail before it reads the answer.
 */
export function answerThenDrain(
  req: IncomingMessage,
  res: ServerResponse,
  answer: { status: number; headers: Readonly<Record<string, string>>; contentType: string; text: string },
): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(answer.status, {
    ...answer.headers,
    'Content-Type': answer.contentType,
    'Content-Length': Buffer.byteLength(answer.text),
    Connection: 'close',
  });
  if (req.complete || req.destroyed) {
    res.end(answer.text);
    return;
  }
  res.write(answer.text);
  let drained = 0;
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > REFUSED_BODY_DRAIN_BYTES) finish();
  };
  const timer = setTimeout(finish, REFUSED_BODY_DRAIN_MS);
  function finish(): void {
    clearTimeout(timer);
    req.off('data', onData);
    req.off('end', finish);
    req.off('close', finish);
    res.end();
  }
  req.on('data', onData);
  req.once('end', finish);
  req.once('close', finish);
  req.resume();
}

/** The media type of a Content-Type header, lower-cased and without parameters. */
export function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Parses a JSON request body; an empty body is an empty object, as DRF treats it. */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return {};
  const type = mediaType(contentType);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw errors.unsupportedMediaType(type || 'none');
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw errors.parse(`JSON parse error - ${(error as Error).message}`);
  }
  const problem = jsonValueProblem(body);
  if (problem) throw errors.parse(`JSON parse error - ${problem}.`);
  return body;
}
