// AssemblyScript, compiled to WebAssembly by `npm run build` (asc).
//
// The analyze hot path: one pass over a chunk's bytes that splits records
// (RFC 4180) and folds every field into its column's statistics, with no
// string made per field. Per field it mirrors the JavaScript reference in
// ../field-stats.ts; a number of more than 36 significant digits, or at a
// scale beyond the exact sums' -40..40, or a long value too near an extreme
// to be ordered by its double, is handed back to JavaScript.
//
// Every value also goes to its column's added statistics (column-extras.ts:
// spread, quantiles, distinct count, frequent values, dates), kept here too.
//
// Memory is laid out by the caller (csv-scanner.ts) from heapBase():
// column records, their exact sums, their added statistics, the field
// table, the report, the arena for unescaped quoted fields, then the
// chunk's bytes (and a little slack: a few readers look past a field's end).

import {
  afterQuote, CR, fieldEndFrom, LF, newlinesPassed, NEXT_FIELD, NEXT_LINE, NEXT_TEXT, NEXT_UNKNOWN, nextAt, QUOTE,
  QUOTE_IN_FIELD, quoteFrom, TEXT_AFTER_QUOTE, UNCLOSED_QUOTE,
} from '../../../../engine/worker/wasm/csv-search';
import { configureExtras, observeNumber, observeText, resetExtras } from './column-extras';
export {
  EXACT_LIMIT, HLL_BITS, FREQUENT_SLOTS, EXTRAS_BYTES, X_N, X_MEAN, X_M2, X_FREQUENT_ERROR,
  X_DATE_MIN, X_DATE_MAX, X_DISTINCT_SIZE, X_SKETCH, X_FREQUENT_SIZE, X_DATES, X_TIMED,
  X_DATE_MIN_PTR, X_DATE_MIN_LEN, X_DATE_MAX_PTR, X_DATE_MAX_LEN, X_TABLE, X_TALLY_COUNTS, X_TALLY_SPANS,
  X_FREQUENT_KEYS, X_FREQUENT_COUNTS, X_FREQUENT_SPANS, X_QUANTILE_LEVELS, TALLY_SLOTS, KEEP_SPREAD, KEEP_VALUES,
  extrasBytes, fieldKey, sortLevels,
} from './column-extras';
export { QUANTILE_BUFFER, QUANTILE_LEVELS, LEVEL_ITEMS, LEVEL_STRIDE } from './quantile-levels';
export { isoInstant } from '../../../../engine/worker/wasm/iso-date';

/** The byte between fields (configure() sets it: comma, tab, semicolon or pipe). */
let delimiter: u32 = 44;

/** Status codes returned by scan(). */
export const NEED_MORE: i32 = -1;
export const MALFORMED: i32 = -2;
export const PAUSED: i32 = -3;

/** Malformed kinds, reported at REPORT_ERROR_KIND. */
export { QUOTE_IN_FIELD, TEXT_AFTER_QUOTE, UNCLOSED_QUOTE } from '../../../../engine/worker/wasm/csv-search';

/** Column kinds (bit set), as Kind in column-stats.ts. */
export const KIND_INTEGER: i32 = 1;
export const KIND_NUMBER: i32 = 2;
export const KIND_BOOLEAN: i32 = 4;
export const KIND_STRING: i32 = 8;

// One column record: the fields of ColumnPartial.
export const COL_COUNT: i32 = 0;
export const COL_NULLS: i32 = 8;
export const COL_NUM_MIN: i32 = 16;
export const COL_NUM_MAX: i32 = 24;
/** A numeric extreme's text (pointer, length; length -1: none) when its double only approximates a long value. */
export const COL_NUM_MIN_PTR: i32 = 32;
export const COL_NUM_MIN_LEN: i32 = 36;
export const COL_MIN_LENGTH: i32 = 40;
export const COL_MAX_LENGTH: i32 = 48;
export const COL_KINDS: i32 = 56;
export const COL_SAW_FALSE: i32 = 60;
export const COL_SAW_TRUE: i32 = 64;
// 68: free.
export const COL_STR_MIN_PTR: i32 = 72;
export const COL_STR_MIN_LEN: i32 = 76;
export const COL_STR_MAX_PTR: i32 = 80;
export const COL_STR_MAX_LEN: i32 = 84;
export const COL_NUM_MAX_PTR: i32 = 88;
export const COL_NUM_MAX_LEN: i32 = 92;
export const COLUMN_BYTES: i32 = 96;
/**
 * A column's exact sum: one 128-bit integer per number of decimals
 * -SUM_RANGE..SUM_RANGE (slot decimals + SUM_RANGE), the sum of the values'
 * units with that many decimals (value = units × 10^-decimals). No value is
 * rescaled on the hot path; JavaScript adds the slots up.
 */
export const SUM_RANGE: i32 = 40;
export const SUM_SCALES: i32 = 2 * SUM_RANGE + 1;
export const SUM_BYTES: i32 = 16;

// The report: what a scan call returns besides its status.
export const REPORT_CONSUMED: i32 = 0;
export const REPORT_LINE: i32 = 4;
export const REPORT_ROWS: i32 = 8;
export const REPORT_RAGGED: i32 = 12;
export const REPORT_ERROR_KIND: i32 = 16;
export const REPORT_ERROR_LINE: i32 = 20;
export const REPORT_DEFERRED: i32 = 24;
export const REPORT_RAGGED_LINES: i32 = 32;
export const RAGGED_SAMPLE: i32 = 10;
export const REPORT_DEFERRED_LIST: i32 = 32 + 4 * 10;
/** Bytes per entry of the field table: (start, end, escaped). */
export const FIELD_BYTES: i32 = 12;
/** Bytes per field handed back: (column, start, end). */
export const DEFERRED_BYTES: i32 = 12;

const POW10 = memory.data<f64>([
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
  1e21, 1e22,
]);
/** At most this many significant digits: the double is then exact arithmetic, and says the decimal exactly. */
const MAX_FAST_DIGITS = 15;
/** Digits read into the units (below 2^63); the next ones go to a tail of as many. */
const MAX_INT_DIGITS = 18;
/** Past this many powers of ten a double's 10^n is not exact: the value is then a long one. */
const MAX_EXACT_POWER = 22;
/** A long value's double is within a few ulps of it: closer than this (relative) to an extreme, JavaScript decides. */
const NEAR: f64 = 1e-12;

// Set by configure().
let columns: usize = 0;
let sums: usize = 0;
let fieldTable: usize = 0;
let report: usize = 0;
let width: i32 = 0;
let arenaTop: usize = 0;
// Set by limits() when the caller instantiates the scanner; tests lower it to exercise the pauses.
let deferCapacity: i32 = 0;
let deferLimit: i32 = 0;
/** Columns from this one on hand every non-empty field back (their added statistics would not fit here). */
let scannedWidth: i32 = 0;

/** When a scan pauses: at this many fields handed back. */
export function limits(deferredAt: i32): void {
  deferLimit = deferredAt;
}

export function heapBase(): usize {
  return (__heap_base + 15) & ~15;
}

/**
 * Where everything lives; the caller sizes memory for it. The report holds
 * `deferCapacity` fields handed back, at least twice the width: a scan
 * pauses before a record could overflow it. No column gets more than
 * `values` values in the chunk (its records, bounded by its newlines);
 * `kept` says which added statistics the chunk keeps (KEEP_SPREAD, KEEP_VALUES).
 */
export function configure(
  columnsAt: usize, sumsAt: usize, extrasAt: usize, fieldsAt: usize, reportAt: usize, fieldCount: i32,
  scannedCount: i32, deferredCapacity: i32, fieldDelimiter: u32, values: i32, kept: i32,
): void {
  configureExtras(extrasAt, scannedCount, values, kept);
  scannedWidth = scannedCount;
  delimiter = fieldDelimiter;
  deferCapacity = deferredCapacity;
  columns = columnsAt;
  sums = sumsAt;
  fieldTable = fieldsAt;
  report = reportAt;
  width = fieldCount;
}

/** Empty statistics for a new chunk; the arena starts at arenaAt. */
export function reset(arenaAt: usize): void {
  for (let k = 0; k < width; k++) {
    const col = columns + <usize>k * COLUMN_BYTES;
    store<f64>(col + COL_COUNT, 0);
    store<f64>(col + COL_NULLS, 0);
    store<f64>(col + COL_NUM_MIN, Infinity);
    store<f64>(col + COL_NUM_MAX, -Infinity);
    store<f64>(col + COL_MIN_LENGTH, Infinity);
    store<f64>(col + COL_MAX_LENGTH, -Infinity);
    store<i32>(col + COL_KINDS, 0);
    store<i32>(col + COL_SAW_FALSE, 0);
    store<i32>(col + COL_SAW_TRUE, 0);
    store<i32>(col + COL_STR_MIN_LEN, -1);
    store<i32>(col + COL_STR_MAX_LEN, -1);
    store<i32>(col + COL_NUM_MIN_LEN, -1);
    store<i32>(col + COL_NUM_MAX_LEN, -1);
  }
  memory.fill(sums, 0, <usize>width * <usize>(SUM_SCALES * SUM_BYTES));
  store<i32>(report + REPORT_ROWS, 0);
  store<i32>(report + REPORT_RAGGED, 0);
  arenaTop = arenaAt;
  resetExtras();
}

function compareRange(s: usize, len: i32, other: usize, otherLen: i32): i32 {
  const n = len < otherLen ? len : otherLen;
  for (let i = 0; i < n; i++) {
    const d = <i32>load<u8>(s + i) - <i32>load<u8>(other + i);
    if (d != 0) return d;
  }
  return len - otherLen;
}

/** Folds a value's bytes into the string extremes and the added statistics; true when its bytes must stay. */
function noteString(col: usize, s: usize, len: i32, codePoints: f64): bool {
  let kept = observeText(<i32>((col - columns) / <usize>COLUMN_BYTES), s, len);
  const first = load<u8>(s);
  const minLen = load<i32>(col + COL_STR_MIN_LEN);
  if (minLen < 0) {
    store<i32>(col + COL_STR_MIN_PTR, <i32>s);
    store<i32>(col + COL_STR_MIN_LEN, len);
    kept = true;
  } else {
    const min = <usize>load<i32>(col + COL_STR_MIN_PTR);
    if (first <= load<u8>(min) && compareRange(s, len, min, minLen) < 0) {
      store<i32>(col + COL_STR_MIN_PTR, <i32>s);
      store<i32>(col + COL_STR_MIN_LEN, len);
      kept = true;
    }
  }
  const maxLen = load<i32>(col + COL_STR_MAX_LEN);
  if (maxLen < 0) {
    store<i32>(col + COL_STR_MAX_PTR, <i32>s);
    store<i32>(col + COL_STR_MAX_LEN, len);
    kept = true;
  } else {
    const max = <usize>load<i32>(col + COL_STR_MAX_PTR);
    if (first >= load<u8>(max) && compareRange(s, len, max, maxLen) > 0) {
      store<i32>(col + COL_STR_MAX_PTR, <i32>s);
      store<i32>(col + COL_STR_MAX_LEN, len);
      kept = true;
    }
  }
  if (codePoints < load<f64>(col + COL_MIN_LENGTH)) store<f64>(col + COL_MIN_LENGTH, codePoints);
  if (codePoints > load<f64>(col + COL_MAX_LENGTH)) store<f64>(col + COL_MAX_LENGTH, codePoints);
  return kept;
}

/** Adds units × 10^-decimals to column k's exact sum (a 128-bit add: low word, then high word and carry). */
function addUnits(k: i32, decimals: i32, units: i64): void {
  const at = sums + (<usize>k * <usize>SUM_SCALES + <usize>(decimals + SUM_RANGE)) * <usize>SUM_BYTES;
  const low = load<u64>(at);
  const sum = low + <u64>units;
  store<u64>(at, sum);
  store<i64>(at + 8, load<i64>(at + 8) + (units >> 63) + <i64>(sum < low));
}

/**
 * Where a value falls against an extreme (sign -1: the minimum, +1: the
 * maximum): BEYOND it, INSIDE, or NEAR it. Doubles of short values order
 * them exactly; a long value's (or extreme's) double only approximates it,
 * so within NEAR of the extreme the order is left to JavaScript.
 */
const INSIDE = 0;
const BEYOND = 1;
const TOO_NEAR = 2;

function against(col: usize, sign: f64, value: f64, long: bool, at: i32, lenAt: i32): i32 {
  const extreme = load<f64>(col + at);
  if (!long && load<i32>(col + lenAt) < 0) return sign * (value - extreme) > 0 ? BEYOND : INSIDE;
  if (extreme == -sign * Infinity) return BEYOND; // none yet
  const gap = sign * (value - extreme);
  const near = (abs<f64>(value) + abs<f64>(extreme)) * NEAR;
  return gap > near ? BEYOND : gap < -near ? INSIDE : TOO_NEAR;
}

function setExtreme(col: usize, value: f64, long: bool, s: usize, len: i32, at: i32, ptrAt: i32, lenAt: i32): void {
  store<f64>(col + at, value);
  store<i32>(col + ptrAt, <i32>s);
  store<i32>(col + lenAt, long ? len : -1);
}

/** Folds a number into its column's extremes; false (nothing changed) when JavaScript must take it. */
function noteNumber(col: usize, value: f64, kind: i32, long: bool, s: usize, len: i32): bool {
  const below = against(col, -1, value, long, COL_NUM_MIN, COL_NUM_MIN_LEN);
  const above = against(col, 1, value, long, COL_NUM_MAX, COL_NUM_MAX_LEN);
  if (below == TOO_NEAR || above == TOO_NEAR) return false;
  observeNumber(<i32>((col - columns) / <usize>COLUMN_BYTES), value);
  store<i32>(col + COL_KINDS, load<i32>(col + COL_KINDS) | kind);
  if (below == BEYOND) setExtreme(col, value, long, s, len, COL_NUM_MIN, COL_NUM_MIN_PTR, COL_NUM_MIN_LEN);
  if (above == BEYOND) setExtreme(col, value, long, s, len, COL_NUM_MAX, COL_NUM_MAX_PTR, COL_NUM_MAX_LEN);
  return true;
}

/** 10^n as a double (0 <= n <= 2 × MAX_EXACT_POWER): exact up to MAX_EXACT_POWER, once rounded past it. */
function pow10(n: i32): f64 {
  if (n <= MAX_EXACT_POWER) return load<f64>(POW10 + (<usize>n << 3));
  return load<f64>(POW10 + (<usize>MAX_EXACT_POWER << 3)) * load<f64>(POW10 + (<usize>(n - MAX_EXACT_POWER) << 3));
}

/** Hands a field back to JavaScript (scan pauses before the list can overflow). */
function defer(k: i32, s: usize, e: usize): void {
  const n = load<i32>(report + REPORT_DEFERRED);
  const at = report + REPORT_DEFERRED_LIST + <usize>n * DEFERRED_BYTES;
  store<i32>(at, k);
  store<i32>(at + 4, <i32>s);
  store<i32>(at + 8, <i32>e);
  store<i32>(report + REPORT_DEFERRED, n + 1);
}

/** Classifies one value and folds it into column k; returns true when it kept arena bytes. */
function processField(k: i32, s: usize, e: usize): bool {
  const col = columns + <usize>k * COLUMN_BYTES;
  const len = <i32>(e - s);
  if (len == 0) {
    store<f64>(col + COL_NULLS, load<f64>(col + COL_NULLS) + 1);
    return false;
  }
  if (k >= scannedWidth) {
    defer(k, s, e);
    return true; // a quoted field's unescaped text stays in the arena until JavaScript reads it
  }
  let p = s;
  let c = <u32>load<u8>(p);
  const negative = c == 45;
  if (c == 45 || c == 43) p++;
  let digits = 0;
  let significant = 0;
  let fraction = 0;
  let dot = false;
  let units: i64 = 0;
  let tail: i64 = 0;
  while (p < e) {
    c = load<u8>(p);
    if (c - 48 <= 9) {
      digits++;
      if (significant > 0 || c != 48) {
        significant++;
        if (significant <= MAX_INT_DIGITS) units = units * 10 + <i64>(c - 48);
        else tail = tail * 10 + <i64>(c - 48);
      }
      if (dot) fraction++;
    } else if (c == 46 && !dot) {
      dot = true;
    } else break;
    p++;
  }
  if (digits > 0) {
    let exponent = 0;
    let ok = p == e;
    let hasExponent = false;
    if (!ok && (c == 101 || c == 69)) {
      p++;
      let negativeExponent = false;
      if (p < e) {
        const sign = load<u8>(p);
        if (sign == 43 || sign == 45) {
          negativeExponent = sign == 45;
          p++;
        }
      }
      const expStart = p;
      while (p < e) {
        const d = <u32>load<u8>(p) - 48;
        if (d > 9) break;
        exponent = exponent * 10 + <i32>d;
        if (exponent > 1000000) exponent = 1000000;
        p++;
      }
      ok = p == e && p > expStart;
      if (negativeExponent) exponent = -exponent;
      hasExponent = true;
    }
    if (ok) {
      // The value is (units × 10^tailDigits + tail) × 10^scale, both parts of up to 18 digits: the exact sums
      // take each at its own scale within -40..40; the rest go to JavaScript.
      // Up to 15 digits and 10^22 the double is exact arithmetic; past that it is within a few ulps, for the
      // extremes only.
      const scale = exponent - fraction;
      const tailDigits = max(significant - MAX_INT_DIGITS, 0);
      let value: f64 = 0;
      const farOut = significant > 0 && (scale > MAX_EXACT_POWER || scale < -MAX_EXACT_POWER);
      const long = significant > MAX_FAST_DIGITS || farOut;
      if (significant > 0) {
        if (tailDigits > MAX_INT_DIGITS || scale < -SUM_RANGE || scale + tailDigits > SUM_RANGE) {
          defer(k, s, e);
          return false;
        }
        // exact up to 2^53; past it, rounded once or twice
        const mantissa = tailDigits == 0 ? <f64>units : <f64>units * pow10(tailDigits) + <f64>tail;
        value = scale >= 0 ? mantissa * pow10(scale) : mantissa / pow10(-scale);
        if (negative) value = -value;
      } else if (negative) value = -value;
      if (!noteNumber(col, value, dot || hasExponent ? KIND_NUMBER : KIND_INTEGER, long, s, len)) {
        defer(k, s, e);
        return false;
      }
      if (negative) {
        units = -units;
        tail = -tail;
      }
      if (significant > 0) {
        addUnits(k, -scale - tailDigits, units);
        if (tailDigits > 0) addUnits(k, -scale, tail);
      }
      store<f64>(col + COL_COUNT, load<f64>(col + COL_COUNT) + 1);
      const minAt = load<i32>(col + COL_NUM_MIN_PTR);
      const keptText = long && (minAt == <i32>s || load<i32>(col + COL_NUM_MAX_PTR) == <i32>s);
      return noteString(col, s, len, <f64>len) || keptText;
    }
  }
  store<f64>(col + COL_COUNT, load<f64>(col + COL_COUNT) + 1);
  // `true` / `false` in any case: each byte lowered with | 32.
  if (len == 4 && (load<u8>(s) | 32) == 116 && (load<u8>(s + 1) | 32) == 114
    && (load<u8>(s + 2) | 32) == 117 && (load<u8>(s + 3) | 32) == 101) {
    store<i32>(col + COL_KINDS, load<i32>(col + COL_KINDS) | KIND_BOOLEAN);
    store<i32>(col + COL_SAW_TRUE, 1);
    return noteString(col, s, len, <f64>len);
  }
  if (len == 5 && (load<u8>(s) | 32) == 102 && (load<u8>(s + 1) | 32) == 97 && (load<u8>(s + 2) | 32) == 108
    && (load<u8>(s + 3) | 32) == 115 && (load<u8>(s + 4) | 32) == 101) {
    store<i32>(col + COL_KINDS, load<i32>(col + COL_KINDS) | KIND_BOOLEAN);
    store<i32>(col + COL_SAW_FALSE, 1);
    return noteString(col, s, len, <f64>len);
  }
  store<i32>(col + COL_KINDS, load<i32>(col + COL_KINDS) | KIND_STRING);
  let codePoints = 0;
  for (let i = s; i < e; i++) if ((load<u8>(i) & 0xc0) != 0x80) codePoints++;
  return noteString(col, s, len, <f64>codePoints);
}

/** Copies a quoted field's text into the arena, one quote of each doubled pair; returns its end. */
function unescape(s: usize, e: usize): usize {
  let out = arenaTop;
  for (let i = s; i < e; i++) {
    const c = load<u8>(i);
    store<u8>(out++, c);
    if (c == QUOTE) i++;
  }
  return out;
}

function fail(kind: i32, line: i32): i32 {
  store<i32>(report + REPORT_ERROR_KIND, kind);
  store<i32>(report + REPORT_ERROR_LINE, line);
  return MALFORMED;
}

/**
 * Reads the records of b[from, n) that start before `limit`, folding their
 * fields into the columns. Returns the offset where they ended (REPORT_LINE:
 * newlines passed), NEED_MORE when the last record runs past n and the file
 * goes on, MALFORMED, or PAUSED at a record start (REPORT_CONSUMED, REPORT_LINE)
 * when the fields handed back must be taken first.
 */
export function scan(b: usize, n: i32, from: i32, line0: i32, limit: i32, atEof: bool): i32 {
  const fields = fieldTable;
  const w = width;
  const end = b + <usize>n;
  let i = b + <usize>from;
  const stop = b + <usize>limit;
  let line = line0;
  let rows = load<i32>(report + REPORT_ROWS);
  store<i32>(report + REPORT_DEFERRED, 0);
  const first = i;
  const pauseAbove = min(deferLimit, deferCapacity) - w;
  while (i < stop) {
    // Pauses only after a record, so every call makes progress.
    if (i > first && load<i32>(report + REPORT_DEFERRED) > pauseAbove) {
      store<i32>(report + REPORT_ROWS, rows);
      store<i32>(report + REPORT_CONSUMED, <i32>(i - b));
      store<i32>(report + REPORT_LINE, line);
      return PAUSED;
    }
    const recordLine = line;
    let c = <u32>load<u8>(i);
    if (c == LF) {
      i++;
      line++;
      continue;
    }
    if (c == CR) {
      if (i + 1 >= end && !atEof) return NEED_MORE;
      if (i + 1 < end && load<u8>(i + 1) == LF) {
        i += 2;
        line++;
        continue;
      }
    }
    let field = 0;
    while (true) {
      if (i < end && load<u8>(i) == QUOTE) {
        let j = i + 1;
        let doubled = 0;
        while (true) {
          j = quoteFrom(j, end);
          line += newlinesPassed;
          if (j >= end) {
            if (!atEof) return NEED_MORE;
            return fail(UNCLOSED_QUOTE, recordLine);
          }
          if (j + 1 >= end && !atEof) return NEED_MORE;
          if (j + 1 >= end || load<u8>(j + 1) != QUOTE) break;
          doubled = 1;
          j += 2;
        }
        if (field < w) {
          const slot = fields + <usize>field * FIELD_BYTES;
          store<i32>(slot, <i32>(i + 1));
          store<i32>(slot + 4, <i32>j);
          store<i32>(slot + 8, doubled);
        }
        const next = afterQuote(j + 1, end, delimiter, atEof);
        if (next == NEXT_UNKNOWN) return NEED_MORE;
        if (next == NEXT_TEXT) return fail(TEXT_AFTER_QUOTE, line);
        i = nextAt;
        if (next == NEXT_FIELD) {
          field++;
          continue;
        }
        if (next == NEXT_LINE) line++;
        break;
      }
      const start = i;
      i = fieldEndFrom(i, end, delimiter);
      if (i >= end && !atEof) return NEED_MORE;
      c = i < end ? <u32>load<u8>(i) : 0xffffffff;
      if (c == QUOTE) return fail(QUOTE_IN_FIELD, line);
      if (field < w) {
        const slot = fields + <usize>field * FIELD_BYTES;
        store<i32>(slot, <i32>start);
        store<i32>(slot + 4, <i32>(c == LF && i > start && load<u8>(i - 1) == CR ? i - 1 : i));
        store<i32>(slot + 8, 0);
      }
      if (i >= end) break;
      if (c == delimiter) {
        i++;
        field++;
        continue;
      }
      i++;
      line++;
      break;
    }
    if (field + 1 != w) {
      const ragged = load<i32>(report + REPORT_RAGGED);
      if (ragged < RAGGED_SAMPLE) store<i32>(report + REPORT_RAGGED_LINES + (<usize>ragged << 2), recordLine);
      store<i32>(report + REPORT_RAGGED, ragged + 1);
      continue;
    }
    rows++;
    for (let k = 0; k < w; k++) {
      const slot = fields + <usize>k * FIELD_BYTES;
      const s = <usize>load<i32>(slot);
      const e = <usize>load<i32>(slot + 4);
      if (load<i32>(slot + 8) != 0) {
        const top = arenaTop;
        const textEnd = unescape(s, e);
        if (processField(k, top, textEnd)) arenaTop = textEnd;
      } else processField(k, s, e);
    }
  }
  store<i32>(report + REPORT_ROWS, rows);
  store<i32>(report + REPORT_CONSUMED, <i32>(i - b));
  store<i32>(report + REPORT_LINE, line);
  return <i32>(i - b);
}
