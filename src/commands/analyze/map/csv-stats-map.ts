// Worker side of `stint analyze`: column statistics of a chunk of CSV,
// computed by the WebAssembly scanner (csv-scanner.ts) without a string per
// field. It must agree with csv-parse exactly
// (test/unit/commands/analyze-oracle.test.ts proves it).
import { isUtf8 } from 'node:buffer';
import type { ChunkInfo, WindowInfo, WindowResult } from '../../../engine/worker/worker-protocol.js';
import { findRecordStart, scanParity, type ScanState } from '../../../engine/worker/framing.js';
import { LINE_SAMPLE_LIMIT, type LineSample, type TableStats } from './column-stats.js';
import { scanChunk } from './csv-scanner.js';

export interface AnalyzeMapOptions {
  /** Fields per record, from the header. */
  readonly width: number;
  /** The byte between fields; default comma. */
  readonly delimiter?: number;
  /** The added statistics to compute (stats/column-extras.ts's Sketch bits); default all. */
  readonly sketches?: number;
}

const LF = 10;

/** Lines of this chunk that are not valid UTF-8, then the chunk decoded with U+FFFD replacements. */
function replaceInvalidUtf8(b: Buffer, invalid: LineSample): Buffer {
  let line = 0;
  for (let from = 0; from < b.length; line++) {
    let to = b.indexOf(LF, from);
    if (to < 0) to = b.length;
    if (!isUtf8(b.subarray(from, to))) {
      invalid.count++;
      if (invalid.lines.length < LINE_SAMPLE_LIMIT) invalid.lines.push(line);
    }
    from = to + 1;
  }
  return Buffer.from(b.toString('utf8'));
}

/** How many bytes of `b` end before a UTF-8 sequence that the window cuts short. */
function wholeUtf8Length(b: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, b.length); back++) {
    const byte = b[b.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needed > back ? b.length - back : b.length;
  }
  return b.length;
}

/** The map: one chunk of whole records → its table statistics (line numbers relative to the chunk). */
export function map(bytes: Uint8Array, info: ChunkInfo): TableStats {
  const { width, delimiter, sketches } = info.options as AnalyzeMapOptions;
  const invalid: LineSample = { count: 0, lines: [] };
  let b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  if (!isUtf8(b)) b = replaceInvalidUtf8(b, invalid);
  const { stats } = scanChunk(b, width, b.length, true, delimiter, sketches)!;
  stats.invalidUtf8 = invalid;
  return stats;
}

/**
 * The self-framing map the pool calls: it finds the chunk's end while it
 * parses, so no separate pass frames the chunk first. Bytes that are not
 * UTF-8 are framed first and decoded with replacements, as `map` does.
 */
export function mapWindow(bytes: Uint8Array, info: WindowInfo): WindowResult<TableStats> {
  const { width, delimiter, sketches } = info.options as AnalyzeMapOptions;
  // A window that ends inside a character is not invalid: the rest is in the next read.
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, info.atEof ? bytes.length : wholeUtf8Length(bytes));
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
  if (info.limit > b.length && !info.atEof) return undefined; // never so: windows read well past the limit
  const scanned = scanChunk(b, width, Math.min(info.limit, b.length), info.atEof, delimiter, sketches);
  return scanned && { partial: scanned.stats, consumed: scanned.consumed, newlines: scanned.newlines };
}
