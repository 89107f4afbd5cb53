// AssemblyScript: the searches both WebAssembly scanners split CSV records
// with (this folder's csv-fields.ts and analyze's csv-scan.ts), sixteen
// bytes at a time, then byte by byte near the end of the bytes.

export const QUOTE: u32 = 34;
export const LF: u32 = 10;
export const CR: u32 = 13;

/** Why a record is malformed, as both scanners report it. */
export const UNCLOSED_QUOTE: i32 = 1;
export const TEXT_AFTER_QUOTE: i32 = 2;
export const QUOTE_IN_FIELD: i32 = 3;

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

/** What follows a field's closing quote (afterQuote()). */
export const NEXT_FIELD: i32 = 0;
export const NEXT_LINE: i32 = 1;
/** The bytes end after the quote, and so does the file. */
export const NEXT_NONE: i32 = 2;
/** The bytes end too soon to tell, and the file goes on. */
export const NEXT_UNKNOWN: i32 = 3;
export const NEXT_TEXT: i32 = 4;

/** Where what follows the last afterQuote()'s quote starts: the next field or line (or the text after it). */
export let nextAt: usize = 0;

/** What follows a closing quote just before i: a delimiter, a line end (LF or CRLF), the end, or text. */
@inline export function afterQuote(i: usize, end: usize, delimiter: u32, atEof: bool): i32 {
  nextAt = i;
  if (i >= end) return atEof ? NEXT_NONE : NEXT_UNKNOWN;
  const c = <u32>load<u8>(i);
  nextAt = i + 1;
  if (c == delimiter) return NEXT_FIELD;
  if (c == LF) return NEXT_LINE;
  nextAt = i;
  if (c == CR) {
    if (i + 1 >= end && !atEof) return NEXT_UNKNOWN;
    if (i + 1 < end && load<u8>(i + 1) == LF) {
      nextAt = i + 2;
      return NEXT_LINE;
    }
  }
  return NEXT_TEXT;
}
