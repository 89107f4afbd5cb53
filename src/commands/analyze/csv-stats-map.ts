// Worker side of `stint analyze`: a byte-level CSV scanner that computes
// column statistics without making a string per field. It must agree with
// csv-parse exactly (test/unit/commands/analyze-oracle.test.ts proves it).
import { isAscii, isUtf8 } from 'node:buffer';
import { ErrorCode } from '../../contract/error-code.js';
import type { ChunkInfo, WindowInfo, WindowResult } from '../../engine/worker-protocol.js';
import { findRecordStart, scanParity, type ScanState } from '../../engine/framing.js';
import { addExact, roundExact, Kind, LINE_SAMPLE_LIMIT, newTableStats, type ColumnPartial, type TableStats } from './column-stats.js';

export interface AnalyzeMapOptions {
  /** Fields per record, from the header. */
  readonly width: number;
}

const COMMA = 44;
const QUOTE = 34;
const LF = 10;
const CR = 13;
const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);
const MAX_FAST_DIGITS = 15;
/** Integer sums stay exact in a double below this; past it they move to the exact partials. */
const EXACT_INT = 2 ** 52;
/** Bytes that end an unquoted field or make it malformed: one table load per byte. */
const SPECIAL = new Uint8Array(256);
SPECIAL[COMMA] = SPECIAL[LF] = SPECIAL[QUOTE] = 1;

/** A CSV syntax error at a line of this chunk, thrown as data with a code. */
class MalformedCsv extends Error {
  readonly code = ErrorCode.MalformedCsv;
  readonly context: { line_offset: number };
  constructor(message: string, lineOffset: number) {
    super(message);
    this.context = { line_offset: lineOffset };
  }
}

// Per-thread scratch, reused across chunks.
let starts = new Int32Array(256);
let ends = new Int32Array(256);
let escaped = new Uint8Array(256);
let unescaped = Buffer.allocUnsafe(4096);

function grow(): void {
  const size = starts.length * 2;
  const s = new Int32Array(size); s.set(starts); starts = s;
  const e = new Int32Array(size); e.set(ends); ends = e;
  const x = new Uint8Array(size); x.set(escaped); escaped = x;
}

function noteString(col: ColumnPartial, b: Buffer, s: number, e: number, codePoints: number): void {
  // The first byte settles most comparisons without a call.
  const first = b[s]!;
  const min = col.strMin;
  if (min === null || (first <= min[0]! && compareRange(b, s, e, min) < 0)) col.strMin = new Uint8Array(b.subarray(s, e));
  const max = col.strMax;
  if (max === null || (first >= max[0]! && compareRange(b, s, e, max) > 0)) col.strMax = new Uint8Array(b.subarray(s, e));
  if (codePoints < col.minLength) col.minLength = codePoints;
  if (codePoints > col.maxLength) col.maxLength = codePoints;
}

function compareRange(b: Buffer, s: number, e: number, other: Uint8Array): number {
  const n = Math.min(e - s, other.length);
  for (let i = 0; i < n; i++) {
    const d = b[s + i]! - other[i]!;
    if (d !== 0) return d;
  }
  return e - s - other.length;
}

function noteNumber(col: ColumnPartial, value: number, kind: number): void {
  col.kinds |= kind;
  if (value < col.numMin) col.numMin = value;
  if (value > col.numMax) col.numMax = value;
  if (kind === Kind.Integer && value < EXACT_INT && value > -EXACT_INT) {
    const sum = col.intSum + value;
    if (sum < EXACT_INT && sum > -EXACT_INT) {
      col.intSum = sum;
      return;
    }
  }
  addExact(col.sum, value);
}

const SPLITTER = 134217729; // 2^27 + 1, Veltkamp's split for exact products
const scratch: number[] = [];

/** The correctly rounded value of a·10^d + b for integers a < 10^15, b < 10^d, d ≤ 15 (no string made). */
function exactDecimal(a: number, d: number, b: number): number {
  const m = POW10[d]!;
  const p = a * m;
  let c = SPLITTER * a;
  const ah = c - (c - a);
  const al = a - ah;
  c = SPLITTER * m;
  const mh = c - (c - m);
  const ml = m - mh;
  const e = ((ah * mh - p) + ah * ml + al * mh) + al * ml; // a·m = p + e exactly
  while (scratch.length > 0) scratch.pop();
  addExact(scratch, p);
  addExact(scratch, e);
  addExact(scratch, b);
  return roundExact(scratch);
}

/**
 * Classifies one non-empty value and folds it into its column. Numbers are
 * read from the bytes: up to 15 significant digits with a decimal exponent
 * of at most 22 by one exact operation (correctly rounded, as Number()
 * would), long integers exactly, anything else through Number().
 */
function processField(col: ColumnPartial, b: Buffer, s: number, e: number, ascii: boolean): void {
  const len = e - s;
  if (len === 0) {
    col.nulls++;
    return;
  }
  col.count++;
  let k = s;
  let c = b[k]!;
  const negative = c === 45;
  if (c === 45 || c === 43) k++;
  let digits = 0;
  let fraction = 0;
  let dot = false;
  let mantissa = 0;
  let head = 0; // the first 15 digits, for long integers
  while (k < e) {
    c = b[k]!;
    if (c >= 48 && c <= 57) {
      digits++;
      if (digits <= MAX_FAST_DIGITS) head = mantissa = mantissa * 10 + (c - 48);
      if (dot) fraction++;
    } else if (c === 46 && !dot) {
      dot = true;
    } else break;
    k++;
  }
  if (digits > 0) {
    let exponent = 0;
    let ok = k === e;
    let hasExponent = false;
    if (!ok && (c === 101 || c === 69)) {
      k++;
      let sign = 1;
      if (k < e && (b[k] === 43 || b[k] === 45)) sign = b[k++] === 45 ? -1 : 1;
      const expStart = k;
      while (k < e && b[k]! >= 48 && b[k]! <= 57) exponent = Math.min(exponent * 10 + (b[k++]! - 48), 1e6);
      ok = k === e && k > expStart;
      exponent *= sign;
      hasExponent = true;
    }
    if (ok) {
      let value: number;
      const scale = exponent - fraction;
      if (digits <= MAX_FAST_DIGITS && scale >= -22 && scale <= 22) {
        value = scale >= 0 ? mantissa * POW10[scale]! : mantissa / POW10[-scale]!;
        if (negative) value = -value;
      } else if (!dot && !hasExponent && digits <= 2 * MAX_FAST_DIGITS) {
        let tail = 0;
        for (let i = e - (digits - MAX_FAST_DIGITS); i < e; i++) tail = tail * 10 + (b[i]! - 48);
        value = exactDecimal(head, digits - MAX_FAST_DIGITS, tail);
        if (negative) value = -value;
      } else {
        value = Number(b.toString('latin1', s, e));
      }
      if (Number.isFinite(value)) {
        noteNumber(col, value, dot || hasExponent ? Kind.Number : Kind.Integer);
        noteString(col, b, s, e, len);
        return;
      }
    }
  }
  if (len === 4 && (b[s]! | 32) === 116 && (b[s + 1]! | 32) === 114 && (b[s + 2]! | 32) === 117 && (b[s + 3]! | 32) === 101) {
    col.kinds |= Kind.Boolean;
    col.sawTrue = true;
    noteString(col, b, s, e, len);
    return;
  }
  if (len === 5 && (b[s]! | 32) === 102 && (b[s + 1]! | 32) === 97 && (b[s + 2]! | 32) === 108 && (b[s + 3]! | 32) === 115 && (b[s + 4]! | 32) === 101) {
    col.kinds |= Kind.Boolean;
    col.sawFalse = true;
    noteString(col, b, s, e, len);
    return;
  }
  col.kinds |= Kind.String;
  let codePoints = len;
  if (!ascii) {
    codePoints = 0;
    for (let i = s; i < e; i++) if ((b[i]! & 0xc0) !== 0x80) codePoints++;
  }
  noteString(col, b, s, e, codePoints);
}

/** Lines of this chunk that are not valid UTF-8, then the chunk decoded with U+FFFD replacements. */
function replaceInvalidUtf8(b: Buffer, stats: TableStats): Buffer {
  let line = 0;
  for (let from = 0; from < b.length; line++) {
    let to = b.indexOf(LF, from);
    if (to < 0) to = b.length;
    if (!isUtf8(b.subarray(from, to))) {
      stats.invalidUtf8.count++;
      if (stats.invalidUtf8.lines.length < LINE_SAMPLE_LIMIT) stats.invalidUtf8.lines.push(line);
    }
    from = to + 1;
  }
  return Buffer.from(b.toString('utf8'));
}

function unescape(b: Buffer, s: number, e: number): number {
  if (unescaped.length < e - s) unescaped = Buffer.allocUnsafe(Math.max(e - s, unescaped.length * 2));
  let n = 0;
  for (let i = s; i < e; i++) {
    unescaped[n++] = b[i]!;
    if (b[i] === QUOTE) i++; // the second quote of a doubled pair
  }
  return n;
}

/**
 * Reads the records of `b` that start before `limit`, folding their fields
 * into `stats`. Returns where they ended and the newlines passed, or
 * undefined when the last record runs past the bytes and the file goes on.
 */
function scan(b: Buffer, width: number, limit: number, atEof: boolean, stats: TableStats, ascii: boolean): { consumed: number; newlines: number } | undefined {
  const columns = stats.columns;
  const n = b.length;
  let i = 0;
  let line = 0;
  while (i < limit) {
    const recordLine = line;
    let c = b[i]!;
    if (c === LF) { i++; line++; continue; }
    if (c === CR) {
      if (i + 1 >= n && !atEof) return undefined;
      if (b[i + 1] === LF) { i += 2; line++; continue; }
    }
    let field = 0;
    for (;;) {
      if (field >= starts.length) grow();
      if (i < n && b[i] === QUOTE) {
        let j = i + 1;
        let doubled = 0;
        for (;;) {
          if (j >= n) {
            if (!atEof) return undefined;
            throw new MalformedCsv('a quoted field is not closed before the end of the file', recordLine);
          }
          const d = b[j]!;
          if (d === QUOTE) {
            if (j + 1 >= n && !atEof) return undefined;
            if (b[j + 1] === QUOTE) { doubled = 1; j += 2; continue; }
            break;
          }
          if (d === LF) line++;
          j++;
        }
        starts[field] = i + 1;
        ends[field] = j;
        escaped[field] = doubled;
        i = j + 1;
        if (i >= n) {
          if (!atEof) return undefined;
          break;
        }
        c = b[i]!;
        if (c === COMMA) { i++; field++; continue; }
        if (c === LF) { i++; line++; break; }
        if (c === CR) {
          if (i + 1 >= n && !atEof) return undefined;
          if (b[i + 1] === LF) { i += 2; line++; break; }
        }
        throw new MalformedCsv('characters follow a closing quote', line);
      }
      const start = i;
      while (i < n && SPECIAL[b[i]!] === 0) i++;
      if (i >= n && !atEof) return undefined;
      c = i < n ? b[i]! : -1;
      if (c === QUOTE) throw new MalformedCsv('a quote inside an unquoted field', line);
      starts[field] = start;
      ends[field] = i < n && b[i - 1] === CR && i > start && c === LF ? i - 1 : i;
      escaped[field] = 0;
      if (i >= n) break;
      if (c === COMMA) { i++; field++; continue; }
      i++;
      line++;
      break;
    }
    if (field + 1 !== width) {
      stats.ragged.count++;
      if (stats.ragged.lines.length < LINE_SAMPLE_LIMIT) stats.ragged.lines.push(recordLine);
      continue;
    }
    stats.rows++;
    for (let k = 0; k < width; k++) {
      if (escaped[k]) {
        const length = unescape(b, starts[k]!, ends[k]!); // may grow the scratch buffer: read it after
        processField(columns[k]!, unescaped, 0, length, ascii);
      } else processField(columns[k]!, b, starts[k]!, ends[k]!, ascii);
    }
  }
  return { consumed: i, newlines: line };
}

/** The map: one chunk of whole records → its table statistics (line numbers relative to the chunk). */
export function map(bytes: Uint8Array, info: ChunkInfo): TableStats {
  const { width } = info.options as AnalyzeMapOptions;
  const stats = newTableStats(width);
  let b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (!isUtf8(b)) b = replaceInvalidUtf8(b, stats);
  scan(b, width, b.length, true, stats, isAscii(b));
  return stats;
}

/**
 * The self-framing map the pool calls: it finds the chunk's end while it
 * parses, so no separate pass frames the chunk first. Bytes that are not
 * UTF-8 are framed first and decoded with replacements, as `map` does.
 */
export function mapWindow(bytes: Uint8Array, info: WindowInfo): WindowResult<TableStats> {
  const { width } = info.options as AnalyzeMapOptions;
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (!isUtf8(b)) {
    const state: ScanState = { inQuote: false, newlines: 0 };
    scanParity(b, 0, Math.max(0, info.limit - 1), state, true);
    let end = findRecordStart(b, Math.max(0, info.limit - 1), b.length, state, true);
    if (end < 0) {
      if (!info.atEof) return undefined;
      end = b.length;
    }
    return { partial: map(b.subarray(0, end), info), consumed: end, newlines: state.newlines };
  }
  const stats = newTableStats(width);
  const scanned = scan(b, width, info.limit, info.atEof, stats, isAscii(b));
  return scanned && { partial: stats, ...scanned };
}
