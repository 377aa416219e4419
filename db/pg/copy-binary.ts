/**
 * PostgreSQL's binary formats for the columns capture writes: no text escaping on the way out and no parsing on
 * the way in. Two uses: the binary COPY format (`COPY … FROM STDIN (FORMAT binary)`) and binary arrays, sent as
 * statement parameters (`binaryArray`); an array's elements are written as COPY's fields are.
 *
 * COPY's layout: an 11-byte signature, a flags word and a header-extension length; per row a 16-bit field count and,
 * per field, a 32-bit length (-1 for NULL) followed by the value in its type's binary form; a 16-bit -1 ends it.
 */

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Milliseconds between the Unix epoch and PostgreSQL's (2000-01-01). */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const TWO_32 = 2 ** 32;

export type CopyValue =
  | { type: 'int4'; value: number }
  | { type: 'uuid'; value: string }
  | { type: 'text'; value: string }
  | { type: 'jsonb'; value: string }
  | { type: 'timestamptz'; value: Date }
  | { type: 'bool'; value: boolean }
  | null;

/** Builds one COPY stream's bytes; sizes each field first, so the whole batch is a single allocation. */
export class BinaryCopyWriter {
  private rows: CopyValue[][] = [];
  private size = SIGNATURE.length + 8 + 2;

  add(row: CopyValue[]): void {
    this.rows.push(row);
    this.size += 2;
    for (const field of row) this.size += 4 + byteLength(field);
  }

  get rowCount(): number {
    return this.rows.length;
  }

  /**
   * The COPY stream's bytes; or, with `header` or `trailer` false, a piece of it (a large COPY is written in
   * pieces: the first with the header, the last with the trailer).
   */
  toBuffer(piece: { header: boolean; trailer: boolean } = { header: true, trailer: true }): Buffer {
    const size = this.size - (piece.header ? 0 : SIGNATURE.length + 8) - (piece.trailer ? 0 : 2);
    const buffer = Buffer.allocUnsafe(size);
    let offset = 0;
    if (piece.header) {
      offset = SIGNATURE.copy(buffer, 0);
      offset = buffer.writeInt32BE(0, offset); // flags
      offset = buffer.writeInt32BE(0, offset); // header extension length
    }
    for (const row of this.rows) {
      offset = buffer.writeInt16BE(row.length, offset);
      for (const field of row) offset = writeField(buffer, offset, field);
    }
    if (piece.trailer) offset = buffer.writeInt16BE(-1, offset);
    if (offset !== size) throw new Error(`COPY buffer size mismatch: wrote ${offset} of ${size} bytes`);
    return buffer;
  }
}

function byteLength(field: CopyValue): number {
  if (field === null) return 0;
  switch (field.type) {
    case 'int4':
      return 4;
    case 'uuid':
      return 16;
    case 'text':
      return Buffer.byteLength(field.value, 'utf8');
    case 'jsonb':
      return 1 + Buffer.byteLength(field.value, 'utf8');
    case 'timestamptz':
      return 8;
    case 'bool':
      return 1;
  }
}

function writeField(buffer: Buffer, start: number, field: CopyValue): number {
  if (field === null) return buffer.writeInt32BE(-1, start);
  let offset = start + 4;
  switch (field.type) {
    case 'int4':
      offset = buffer.writeInt32BE(field.value, offset);
      break;
    case 'uuid': {
      const hex = field.value.replace(/-/g, '');
      if (hex.length !== 32 || buffer.write(hex, offset, 16, 'hex') !== 16) throw new Error(`not a uuid: ${field.value}`);
      offset += 16;
      break;
    }
    case 'text':
      offset += buffer.write(field.value, offset, 'utf8');
      break;
    case 'jsonb':
      offset = buffer.writeUInt8(1, offset); // jsonb binary format version
      offset += buffer.write(field.value, offset, 'utf8');
      break;
    case 'timestamptz': {
      const micros = (field.value.getTime() - PG_EPOCH_MS) * 1000;
      const high = Math.floor(micros / TWO_32);
      offset = buffer.writeInt32BE(high, offset);
      offset = buffer.writeUInt32BE(micros - high * TWO_32, offset);
      break;
    }
    case 'bool':
      offset = buffer.writeUInt8(field.value ? 1 : 0, offset);
      break;
  }
  buffer.writeInt32BE(offset - start - 4, start);
  return offset;
}

export type CopyType = NonNullable<CopyValue>['type'];

/** PostgreSQL's type OIDs of the element types, which a binary array names in its header. */
const ELEMENT_OID: Record<CopyType, number> = { int4: 23, uuid: 2950, text: 25, jsonb: 3802, timestamptz: 1184, bool: 16 };

/**
 * A one-dimensional array of `type` in PostgreSQL's binary format (a header, then each element as a COPY field
 * is written), for a statement parameter: `pg` sends a Buffer in binary, so the database decodes the values
 * with its binary receive functions, with no text to parse and nothing escaped. Every non-null value must be of
 * `type`.
 */
export function binaryArray(type: CopyType, values: readonly CopyValue[]): Buffer {
  let size = values.length === 0 ? 12 : 20;
  let hasNull = 0;
  for (const value of values) {
    if (value === null) hasNull = 1;
    else if (value.type !== type) throw new Error(`a ${value.type} in an array of ${type}`);
    size += 4 + byteLength(value);
  }
  const buffer = Buffer.allocUnsafe(size);
  let offset = buffer.writeInt32BE(values.length === 0 ? 0 : 1, 0); // dimensions
  offset = buffer.writeInt32BE(hasNull, offset);
  offset = buffer.writeInt32BE(ELEMENT_OID[type], offset);
  if (values.length > 0) {
    offset = buffer.writeInt32BE(values.length, offset);
    offset = buffer.writeInt32BE(1, offset); // lower bound
  }
  for (const value of values) offset = writeField(buffer, offset, value);
  if (offset !== size) throw new Error(`array buffer size mismatch: wrote ${offset} of ${size} bytes`);
  return buffer;
}
