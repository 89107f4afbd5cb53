// AssemblyScript: the searches both WebAssembly scanners split CSV records
// with (this folder's csv-fields.ts and analyze's csv-scan.ts), sixteen
// bytes at a time, then byte by byte near the end of the bytes.

const QUOTE: u32 = 34;
const LF: u32 = 10;

/** The newlines the last quoteFrom() passed. */
export let newlinesPassed: i32 = 0;

/** The first quote in [j, end), or `end`; newlinesPassed counts the newlines before it. */
@inline export function quoteFrom(j: usize, end: usize): usize {
  const quotes = i8x16.splat(<i8>QUOTE);
  const newlines = i8x16.splat(<i8>LF);
  let lines = 0;
  while (j + 16 <= end) {
    const v = v128.load(j);
    const quoteBits = i8x16.bitmask(i8x16.eq(v, quotes));
    const newlineBits = i8x16.bitmask(i8x16.eq(v, newlines));
    if (quoteBits != 0) {
      const at = ctz(quoteBits);
      newlinesPassed = lines + popcnt(newlineBits & ((1 << at) - 1));
      return j + <usize>at;
    }
    lines += popcnt(newlineBits);
    j += 16;
  }
  while (j < end) {
    const d = <u32>load<u8>(j);
    if (d == QUOTE) break;
    if (d == LF) lines++;
    j++;
  }
  newlinesPassed = lines;
  return j;
}

/** The first delimiter, LF or quote in [i, end): where an unquoted field ends, or `end`. */
@inline export function fieldEndFrom(i: usize, end: usize, delimiter: u32): usize {
  const delimiters = i8x16.splat(<i8>delimiter);
  const newlines = i8x16.splat(<i8>LF);
  const quotes = i8x16.splat(<i8>QUOTE);
  while (i + 16 <= end) {
    const v = v128.load(i);
    const bits = i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, delimiters), i8x16.eq(v, newlines)), i8x16.eq(v, quotes)));
    if (bits != 0) return i + <usize>ctz(bits);
    i += 16;
  }
  while (i < end) {
    const c = <u32>load<u8>(i);
    if (c == delimiter || c == LF || c == QUOTE) break;
    i++;
  }
  return i;
}

/** The first LF in [i, end), or `end`. */
export function lineEndFrom(i: usize, end: usize): usize {
  const newlines = i8x16.splat(<i8>LF);
  while (i + 16 <= end) {
    const bits = i8x16.bitmask(i8x16.eq(v128.load(i), newlines));
    if (bits != 0) return i + <usize>ctz(bits);
    i += 16;
  }
  while (i < end && load<u8>(i) != LF) i++;
  return i;
}
