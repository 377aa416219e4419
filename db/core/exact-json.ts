/**
 * JSON whose large integers stay exact.
 *
 * JSON.parse reads every number as a double, exact only up to 2^53: a distinct id of 12345678901234567891
 * becomes 12345678901234567000, the same as 12345678901234567890, and the two users' events join one person.
 * PostHog's capture parses with serde_json, which reads an integer that fits 64 bits (-2^63 to 2^64 - 1) exactly
 * and stores what it read. Here such an integer literal beyond ±2^53 (without a fraction or an exponent: those
 * are doubles there too) is read as an ExactInteger holding its digits, and written back as those digits
 * (stringifyExact, exactJsonText).
 *
 * JSON.parse stays the parser: the text is read again by the parser below only when JSON.parse's result holds a
 * number beyond ±2^53, which ordinary payloads do not (db/core/json-limits.ts scanJsonValue notices it in the
 * walk every payload gets anyway). That parser accepts exactly what JSON.parse accepts.
 */
import { randomBytes } from 'node:crypto';
import { scanJsonValue } from './json-limits.js';

/** Where an exact integer stands in JSON.stringify's output, until exactJsonText writes its digits there. */
const MARK_START = '\uE000';
const MARK_END = '\uE001';
/** Unguessable, so that no string a client sends reads as a placeholder. */
const NONCE = randomBytes(8).toString('hex');
const PLACEHOLDER = new RegExp(`"${MARK_START}${NONCE}(-?\\d+)${MARK_END}"`, 'g');

/** An integer beyond ±2^53 (within 64 bits), as written. */
export class ExactInteger {
  constructor(readonly text: string) {
    if (!/^-?\d+$/.test(text)) throw new TypeError(`not an integer: ${text}`);
  }

  /** Its digits, as a distinct id or a group key shows them. */
  toString(): string {
    return this.text;
  }

  /** A placeholder that exactJsonText replaces with the digits (JSON.stringify can only write it as a string). */
  toJSON(): string {
    return `${MARK_START}${NONCE}${this.text}${MARK_END}`;
  }
}

/** JSON.stringify's output with the placeholders of exact integers replaced by their digits. */
export function exactJsonText(text: string): string {
  return text.includes(MARK_START) ? text.replace(PLACEHOLDER, '$1') : text;
}

/** JSON text of a value that may hold exact integers. */
export function stringifyExact(value: unknown): string {
  return exactJsonText(JSON.stringify(value));
}

/** The text as an ExactInteger when it is an integer beyond ±2^53 within 64 bits, else null. */
export function exactInteger(text: string): ExactInteger | null {
  if (!/^-?\d+$/.test(text) || Number.isSafeInteger(Number(text)) || text.length > 21) return null;
  return fitsSixtyFourBits(BigInt(text)) ? new ExactInteger(text) : null;
}

/** Refused while parsing: containers nested deeper than the caller allows. */
export class JsonTooDeep extends Error {}

/**
 * JSON.parse, except that integers beyond ±2^53 within 64 bits are ExactIntegers. The exact parser recurses: a
 * value nested deeper than `maxDepth` is JSON.parse's, rounded (capture refuses such values; only data stored
 * by other means can hold them).
 */
export function parseJson(text: string, maxDepth: number): unknown {
  const value: unknown = JSON.parse(text);
  if (!scanJsonValue(value, Number.POSITIVE_INFINITY).largeNumbers) return value;
  try {
    return parseJsonExactly(text, maxDepth);
  } catch (error) {
    if (error instanceof JsonTooDeep) return value;
    throw error;
  }
}

/** The exact parser itself, whatever the text holds (parseJson runs it only where JSON.parse would not do). */
export function parseJsonExactly(text: string, maxDepth: number): unknown {
  return new ExactParser(text, maxDepth).document();
}

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** What serde_json reads as an integer: i64 and u64. Beyond, it reads a double, as JSON.parse does. */
function fitsSixtyFourBits(value: bigint): boolean {
  return value >= INT64_MIN && value <= UINT64_MAX;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const PLAIN_CHARACTERS = /[^"\\\u0000-\u001f]*/y;

/** A recursive-descent reading of RFC 8259 JSON, with JSON.parse's results (own `__proto__` keys included). */
class ExactParser {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  document(): unknown {
    const value = this.value(1);
    this.skipWhitespace();
    if (this.at < this.text.length) this.fail();
    return value;
  }

  private fail(): never {
    throw new SyntaxError(
      this.at < this.text.length
        ? `Unexpected token '${this.text[this.at]}' at position ${this.at}`
        : 'Unexpected end of JSON input',
    );
  }

  private skipWhitespace(): void {
    while (this.at < this.text.length && WHITESPACE.has(this.text.charCodeAt(this.at))) this.at += 1;
  }

  private value(depth: number): unknown {
    this.skipWhitespace();
    switch (this.text[this.at]) {
      case '{':
        return this.object(depth);
      case '[':
        return this.array(depth);
      case '"':
        return this.string();
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case 'n':
        return this.literal('null', null);
      default:
        return this.number();
    }
  }

  private enter(depth: number): void {
    if (depth > this.maxDepth) throw new JsonTooDeep(`the JSON is nested more than ${this.maxDepth} levels deep`);
    this.at += 1;
    this.skipWhitespace();
  }

  private object(depth: number): Record<string, unknown> {
    this.enter(depth);
    const object: Record<string, unknown> = {};
    if (this.text[this.at] === '}') {
      this.at += 1;
      return object;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.at] !== '"') this.fail();
      const key = this.string();
      this.skipWhitespace();
      if (this.text[this.at] !== ':') this.fail();
      this.at += 1;
      const value = this.value(depth + 1);
      // As JSON.parse: `__proto__` is an own property like any other, not the object's prototype.
      if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
      else object[key] = value;
      if (this.closes('}')) return object;
    }
  }

  /** After a member or an element: true at the container's end, false after a comma; anything else fails. */
  private closes(end: '}' | ']'): boolean {
    this.skipWhitespace();
    const next = this.text[this.at];
    if (next !== end && next !== ',') this.fail();
    this.at += 1;
    return next === end;
  }

  private array(depth: number): unknown[] {
    this.enter(depth);
    const array: unknown[] = [];
    if (this.text[this.at] === ']') {
      this.at += 1;
      return array;
    }
    for (;;) {
      array.push(this.value(depth + 1));
      if (this.closes(']')) return array;
    }
  }

  private string(): string {
    this.at += 1; // the opening quote
    let result = '';
    for (;;) {
      PLAIN_CHARACTERS.lastIndex = this.at;
      PLAIN_CHARACTERS.exec(this.text);
      result += this.text.slice(this.at, PLAIN_CHARACTERS.lastIndex);
      this.at = PLAIN_CHARACTERS.lastIndex;
      const character = this.text[this.at];
      if (character === '"') {
        this.at += 1;
        return result;
      }
      if (character !== '\\') this.fail(); // the end of the text, or a control character
      const escape = this.text[this.at + 1];
      if (escape === 'u') {
        const hex = this.text.slice(this.at + 2, this.at + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.at += 2;
          this.fail();
        }
        result += String.fromCharCode(Number.parseInt(hex, 16));
        this.at += 6;
      } else if (escape !== undefined && Object.hasOwn(ESCAPES, escape)) {
        result += ESCAPES[escape];
        this.at += 2;
      } else {
        this.at += 1;
        this.fail();
      }
    }
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) this.fail();
    this.at += word.length;
    return value;
  }

  private number(): number | ExactInteger {
    NUMBER.lastIndex = this.at;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail();
    this.at = NUMBER.lastIndex;
    const value = Number(match[0]);
    const integerLiteral = match[1] === undefined && match[2] === undefined;
    // Beyond 64 bits it stays a double, as in serde_json (Infinity beyond the doubles' range, which is refused).
    return (integerLiteral && !Number.isSafeInteger(value) && exactInteger(match[0])) || value;
  }
}

/** A JSON object as parseJson returns it (an ExactInteger is a number, not an object). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof ExactInteger);
}
