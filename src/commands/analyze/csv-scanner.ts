// Runs the WebAssembly CSV scanner (wasm/csv-scan.ts, built by `npm run
// build`) over one chunk and turns what it leaves in its memory into
// TableStats. One instance per thread, compiled on first use.
import { readFileSync } from 'node:fs';
import { ErrorCode } from '../../contract/error-code.js';
import { addExact, LINE_SAMPLE_LIMIT, mergeTableStats, newTableStats, type TableStats } from './column-stats.js';
import { processField } from './field-stats.js';

const WASM_URL = new URL('./wasm/csv-scan.wasm', import.meta.url);
const PAGE = 64 * 1024;
/** Fields the scanner may hand back before it pauses for them to be taken. */
const DEFER_CAPACITY = 4096;

/** The scanner's exports: functions, and its layout as immutable globals. */
interface ScannerExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  configure(columnsAt: number, partialsAt: number, fieldsAt: number, reportAt: number, width: number, deferCapacity: number): void;
  reset(arenaAt: number): void;
  scan(at: number, length: number, from: number, line: number, limit: number, atEof: number): number;
  limits(partialsAt: number, deferredAt: number): void;
  readonly [constant: string]: unknown;
}

/** A CSV syntax error at a line of this chunk, thrown as data with a code. */
export class MalformedCsv extends Error {
  readonly code = ErrorCode.MalformedCsv;
  readonly context: { line_offset: number };
  constructor(message: string, lineOffset: number) {
    super(message);
    this.context = { line_offset: lineOffset };
  }
}

let scanner: ScannerExports | undefined;
const constant = (name: string): number => (scanner![name] as WebAssembly.Global).value as number;

function instance(): ScannerExports {
  if (!scanner) {
    const module = new WebAssembly.Module(readFileSync(WASM_URL));
    scanner = new WebAssembly.Instance(module, {
      env: {
        abort: () => {
          throw new Error('the CSV scanner aborted');
        },
      },
    }).exports as unknown as ScannerExports;
    if (constant('RAGGED_SAMPLE') !== LINE_SAMPLE_LIMIT) throw new Error('the CSV scanner and column-stats.ts disagree on the line sample size');
  }
  return scanner;
}

/** When the scanner pauses by default: more partials than fast-path values ever make; a full list. */
const DEFAULT_LIMITS = { partials: 48, deferred: 0x7fffffff };

/**
 * For tests: pause the scanner at this many sum partials in a column or
 * fields handed back, so the pause paths run on small inputs; no argument
 * restores the defaults.
 */
export function setScannerLimits(limits: { partials: number; deferred: number } = DEFAULT_LIMITS): void {
  instance().limits(limits.partials, limits.deferred);
}

const align = (offset: number) => (offset + 15) & ~15;

/** Where the scanner's regions start for a table this wide and a chunk this long; grows memory to fit. */
function layout(x: ScannerExports, width: number, length: number) {
  const columnsAt = x.heapBase();
  const partialsAt = align(columnsAt + width * constant('COLUMN_BYTES'));
  const fieldsAt = align(partialsAt + width * constant('MAX_PARTIALS') * 8);
  const reportAt = align(fieldsAt + width * 12);
  const deferCapacity = Math.max(DEFER_CAPACITY, 2 * width);
  const arenaAt = align(reportAt + constant('REPORT_DEFERRED_LIST') + deferCapacity * constant('DEFERRED_BYTES'));
  const chunkAt = align(arenaAt + length);
  const needed = chunkAt + length;
  const have = x.memory.buffer.byteLength;
  if (needed > have) x.memory.grow(Math.ceil((needed - have) / PAGE));
  x.configure(columnsAt, partialsAt, fieldsAt, reportAt, width, deferCapacity);
  return { columnsAt, partialsAt, reportAt, arenaAt, chunkAt };
}

const MESSAGES = (): Record<number, string> => ({
  [constant('UNCLOSED_QUOTE')]: 'a quoted field is not closed before the end of the file',
  [constant('TEXT_AFTER_QUOTE')]: 'characters follow a closing quote',
  [constant('QUOTE_IN_FIELD')]: 'a quote inside an unquoted field',
});

/**
 * Reads the records of `b` (valid UTF-8) that start before `limit`.
 * Returns their statistics, where they ended and the newlines passed, or
 * undefined when the last record runs past the bytes and the file goes on.
 */
export function scanChunk(b: Uint8Array, width: number, limit: number, atEof: boolean): { stats: TableStats; consumed: number; newlines: number } | undefined {
  const x = instance();
  const at = layout(x, width, b.length);
  new Uint8Array(x.memory.buffer).set(b, at.chunkAt);
  x.reset(at.arenaAt);
  const memory = Buffer.from(x.memory.buffer);
  const i32 = new Int32Array(x.memory.buffer);
  const f64 = new Float64Array(x.memory.buffer);
  const report = (field: string) => i32[(at.reportAt + constant(field)) >> 2]!;
  // Fields and sum partials the scanner hands back are folded here, then merged with its own.
  const handedBack = newTableStats(width);
  let from = 0;
  let line = 0;
  let status: number;
  for (;;) {
    status = x.scan(at.chunkAt, b.length, from, line, limit, atEof ? 1 : 0);
    const deferred = report('REPORT_DEFERRED');
    const list = (at.reportAt + constant('REPORT_DEFERRED_LIST')) >> 2;
    for (let d = 0; d < deferred; d++) {
      processField(handedBack.columns[i32[list + 3 * d]!]!, memory, i32[list + 3 * d + 1]!, i32[list + 3 * d + 2]!);
    }
    if (status !== constant('PAUSED')) break;
    for (let k = 0; k < width; k++) {
      const count = (at.columnsAt + k * constant('COLUMN_BYTES') + constant('COL_PARTIALS')) >> 2;
      const base = (at.partialsAt + k * constant('MAX_PARTIALS') * 8) >> 3;
      for (let p = 0; p < i32[count]!; p++) addExact(handedBack.columns[k]!.sum, f64[base + p]!);
      i32[count] = 0;
    }
    from = report('REPORT_CONSUMED');
    line = report('REPORT_LINE');
  }
  if (status === constant('NEED_MORE')) return undefined;
  if (status === constant('MALFORMED')) throw new MalformedCsv(MESSAGES()[report('REPORT_ERROR_KIND')]!, report('REPORT_ERROR_LINE'));

  const stats = newTableStats(width);
  stats.rows = report('REPORT_ROWS');
  stats.ragged.count = report('REPORT_RAGGED');
  const raggedAt = (at.reportAt + constant('REPORT_RAGGED_LINES')) >> 2;
  for (let r = 0; r < Math.min(stats.ragged.count, LINE_SAMPLE_LIMIT); r++) stats.ragged.lines.push(i32[raggedAt + r]!);
  const text = (ptr: number, length: number) => (length < 0 ? null : new Uint8Array(memory.subarray(ptr, ptr + length)));
  for (let k = 0; k < width; k++) {
    const col = at.columnsAt + k * constant('COLUMN_BYTES');
    const field = (name: string) => col + constant(name);
    const c = stats.columns[k]!;
    c.count = f64[field('COL_COUNT') >> 3]!;
    c.nulls = f64[field('COL_NULLS') >> 3]!;
    c.numMin = f64[field('COL_NUM_MIN') >> 3]!;
    c.numMax = f64[field('COL_NUM_MAX') >> 3]!;
    c.intSum = f64[field('COL_INT_SUM') >> 3]!;
    c.minLength = f64[field('COL_MIN_LENGTH') >> 3]!;
    c.maxLength = f64[field('COL_MAX_LENGTH') >> 3]!;
    c.kinds = i32[field('COL_KINDS') >> 2]!;
    c.sawFalse = i32[field('COL_SAW_FALSE') >> 2]! !== 0;
    c.sawTrue = i32[field('COL_SAW_TRUE') >> 2]! !== 0;
    const base = (at.partialsAt + k * constant('MAX_PARTIALS') * 8) >> 3;
    c.sum = Array.from(f64.subarray(base, base + i32[field('COL_PARTIALS') >> 2]!));
    c.strMin = text(i32[field('COL_STR_MIN_PTR') >> 2]!, i32[field('COL_STR_MIN_LEN') >> 2]!);
    c.strMax = text(i32[field('COL_STR_MAX_PTR') >> 2]!, i32[field('COL_STR_MAX_LEN') >> 2]!);
  }
  mergeTableStats(stats, handedBack, 0);
  return { stats, consumed: status, newlines: report('REPORT_LINE') };
}
