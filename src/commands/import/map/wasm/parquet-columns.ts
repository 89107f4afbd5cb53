// AssemblyScript, compiled to WebAssembly by `npm run build` (asc), with the
// engine's field scanner in the same module (its exports are this module's).
//
// The import's Parquet rows for DuckDB (../rows/duckdb-parquet-rows.ts does
// the same in JavaScript): each record of the scanner's entry table is
// checked against its columns' types, then its fields are written into
// their columns' values as Parquet's PLAIN encoding holds them, a bit per
// row saying whether it has a value, and a row group every GROUP_ROWS rows.
// A record that does not fit is noted as a bad row, with nothing written.
//
// The caller (../rows/duckdb-wasm-rows.ts) lays out each column's regions
// and describes them in a column record, which this writer updates.

export * from '../../../../engine/worker/wasm/csv-fields';
import { ENTRY_COUNT, ENTRY_FIELDS, ENTRY_LINE } from '../../../../engine/worker/wasm/csv-fields';
import {
  DECIMAL, INTEGER, integerValue, isBooleanWord, lastPrecision, mayBeNumber, NOT_NUMBER, numberClass, numberValue,
} from './field-values';
import { isoInstant, lastSeconds } from '../../../../engine/worker/wasm/iso-date';

/** How a column's fields are checked and written. */
export const TEXT: i32 = 0;
export const INT64: i32 = 1;
export const DOUBLE: i32 = 2;
export const BOOLEAN: i32 = 3;
/** Checked as an integer, a decimal or a boolean, written as text (the table declares another type for it). */
export const INTEGER_TEXT: i32 = 4;
export const DECIMAL_TEXT: i32 = 5;
export const BOOLEAN_TEXT: i32 = 6;
/** Checked as a date, or a date or a timestamp; written as text, a timestamp spelled as DuckDB's cast reads it. */
export const DATE_TEXT: i32 = 7;
export const TIMESTAMP_TEXT: i32 = 8;

/** A column record, in bytes: all i32. Offsets in the values are from their start. */
export const COLUMN_KIND: i32 = 0;
export const COLUMN_VALUES: i32 = 4;
export const COLUMN_CAPACITY: i32 = 8;
export const COLUMN_USED: i32 = 12;
/** Where the column's bits start: bit r (least significant first) is set when row r has a value. */
export const COLUMN_DEFINED: i32 = 16;
/** Where its row groups' records start: each two i32, where the group's values start and how many rows are NULL. */
export const COLUMN_GROUPS: i32 = 20;
/** A boolean column's values in its current row group. */
export const COLUMN_BITS: i32 = 24;
export const COLUMN_BYTES: i32 = 28;

/** Rows per row group: DuckDB's own. */
export const GROUP_ROWS: i32 = 122_880;

/** A bad row's record, in bytes: its line, why (a scanner's reason, or one below), the rows before it, its column. */
export const BAD_LINE: i32 = 0;
export const BAD_REASON: i32 = 4;
export const BAD_BEFORE: i32 = 8;
export const BAD_COLUMN: i32 = 12;
export const BAD_BYTES: i32 = 16;
export const FIELD_COUNT: i32 = 16;
export const TYPE_MISMATCH: i32 = 17;

let rows: i32 = 0;
let badCount: i32 = 0;
let full: i32 = -1;

/** The rows written since begin(). */
export function rowsWritten(): i32 {
  return rows;
}

/** The bad rows noted by the last writeRows(). */
export function badRows(): i32 {
  return badCount;
}

/** What fullColumn() is when the record writeRows() stopped at has a leap second, which this writer leaves. */
export const LEAP_SECOND: i32 = -2;

/** The column that had no room for the record writeRows() stopped at (or LEAP_SECOND). */
export function fullColumn(): i32 {
  return full;
}

/** Starts a chunk's rows: no rows, every column's bits (`definedBytes` of them from the first) cleared. */
export function begin(definedAt: usize, definedBytes: i32): void {
  rows = 0;
  memory.fill(definedAt, 0, definedBytes);
}

@inline function field(entry: usize, k: i32): usize {
  return entry + <usize>ENTRY_FIELDS + (<usize>k << 3);
}

/** Whether the field [s, e) (not empty) fits a column of `kind`; a double column's value goes to `scratch`. */
function fits(kind: i32, s: usize, e: usize, precision: i32, scratch: usize): bool {
  if (kind == TEXT) return true;
  if (kind == BOOLEAN || kind == BOOLEAN_TEXT) return isBooleanWord(s, e);
  if (!mayBeNumber(load<u8>(s))) return false;
  const found = numberClass(s, e);
  if (kind == DATE_TEXT || kind == TIMESTAMP_TEXT) return found == NOT_NUMBER && fitsDate(kind, s, e);
  if (kind == INT64 || kind == INTEGER_TEXT) return found == INTEGER;
  if ((found != INTEGER && found != DECIMAL) || lastPrecision > precision) return false;
  if (kind == DOUBLE) store<f64>(scratch, numberValue(s, e));
  return true;
}

/** Whether a field that is not a number fits a date column (a date) or a timestamp column (either). */
function fitsDate(kind: i32, s: usize, e: usize): bool {
  if (isNaN(isoInstant(s, e))) return false;
  if (kind == DATE_TEXT) return e - s == 10;
  if (lastSeconds == 60) leapSecond = true;
  return true;
}

/** Set when a timestamp checked has a leap second. */
let leapSecond = false;

/**
 * The bytes a field of `length` bytes takes in a column of `kind` (a boolean's byte at most); text is copied
 * sixteen bytes at a time, so its room has sixteen more.
 */
@inline function room(kind: i32, length: i32): i32 {
  if (kind == INT64 || kind == DOUBLE) return 8;
  return kind == BOOLEAN ? 1 : length + 20;
}

/** The first column without room for its field in the record misfit() checked last, or -1. */
let roomless: i32 = -1;

/** The first column whose field in the record does not fit, or -1 (roomless() is then found too). */
function misfit(b: usize, entry: usize, width: i32, columns: usize, precision: i32, scratch: usize): i32 {
  roomless = -1;
  leapSecond = false;
  for (let k = 0; k < width; k++) {
    const s = b + <usize>load<i32>(field(entry, k));
    const e = b + <usize>load<i32>(field(entry, k), 4);
    if (s == e) continue;
    const column = columns + <usize>(k * COLUMN_BYTES);
    const kind = load<i32>(column, COLUMN_KIND);
    if (!fits(kind, s, e, precision, scratch + (<usize>k << 3))) return k;
    const fill = load<i32>(column, COLUMN_USED) + room(kind, <i32>(e - s));
    if (roomless < 0 && fill > load<i32>(column, COLUMN_CAPACITY)) roomless = k;
  }
  return -1;
}

/** Copies `length` bytes from s to `to`, sixteen at a time: up to fifteen bytes past them are written over. */
@inline function copyText(to: usize, s: usize, length: i32): void {
  for (let i: usize = 0; i < <usize>length; i += 16) v128.store(to + i, v128.load(s + i));
}

/**
 * Appends the field [s, e) to the column as row `rows` (an empty field is NULL): `group` is the record of the
 * row's group, which the row starts when `starts`.
 */
function put(column: usize, s: usize, e: usize, scratch: usize, group: usize, starts: bool): void {
  const kind = load<i32>(column, COLUMN_KIND);
  let used = load<i32>(column, COLUMN_USED);
  if (starts) {
    store<i32>(group, used);
    store<i32>(group, 0, 4);
    store<i32>(column, 0, COLUMN_BITS);
  }
  if (s == e) {
    store<i32>(group, load<i32>(group, 4) + 1, 4);
    return;
  }
  const defined = <usize>load<i32>(column, COLUMN_DEFINED) + <usize>(rows >> 3);
  store<u8>(defined, <u8>(<i32>load<u8>(defined) | (1 << (rows & 7))));
  const values = <usize>load<i32>(column, COLUMN_VALUES);
  const at = values + <usize>used;
  if (kind == DOUBLE) {
    store<f64>(at, load<f64>(scratch));
    used += 8;
  } else if (kind == INT64) {
    store<i64>(at, integerValue(s, e));
    used += 8;
  } else if (kind == BOOLEAN) {
    used = putBoolean(column, values + <usize>load<i32>(group), (load<u8>(s) | 32) == 116);
  } else {
    const length = <i32>(e - s);
    store<i32>(at, length);
    copyText(at + 4, s, length);
    if (kind == TIMESTAMP_TEXT) respell(at + 4, length);
    used += length + 4;
  }
  store<i32>(column, used, COLUMN_USED);
}

/**
 * Spells the timestamp of `length` bytes at `at` as DuckDB's cast reads it: one with a lower-case t or z or a
 * comma before its fraction (the only places they can be) has T between its date and time, Z, and a dot.
 */
function respell(at: usize, length: i32): void {
  let misread = false;
  for (let i: usize = 10; i < <usize>length; i++) {
    const c = <u32>load<u8>(at + i);
    if (c == 116 || c == 122 || c == 44) {
      store<u8>(at + i, <u8>(c == 44 ? 46 : c - 32));
      misread = true;
    }
  }
  if (misread) store<u8>(at + 10, 84);
}

/** Appends a boolean to the group's bits (first value lowest); answers the column's bytes used after it. */
function putBoolean(column: usize, groupValues: usize, value: bool): i32 {
  const bits = load<i32>(column, COLUMN_BITS);
  const at = groupValues + <usize>(bits >> 3);
  if ((bits & 7) == 0) store<u8>(at, 0);
  if (value) store<u8>(at, <u8>(<i32>load<u8>(at) | (1 << (bits & 7))));
  store<i32>(column, bits + 1, COLUMN_BITS);
  return <i32>(at + 1 - <usize>load<i32>(column, COLUMN_VALUES));
}

function noteBad(bad: usize, line: i32, reason: i32, column: i32): void {
  const at = bad + <usize>(badCount * BAD_BYTES);
  store<i32>(at, line, BAD_LINE);
  store<i32>(at, reason, BAD_REASON);
  store<i32>(at, rows, BAD_BEFORE);
  store<i32>(at, column, BAD_COLUMN);
  badCount++;
}

/**
 * Writes the records of entries [from, count) of the table (the chunk's copy at b) into the columns, each kept
 * row's line into `lines`, and each bad row into `bad`. Returns `count`, or the entry whose record a column had
 * no room for (fullColumn(); nothing of it written), to go on from once the caller has made room.
 */
export function writeRows(
  b: usize, table: usize, from: i32, count: i32, width: i32, columns: usize, precision: i32,
  scratch: usize, lines: usize, bad: usize,
): i32 {
  const stride = <usize>(ENTRY_FIELDS + (width << 3));
  badCount = 0;
  for (let e = from; e < count; e++) {
    const entry = table + <usize>e * stride;
    const line = load<i32>(entry, ENTRY_LINE);
    const fields = load<i32>(entry, ENTRY_COUNT);
    if (fields < 0) noteBad(bad, line, -fields, -1);
    else if (fields != width) noteBad(bad, line, FIELD_COUNT, -1);
    else {
      const k = misfit(b, entry, width, columns, precision, scratch);
      if (k >= 0) {
        noteBad(bad, line, TYPE_MISMATCH, k);
        continue;
      }
      if (roomless >= 0 || leapSecond) {
        full = leapSecond ? LEAP_SECOND : roomless;
        return e;
      }
      const group = <usize>(rows / GROUP_ROWS) << 3;
      const starts = rows % GROUP_ROWS == 0;
      for (let j = 0; j < width; j++) {
        const s = b + <usize>load<i32>(field(entry, j));
        const t = b + <usize>load<i32>(field(entry, j), 4);
        const column = columns + <usize>(j * COLUMN_BYTES);
        put(column, s, t, scratch + (<usize>j << 3), <usize>load<i32>(column, COLUMN_GROUPS) + group, starts);
      }
      store<i32>(lines + (<usize>rows << 2), line);
      rows++;
    }
  }
  return count;
}
