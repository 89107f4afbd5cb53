// Cuts a stream of bytes (a decompressed input) into chunks of whole records
// on the main thread, so the pool's workers never read it by offset.

const QUOTE = 0x22;
const LF = 0x0a;

/** A chunk of whole records cut from the stream: its bytes and its offset in the stream. */
export interface CutChunk {
  readonly bytes: Buffer;
  readonly start: number;
}

/** The records ran on past the longest a chunk may hold: no record end outside quotes was found. */
export class RecordRunsOn extends Error {
  constructor(readonly at: number) {
    super('a record runs on past the longest a record may be (an unterminated quote?)');
  }
}

/** The offset just past the last LF outside quotes in bytes[from, end), and the quote state at the end. */
function lastRecordEnd(bytes: Buffer, from: number, inQuote: boolean): { cut: number; inQuote: boolean } {
  if (!inQuote && bytes.indexOf(QUOTE, from) < 0) {
    const lf = bytes.lastIndexOf(LF);
    return { cut: lf >= from ? lf + 1 : -1, inQuote };
  }
  let cut = -1;
  let quoted = inQuote;
  for (let i = from; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) quoted = !quoted;
    else if (c === LF && !quoted) cut = i + 1;
  }
  return { cut, inQuote: quoted };
}

/**
 * Chunks of about `chunkSize` bytes that end at a record end (a LF outside
 * double quotes), from `start` (a record start) on; the last holds whatever
 * follows the last record end. A record longer than `maxRecordBytes` throws
 * RecordRunsOn. `pieces` yields the stream's bytes from `start`.
 */
export async function* cutRecords(
  pieces: AsyncIterable<Buffer>, start: number, chunkSize: number, maxRecordBytes: number,
): AsyncGenerator<CutChunk> {
  let held: Buffer[] = [];
  let heldLength = 0;
  let at = start;
  // The held bytes up to `scanned` hold no record end; `inQuote` is the quote state there.
  let scanned = 0;
  let inQuote = false;
  for await (const piece of pieces) {
    held.push(piece);
    heldLength += piece.length;
    if (heldLength < chunkSize) continue;
    const bytes = held.length === 1 ? held[0]! : Buffer.concat(held, heldLength);
    const found = lastRecordEnd(bytes, scanned, inQuote);
    if (found.cut < 0) {
      if (heldLength > chunkSize + maxRecordBytes) throw new RecordRunsOn(at);
      held = [bytes];
      scanned = heldLength;
      inQuote = found.inQuote;
      continue;
    }
    yield { bytes: bytes.subarray(0, found.cut), start: at };
    at += found.cut;
    const rest = bytes.subarray(found.cut);
    held = rest.length > 0 ? [rest] : [];
    heldLength = rest.length;
    scanned = rest.length;
    inQuote = found.inQuote;
  }
  if (heldLength > 0) yield { bytes: Buffer.concat(held, heldLength), start: at };
}
