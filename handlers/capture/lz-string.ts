/**
 * Decoding of LZ-string's base64 form (`compression=lz64`), which old posthog-js versions sent.
 *
 * LZ-string is an LZW variant: the input is a stream of bits (six per base64 character, most significant first)
 * holding dictionary codes whose width grows by one bit each time the dictionary doubles. Codes 0 and 1
 * introduce a new 8- or 16-bit character, 2 ends the stream, and anything else names a dictionary entry (or,
 * when it is the next free code, the previous entry plus its own first character).
 *
 * The output is bounded: a payload that would decode to more than `maxChars` characters throws
 * `DecodedTooLarge` as soon as it gets there, so a small input cannot make the server build a huge string.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';
const VALUE_OF = new Map([...ALPHABET].map((char, index) => [char.charCodeAt(0), index]));

export class DecodedTooLarge extends Error {
  constructor() {
    super('decoded payload too large');
    this.name = 'DecodedTooLarge';
  }
}

export class InvalidLzString extends Error {
  constructor(reason: string) {
    super(`invalid lz64 data: ${reason}`);
    this.name = 'InvalidLzString';
  }
}

/** Reads the input six bits per character, most significant bit first. */
class BitReader {
  private index = 0;
  private current = 0;
  private mask = 0;

  constructor(private readonly input: string) {}

  get exhausted(): boolean {
    return this.mask === 0 && this.index >= this.input.length;
  }

  /** The next `width` bits, least significant first, as LZ-string packs code values. */
  read(width: number): number {
    let value = 0;
    for (let bit = 0; bit < width; bit += 1) {
      if (this.mask === 0) {
        if (this.index >= this.input.length) throw new InvalidLzString('truncated input');
        const code = this.input.charCodeAt(this.index);
        this.index += 1;
        const sextet = VALUE_OF.get(code);
        if (sextet === undefined) throw new InvalidLzString(`unexpected character "${String.fromCharCode(code)}"`);
        this.current = sextet;
        this.mask = 32;
      }
      if (this.current & this.mask) value |= 1 << bit;
      this.mask >>= 1;
    }
    return value;
  }
}

export function decompressLz64(input: string, maxChars: number): string {
  const cleaned = input.replace(/\s+/g, '+');
  if (cleaned.length === 0) return '';
  const reader = new BitReader(cleaned);
  // Codes 0-2 are the markers above; the first real entry is code 3.
  const dictionary: string[] = ['', '', ''];
  // The first code is two bits wide; then codes are three bits wide until four more entries exist.
  let width = 2;
  let capacityLeft = 4;

  const readCharacter = (marker: number): string => {
    if (marker === 0) return String.fromCharCode(reader.read(8));
    if (marker === 1) return String.fromCharCode(reader.read(16));
    throw new InvalidLzString(`unexpected code ${marker}`);
  };

  const first = reader.read(width);
  if (first === 2) return '';
  let previous = readCharacter(first);
  dictionary.push(previous);
  width = 3;
  const parts: string[] = [previous];
  let length = previous.length;

  for (;;) {
    if (reader.exhausted) throw new InvalidLzString('missing end marker');
    let code = reader.read(width);
    if (code === 2) return parts.join('');
    if (code === 0 || code === 1) {
      dictionary.push(readCharacter(code));
      code = dictionary.length - 1;
      capacityLeft -= 1;
      if (capacityLeft === 0) {
        capacityLeft = 2 ** width;
        width += 1;
      }
    }
    let entry: string;
    if (code < dictionary.length && code > 2) {
      entry = dictionary[code]!;
    } else if (code === dictionary.length) {
      entry = previous + previous.charAt(0);
    } else {
      throw new InvalidLzString(`code ${code} is not in the dictionary`);
    }
    length += entry.length;
    if (length > maxChars) throw new DecodedTooLarge();
    parts.push(entry);
    dictionary.push(previous + entry.charAt(0));
    capacityLeft -= 1;
    if (capacityLeft === 0) {
      capacityLeft = 2 ** width;
      width += 1;
    }
    previous = entry;
  }
}
