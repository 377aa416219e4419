/**
 * Reads request bodies with a hard size limit, counting bytes as they arrive so that an oversized body is
 * refused (413) without ever being buffered whole.
 */
import type { IncomingMessage } from 'node:http';
import { errors } from './errors.js';

/** Management API bodies are small JSON documents. */
export const API_BODY_LIMIT_BYTES = 1024 * 1024;

/** Capture request bodies must be under 20 MB, as PostHog's. */
export const CAPTURE_BODY_LIMIT_BYTES = 20 * 1024 * 1024 - 1;

export async function readBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) {
    req.resume();
    throw errors.tooLarge(limitBytes);
  }
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req) {
    received += (chunk as Buffer).length;
    if (received > limitBytes) {
      req.resume();
      throw errors.tooLarge(limitBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
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
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw errors.parse(`JSON parse error - ${(error as Error).message}`);
  }
}
