/**
 * PostgreSQL's JSON text made into what JSON.stringify writes for the same value once pg has parsed it, so that
 * lines PostgreSQL builds are byte for byte the lines the record path builds from records.
 *
 * The two differ only in ways a single pass over the bytes can mend: PostgreSQL puts a space after `:` and `,`;
 * it prints numbers as stored (`1.50`, `0.0000001`, digits beyond a double's precision), where JavaScript prints
 * the nearest double; and JavaScript puts an object's integer-like keys ("0", "17") first, in numeric order,
 * where jsonb orders keys by length. Strings need nothing: both escape the same characters the same way. Spaces
 * and numbers are mended in place; a line with an integer-like key (rare) goes through JSON.parse and
 * JSON.stringify, exactly as the record path does with it.
 */
import { Transform, type TransformCallback } from 'node:stream';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SPACE = 0x20;
const NEWLINE = 0x0a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;

const isDigit = (byte: number) => byte >= ZERO && byte <= NINE;
/** Bytes of a number token besides digits: a fraction or an exponent, which JavaScript may print otherwise. */
const isNumberMark = (byte: number) => byte === 0x2e || byte === 0x65 || byte === 0x45 || byte === 0x2b || byte === MINUS;

/** Numbers of at most this many bytes, without fraction or exponent, are exact doubles printed the same way. */
const EXACT_INTEGER_BYTES = 15;

/** A growable output buffer. */
class Output {
  buffer: Buffer;
  length = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(capacity);
  }

  reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }

  copy(source: Buffer, start: number, end: number): void {
    if (end <= start) return;
    this.reserve(end - start);
    this.length += source.copy(this.buffer, this.length, start, end);
  }

  ascii(text: string): void {
    this.reserve(text.length);
    this.length += this.buffer.write(text, this.length, 'latin1');
  }

  utf8(text: string): void {
    this.reserve(Buffer.byteLength(text));
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  byte(value: number): void {
    this.reserve(1);
    this.buffer[this.length++] = value;
  }
}

/** Whether `source[start, end)` is a possible array index: 1 to 10 digits. */
function digitsOnly(source: Buffer, start: number, end: number): boolean {
  if (end <= start || end - start > 10) return false;
  for (let index = start; index < end; index++) if (!isDigit(source[index]!)) return false;
  return true;
}

/**
 * Appends the line `source[start, end)` (PostgreSQL's JSON text, no newline) as JSON.stringify would write it.
 * Answers false, having appended nothing, when the line has an integer-like object key. Bytes are copied one by
 * one in this loop: a native copy per segment between spaces costs more than the copying itself.
 */
function appendCompactLine(source: Buffer, start: number, end: number, out: Output): boolean {
  const mark = out.length;
  // Compacting only shrinks a line, except numbers, which reserve their own room.
  out.reserve(end - start);
  let target = out.buffer;
  let at = out.length;
  let index = start;
  while (index < end) {
    const byte = source[index]!;
    if (byte === QUOTE) {
      const open = index;
      target[at++] = byte;
      index += 1;
      for (;;) {
        const inner = source[index++]!;
        target[at++] = inner;
        if (inner === QUOTE) break;
        if (inner === BACKSLASH) target[at++] = source[index++]!;
      }
      // A key is the string before a colon; a digits-only one may be an array index, which JavaScript reorders.
      if (digitsOnly(source, open + 1, index - 1)) {
        let next = index;
        while (source[next] === SPACE) next += 1;
        if (source[next] === COLON) {
          out.length = mark;
          return false;
        }
      }
    } else if (byte === SPACE) {
      index += 1;
    } else if (byte === MINUS || isDigit(byte)) {
      let tokenEnd = index + 1;
      // "-0" is printed "0" by JavaScript.
      let exact = !(byte === MINUS && source[index + 1] === ZERO);
      while (tokenEnd < end) {
        const inner = source[tokenEnd]!;
        if (isDigit(inner)) tokenEnd += 1;
        else if (isNumberMark(inner)) {
          exact = false;
          tokenEnd += 1;
        } else break;
      }
      if (!exact || tokenEnd - index > EXACT_INTEGER_BYTES) {
        out.length = at;
        out.ascii(JSON.stringify(Number(source.toString('latin1', index, tokenEnd))));
        out.reserve(end - tokenEnd);
        target = out.buffer;
        at = out.length;
        index = tokenEnd;
      } else {
        while (index < tokenEnd) target[at++] = source[index++]!;
      }
    } else {
      target[at++] = byte;
      index += 1;
    }
  }
  out.length = at;
  return true;
}

/** Lines of PostgreSQL's JSON text in, as JSON.stringify writes them. */
export function compactJsonLines(text: Buffer): Buffer {
  const out = new Output(text.length);
  let start = 0;
  for (let newline = text.indexOf(NEWLINE); newline !== -1; newline = text.indexOf(NEWLINE, start)) {
    appendLine(text, start, newline, out);
    start = newline + 1;
  }
  if (start < text.length) throw new Error('JSON lines must end with a newline');
  return out.buffer.subarray(0, out.length);
}

function appendLine(source: Buffer, start: number, end: number, out: Output): void {
  out.reserve(end - start + 1);
  if (!appendCompactLine(source, start, end, out)) out.utf8(JSON.stringify(JSON.parse(source.toString('utf8', start, end))));
  out.byte(NEWLINE);
}

/** What JsonLinesBatcher hands on: `count` whole lines, each ending in a newline. */
export interface JsonLinesBatch {
  lines: Buffer;
  count: number;
}

/**
 * PostgreSQL's JSON lines as a byte stream in, batches of `batchSize` compacted lines out (the last one
 * shorter), so that a file writer flushes, rolls and reports after the same lines as it does for batches of
 * records. A line split across chunks is carried to the next one.
 */
export class JsonLinesBatcher extends Transform {
  private carry: Buffer | null = null;
  private out: Output | null = null;
  private count = 0;
  private capacity = 1 << 16;

  constructor(private readonly batchSize: number) {
    super({ readableObjectMode: true, readableHighWaterMark: 1 });
    if (!Number.isSafeInteger(batchSize) || batchSize < 1) throw new Error(`a batch size must be a positive integer: ${batchSize}`);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      const text = this.carry === null ? chunk : Buffer.concat([this.carry, chunk]);
      let start = 0;
      for (let newline = text.indexOf(NEWLINE); newline !== -1; newline = text.indexOf(NEWLINE, start)) {
        this.out ??= new Output(this.capacity);
        appendLine(text, start, newline, this.out);
        start = newline + 1;
        if (++this.count === this.batchSize) this.emitBatch();
      }
      this.carry = start < text.length ? text.subarray(start) : null;
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }

  override _flush(callback: TransformCallback): void {
    if (this.carry !== null) {
      callback(new Error('The JSON lines ended inside a line'));
      return;
    }
    if (this.count > 0) this.emitBatch();
    callback();
  }

  private emitBatch(): void {
    const out = this.out!;
    // The next batch likely needs about as much room as this one did.
    this.capacity = Math.max(1 << 16, out.length + (out.length >> 3));
    this.push({ lines: out.buffer.subarray(0, out.length), count: this.count } satisfies JsonLinesBatch);
    this.out = null;
    this.count = 0;
  }
}
