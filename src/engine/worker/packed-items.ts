// Reading back the MessagePack that packed-output.ts writes (a row: an array of strings, or nil for a typed
// import's empty fields) by its headers alone, for the writers that copy a row's bytes without decoding it.

const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) => b[at]! * 0x1000000 + ((b[at + 1]! << 16) | u16(b, at + 2));

export const NIL = 0xc0;

/** The number of items of the array whose header is at `at`, and where its first item starts; null: not one. */
export function arrayAt(b: Uint8Array, at: number): { count: number; next: number } | null {
  const t = b[at]!;
  if ((t & 0xf0) === 0x90) return { count: t & 0x0f, next: at + 1 };
  if (t === 0xdc) return { count: u16(b, at + 1), next: at + 3 };
  if (t === 0xdd) return { count: u32(b, at + 1), next: at + 5 };
  return null;
}

/** The length of the string whose header is at `at`, and where its bytes start; null: not a string. */
export function stringAt(b: Uint8Array, at: number): { length: number; next: number } | null {
  const h = b[at]!;
  if ((h & 0xe0) === 0xa0) return { length: h & 0x1f, next: at + 1 };
  if (h === 0xd9) return { length: b[at + 1]!, next: at + 2 };
  if (h === 0xda) return { length: u16(b, at + 1), next: at + 3 };
  if (h === 0xdb) return { length: u32(b, at + 1), next: at + 5 };
  return null;
}

/**
 * A row's fields (strings, and null for nil) read straight from its bytes, or undefined when it holds anything
 * else. msgpackr's own unpack, given a view into a chunk's shared buffer, spent most of a typed import's main
 * thread extracting strings from far more of the buffer than the row (its native string extraction).
 */
export function rowFields(b: Uint8Array): (string | null)[] | undefined {
  const array = b.length > 0 ? arrayAt(b, 0) : null;
  if (!array) return undefined;
  const bytes = Buffer.from(b.buffer, b.byteOffset, b.length);
  const fields: (string | null)[] = new Array(array.count);
  let at = array.next;
  for (let f = 0; f < array.count; f++) {
    if (bytes[at] === NIL) {
      fields[f] = null;
      at++;
      continue;
    }
    const field = at < bytes.length ? stringAt(bytes, at) : null;
    if (!field || field.next + field.length > bytes.length) return undefined;
    fields[f] = bytes.toString('utf8', field.next, field.next + field.length);
    at = field.next + field.length;
  }
  return at === bytes.length ? fields : undefined;
}
