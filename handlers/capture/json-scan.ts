/**
 * Finds where the values of a JSON text are without parsing them: the members of the top-level object and
 * the items of an array, as byte ranges of the UTF-8 text.
 *
 * Why: a large capture payload is read one event at a time (handlers/capture/pipeline.ts). JSON.parse of a
 * whole 25 MiB batch holds the event loop for as long as it takes and builds every event at once (millions
 * of tiny ones make hundreds of megabytes); read item by item, each event is parsed, normalised and let go,
 * the work can pause between items, and the project API key can be checked before any event is parsed.
 *
 * Only the structure between the values is checked here (brackets, commas, colons, strings); each value is
 * parsed by JSON.parse on its own range later, which checks the rest.
 */

export class JsonStructureError extends Error {}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isWhitespace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

export function skipWhitespace(bytes: Uint8Array, from: number): number {
  let index = from;
  while (isWhitespace(bytes[index])) index += 1;
  return index;
}

function unexpected(bytes: Uint8Array, index: number): JsonStructureError {
  return index >= bytes.length
    ? new JsonStructureError('Unexpected end of JSON input')
    : new JsonStructureError(`Unexpected character ${JSON.stringify(String.fromCharCode(bytes[index]!))} at position ${index}`);
}

/** Index just past the string whose opening quote is at `start`. */
export function endOfString(bytes: Buffer, start: number): number {
  let quote = start;
  for (;;) {
    quote = bytes.indexOf(QUOTE, quote + 1);
    if (quote === -1) throw new JsonStructureError('Unterminated string in JSON');
    // Escaped when an odd number of backslashes stands before it.
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
  }
}

/** Where a container's scan stopped: past its end (`end`), or at `index` with `depth` still open. */
interface ContainerScan {
  end: number;
  index: number;
  depth: number;
}

/** Scans a container from `index` (at `depth`) for at most `budget` bytes. */
function scanContainer(bytes: Buffer, index: number, depth: number, budget: number): ContainerScan {
  const stop = Math.min(bytes.length, index + budget);
  let open = depth;
  let at = index;
  while (at < stop) {
    const byte = bytes[at];
    if (byte === QUOTE) {
      at = endOfString(bytes, at);
      continue;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      open += 1;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      open -= 1;
      if (open === 0) return { end: at + 1, index: at + 1, depth: 0 };
    }
    at += 1;
  }
  if (at >= bytes.length) throw unexpected(bytes, bytes.length);
  return { end: -1, index: at, depth: open };
}

/** Bytes of a container scanned between two pauses of endOfValueSliced. */
const SLICE_BYTES = 1024 * 1024;

/**
 * As endOfValue, for a value that may be megabytes long (a batch skipped to find the key after it): the event
 * loop gets a turn every SLICE_BYTES.
 */
export async function endOfValueSliced(bytes: Buffer, start: number, pause: () => Promise<void>): Promise<number> {
  const first = bytes[start];
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) return endOfValue(bytes, start);
  let scan = scanContainer(bytes, start, 0, SLICE_BYTES);
  while (scan.end === -1) {
    await pause();
    scan = scanContainer(bytes, scan.index, scan.depth, SLICE_BYTES);
  }
  return scan.end;
}

/** Index just past the value that starts at `start` (no whitespace before it). */
export function endOfValue(bytes: Buffer, start: number): number {
  const first = bytes[start];
  if (first === QUOTE) return endOfString(bytes, start);
  if (first === OPEN_BRACE || first === OPEN_BRACKET) return scanContainer(bytes, start, 0, bytes.length).end;
  // A number or a literal: up to the next delimiter.
  let index = start;
  while (index < bytes.length) {
    const byte = bytes[index]!;
    if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isWhitespace(byte)) break;
    index += 1;
  }
  if (index === start) throw unexpected(bytes, start);
  return index;
}

export interface Range {
  start: number;
  end: number;
}

/** The kind of the top-level value: what its first byte says. */
export function topLevelKind(bytes: Buffer): 'object' | 'array' | 'other' {
  const first = bytes[skipWhitespace(bytes, 0)];
  return first === OPEN_BRACE ? 'object' : first === OPEN_BRACKET ? 'array' : 'other';
}

/** Checks that nothing but whitespace follows `end`. */
function expectEnd(bytes: Buffer, end: number): void {
  const rest = skipWhitespace(bytes, end);
  if (rest !== bytes.length) throw unexpected(bytes, rest);
}

/**
 * The members of the top-level object, in order, as their decoded names and the ranges of their values (a
 * generator: a caller can act on a member before the rest is scanned). `pause` lets the event loop in while
 * a long value is skipped.
 */
export async function* objectMembers(bytes: Buffer, pause: () => Promise<void>): AsyncGenerator<[string, Range]> {
  let index = skipWhitespace(bytes, 0);
  if (bytes[index] !== OPEN_BRACE) throw unexpected(bytes, index);
  index = skipWhitespace(bytes, index + 1);
  if (bytes[index] === CLOSE_BRACE) {
    expectEnd(bytes, index + 1);
    return;
  }
  for (;;) {
    if (bytes[index] !== QUOTE) throw unexpected(bytes, index);
    const nameEnd = endOfString(bytes, index);
    const name = JSON.parse(bytes.toString('utf8', index, nameEnd)) as string;
    index = skipWhitespace(bytes, nameEnd);
    if (bytes[index] !== COLON) throw unexpected(bytes, index);
    const start = skipWhitespace(bytes, index + 1);
    const end = await endOfValueSliced(bytes, start, pause);
    yield [name, { start, end }];
    index = skipWhitespace(bytes, end);
    if (bytes[index] === CLOSE_BRACE) {
      expectEnd(bytes, index + 1);
      return;
    }
    if (bytes[index] !== COMMA) throw unexpected(bytes, index);
    index = skipWhitespace(bytes, index + 1);
  }
}

/**
 * The items of the array in `range` (the whole text when it is the top-level value), one range at a time.
 * A generator, so that millions of items need no list of their ranges; it yields one range object, moved
 * along (read it before asking for the next), so that millions of items make no garbage either.
 */
export function* arrayItems(bytes: Buffer, range: Range): Generator<Readonly<Range>> {
  let index = skipWhitespace(bytes, range.start);
  if (bytes[index] !== OPEN_BRACKET) throw unexpected(bytes, index);
  index = skipWhitespace(bytes, index + 1);
  if (bytes[index] === CLOSE_BRACKET) return;
  const item: Range = { start: 0, end: 0 };
  for (;;) {
    const end = endOfValue(bytes, index);
    if (end > range.end) throw unexpected(bytes, range.end);
    item.start = index;
    item.end = end;
    yield item;
    index = skipWhitespace(bytes, end);
    if (bytes[index] === CLOSE_BRACKET) {
      if (index + 1 !== range.end) throw unexpected(bytes, index + 1);
      return;
    }
    if (bytes[index] !== COMMA) throw unexpected(bytes, index);
    index = skipWhitespace(bytes, index + 1);
  }
}

/** The top-level array's own range, checking that nothing follows it. */
export function topLevelArray(bytes: Buffer): Range {
  const start = skipWhitespace(bytes, 0);
  const end = endOfValue(bytes, start);
  expectEnd(bytes, end);
  return { start, end };
}
