// Cuts a stream of bytes (a decompressed input) into chunks of whole records
// on the main thread, so the pool's workers never read it by offset. The cuts
// are those a file of the same bytes gets (chunk-grid.ts): whatever pieces the
// stream hands over, the same bytes give the same chunks.
import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';
import { nextGridPoint } from './chunk-grid.js';
import { Framing } from './worker/framing.js';

const QUOTE = 0x22;
const LF = 0x0a;

/** A chunk of whole records cut from the stream: its bytes and its offset in the stream. */
export interface CutChunk {
  readonly bytes: Buffer;
  readonly start: number;
}

/** The records ran on past the longest a chunk may hold from `at`: no record end outside quotes was found. */
function recordRunsOn(at: number): StintError {
  const message = 'a record runs on past the longest a record may be (an unterminated quote?)';
  return new StintError(ErrorCode.RecordTooLong, message, { context: { at } });
}

/** Whether bytes[from, to) holds an odd number of double quotes (native searches: quotes are rare). */
function oddQuotes(bytes: Buffer, from: number, to: number): boolean {
  let odd = false;
  for (let i = bytes.indexOf(QUOTE, from); i >= 0 && i < to; i = bytes.indexOf(QUOTE, i + 1)) odd = !odd;
  return odd;
}

/** Where a cut scan stands in the held bytes: scanned up to `at`, inside quotes or not. */
interface Scan {
  at: number;
  inQuote: boolean;
}

/**
 * The first record start at or after `target` in bytes (read from a record start, scan kept between calls),
 * or -1 when the bytes end first. A record start follows a LF outside double quotes.
 */
function recordStartFrom(bytes: Buffer, target: number, scan: Scan, quoted: boolean): number {
  if (scan.at < target - 1) {
    if (quoted && oddQuotes(bytes, scan.at, target - 1)) scan.inQuote = !scan.inQuote;
    scan.at = target - 1;
  }
  for (let lf = bytes.indexOf(LF, scan.at); lf >= 0; lf = bytes.indexOf(LF, scan.at)) {
    if (quoted && oddQuotes(bytes, scan.at, lf)) scan.inQuote = !scan.inQuote;
    scan.at = lf + 1;
    if (!scan.inQuote) return lf + 1;
  }
  if (quoted && oddQuotes(bytes, scan.at, bytes.length)) scan.inQuote = !scan.inQuote;
  scan.at = bytes.length;
  return -1;
}

/**
 * Chunks of whole records from `start` (a record start) on, each ending at the first record start at or after
 * the next grid point (for Bytes framing, at the grid point itself); the last holds whatever follows the last
 * cut. A record longer than `maxRecordBytes` throws RECORD_TOO_LONG. `pieces` yields the stream's bytes from `start`.
 */
export async function* cutRecords(
  pieces: AsyncIterable<Buffer>, start: number, chunkSize: number, maxRecordBytes: number,
  framing: Framing = Framing.Csv,
): AsyncGenerator<CutChunk> {
  let held: Buffer[] = [];
  let heldLength = 0;
  let at = start;
  let scan: Scan = { at: 0, inQuote: false };
  for await (const piece of pieces) {
    held.push(piece);
    heldLength += piece.length;
    for (;;) {
      const target = nextGridPoint(at, chunkSize) - at;
      if (heldLength < target) break;
      const bytes = held.length === 1 ? held[0]! : Buffer.concat(held, heldLength);
      held = [bytes];
      const cut = framing === Framing.Bytes ? target : recordStartFrom(bytes, target, scan, framing === Framing.Csv);
      if (cut < 0) {
        if (heldLength - target > maxRecordBytes) throw recordRunsOn(at);
        break;
      }
      yield { bytes: bytes.subarray(0, cut), start: at };
      at += cut;
      const rest = bytes.subarray(cut);
      held = rest.length > 0 ? [rest] : [];
      heldLength = rest.length;
      scan = { at: 0, inQuote: false };
    }
  }
  if (heldLength > 0) yield { bytes: Buffer.concat(held, heldLength), start: at };
}
