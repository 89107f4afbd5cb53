// The MessagePack a worker writes while it scans: arrays of strings whose
// headers are reserved first and filled in once a length is known, into one
// reused buffer per thread. msgpackr's unpack reads them back as string[].

const FIXSTR = 0xa0;
const STR8 = 0xd9;
const STR16 = 0xda;
const STR32 = 0xdb;
const FIXARRAY = 0x90;
const ARRAY16 = 0xdc;
const ARRAY32 = 0xdd;
/** Free bytes kept past a field's content: room for its header to widen and for the next header. */
export const MARGIN = 16;

/**
 * Where packed records go: one buffer per thread, reused across chunks
 * (fresh memory costs a page fault per 4 KiB on first touch). The reader
 * appends at `used` and replaces `bytes` by a bigger copy when it is full.
 */
export class PackedOutput {
  bytes: Buffer;
  used = 0;

  constructor(size: number) {
    this.bytes = Buffer.allocUnsafe(size);
  }

  /** Makes room for `need` more bytes after `used`; returns the (maybe new) buffer. */
  reserve(need: number): Buffer {
    if (this.used + need > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(Math.ceil(this.bytes.length * 1.5), this.used + need));
      this.bytes.copy(bigger, 0, 0, this.used);
      this.bytes = bigger;
    }
    return this.bytes;
  }
}

/**
 * Gives the string at out[header + 1, end) its real header: fixstr fits in
 * the byte reserved for it, longer strings shift right by the bytes they
 * need (rare in CSV). Returns the new end.
 */
export function closeString(output: PackedOutput, header: number, end: number): number {
  const length = end - header - 1;
  if (length < 32) {
    output.bytes[header] = FIXSTR | length;
    return end;
  }
  const extra = length < 0x100 ? 1 : length < 0x10000 ? 2 : 4;
  output.used = end;
  const out = output.reserve(extra + MARGIN);
  out.copyWithin(header + 1 + extra, header + 1, end);
  if (extra === 1) { out[header] = STR8; out[header + 1] = length; }
  else if (extra === 2) { out[header] = STR16; out.writeUInt16BE(length, header + 1); }
  else { out[header] = STR32; out.writeUInt32BE(length, header + 1); }
  return end + extra;
}

/** MessagePack's nil: a typed import stores an empty field as NULL. */
const NIL = 0xc0;

/** Makes the empty string whose content would start at `start` (its one-byte header just before) a nil. */
export function emptyAsNil(output: PackedOutput, start: number): void {
  output.bytes[start - 1] = NIL;
}

/** Bytes of the header of an array of `count` items. */
export const arrayHeaderSize = (count: number): number => (count < 16 ? 1 : count < 0x10000 ? 3 : 5);

/**
 * Writes the array header of a record of `count` fields at `start`, where
 * `reserved` bytes were kept for it; when it needs another size, the
 * record's strings move by the difference (the caller moves its field
 * offsets with them). Returns the new end.
 */
export function closeArray(output: PackedOutput, start: number, reserved: number, count: number, end: number): number {
  const size = arrayHeaderSize(count);
  if (size !== reserved) {
    output.used = end;
    output.reserve(MARGIN);
    output.bytes.copyWithin(start + size, start + reserved, end);
    end += size - reserved;
  }
  const out = output.bytes;
  if (size === 1) out[start] = FIXARRAY | count;
  else if (size === 3) { out[start] = ARRAY16; out.writeUInt16BE(count, start + 1); }
  else { out[start] = ARRAY32; out.writeUInt32BE(count, start + 1); }
  return end;
}
