// Thrift's compact protocol, in which a Parquet file's page headers and
// footer are written: only what writing them needs (structs of integers,
// strings and lists, in the order of their field ids).

/** The compact protocol's type of a field or of a list's elements. */
export const ThriftType = {
  I32: 5,
  I64: 6,
  Binary: 8,
  List: 9,
  Struct: 12,
} as const;
export type ThriftType = (typeof ThriftType)[keyof typeof ThriftType];

const STOP = 0;

/** Writes one Thrift value (a struct, field by field) into a growing byte array. */
export class CompactWriter {
  private bytes = new Uint8Array(256);
  private used = 0;
  /** The last field id written in each open struct (field headers carry the difference). */
  private readonly lastIds: number[] = [0];

  /** The bytes written so far. */
  get written(): Uint8Array {
    return this.bytes.subarray(0, this.used);
  }

  i32(id: number, value: number): this {
    this.field(id, ThriftType.I32);
    return this.varint(zigzag(value));
  }

  /** A 64-bit integer given as a number: the sizes and counts of a file, far below 2^53. */
  i64(id: number, value: number): this {
    this.field(id, ThriftType.I64);
    return this.varint(zigzag(value));
  }

  string(id: number, value: string): this {
    this.field(id, ThriftType.Binary);
    return this.text(value);
  }

  /** A list of `size` elements of `type`, written next (as i32Item, textItem or struct elements). */
  list(id: number, type: ThriftType, size: number): this {
    this.field(id, ThriftType.List);
    if (size < 15) return this.byte((size << 4) | type);
    this.byte(0xf0 | type);
    return this.varint(size);
  }

  i32Item(value: number): this {
    return this.varint(zigzag(value));
  }

  textItem(value: string): this {
    return this.text(value);
  }

  /** Opens a struct: as field `id`, or as the next element of a list when no id is given. */
  begin(id?: number): this {
    if (id !== undefined) this.field(id, ThriftType.Struct);
    this.lastIds.push(0);
    return this;
  }

  end(): this {
    this.lastIds.pop();
    return this.byte(STOP);
  }

  private field(id: number, type: ThriftType): void {
    const last = this.lastIds.length - 1;
    const delta = id - this.lastIds[last]!;
    this.lastIds[last] = id;
    if (delta > 0 && delta <= 15) {
      this.byte((delta << 4) | type);
    } else {
      this.byte(type);
      this.varint(zigzag(id));
    }
  }

  private text(value: string): this {
    const encoded = Buffer.from(value);
    this.varint(encoded.length);
    this.room(encoded.length);
    this.bytes.set(encoded, this.used);
    this.used += encoded.length;
    return this;
  }

  private varint(value: number): this {
    const bytes = varint(value);
    this.room(bytes.length);
    this.bytes.set(bytes, this.used);
    this.used += bytes.length;
    return this;
  }

  private byte(value: number): this {
    this.room(1);
    this.bytes[this.used++] = value;
    return this;
  }

  private room(need: number): void {
    if (this.used + need <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(2 * this.bytes.length, this.used + need));
    bigger.set(this.written);
    this.bytes = bigger;
  }
}

/**
 * An unsigned integer below 2^53 as LEB128, seven bits a byte (arithmetic, not bitwise: it may pass 2^32): Thrift's
 * integers, and the run headers of Parquet's definition levels.
 */
export function varint(value: number): Uint8Array {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Uint8Array.from(bytes);
}

/** Thrift's signed integers as unsigned: 0, -1, 1, -2 … become 0, 1, 2, 3 … */
const zigzag = (value: number): number => (value >= 0 ? 2 * value : -2 * value - 1);
