// A gzip file through the pool: decompressed as a stream on the main
// thread, cut into chunks of whole records there, and each chunk's bytes sent
// to a worker. See docs/sources.md, "A gzip file".
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { ErrorCode } from '../contract/error-code.js';
import { checkMapModule, type ChunkedOutcome, type ChunkedRun, type FoldChunk, type Watermark } from './chunked-run.js';
import { crToLf } from './chunk-reader.js';
import { driveFold } from './fold-loop.js';
import { cutRecords, RecordRunsOn, type CutChunk } from './record-cutter.js';
import type { ChunkReply, ChunkTask, WireError } from './worker-protocol.js';

/** Decompressed bytes per piece the stream hands over. */
const PIECE = 256 * 1024;

/** The decompressed bytes from `skip` on (a resume re-decompresses the bytes before it), and the bytes read. */
async function* decoded(
  path: string, skip: number, crLineEnds: boolean, read: { bytes: number },
): AsyncGenerator<Buffer> {
  const file = createReadStream(path, { highWaterMark: PIECE });
  file.on('data', (piece) => (read.bytes += piece.length));
  const gunzip = createGunzip({ chunkSize: PIECE });
  file.on('error', (error) => gunzip.destroy(error));
  let left = skip;
  try {
    for await (const piece of file.pipe(gunzip) as AsyncIterable<Buffer>) {
      if (left >= piece.length) {
        left -= piece.length;
        continue;
      }
      const bytes = left > 0 ? piece.subarray(left) : piece;
      left = 0;
      if (crLineEnds) crToLf(bytes, bytes.length);
      yield bytes;
    }
  } finally {
    file.destroy();
    gunzip.destroy();
  }
  if (left > 0) throw Object.assign(new Error(`${path} decompresses to fewer bytes than when the run began`), {
    code: ErrorCode.InputTruncated,
  });
}

/**
 * A failure of the stream itself, as data, and whether it has a line: a record that runs on starts at the
 * line after those folded; a damaged gzip file or a failed read is somewhere in the compressed bytes.
 */
function streamFailure(error: unknown, path: string): { error: WireError; atLine: boolean } {
  if (error instanceof RecordRunsOn) {
    return { error: { code: ErrorCode.RecordTooLong, message: error.message }, atLine: true };
  }
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message;
  if (code === ErrorCode.InputTruncated) return { error: { code, message }, atLine: false };
  if (typeof code === 'string' && code.startsWith('Z_')) {
    const damaged = `${path} cannot be decompressed: ${message} (a gzip file cut short or corrupt)`;
    return { error: { code: ErrorCode.InputDamaged, message: damaged }, atLine: false };
  }
  return { error: { code: ErrorCode.FileUnreadable, message: `${path} cannot be read: ${message}` }, atLine: false };
}

/**
 * Runs a gzip file through the pool and the author's fold, from a watermark
 * (an offset in the decompressed bytes) to the end or a stop. Chunks are
 * mapped in parallel and folded in order; a safe point's watermark also
 * carries `source`, the compressed bytes read, for progress.
 */
export async function runGunzipped<P, S>(run: ChunkedRun<P, S>): Promise<ChunkedOutcome<S>> {
  checkMapModule(run.mapModule);
  const read = { bytes: 0 };
  let pulled: Watermark = run.from;
  let watermark = run.from;
  let failure: { error: WireError; line: number } | undefined;
  let streamError: ReturnType<typeof streamFailure> | undefined;
  const task = (chunk: CutChunk): ChunkTask => ({
    mapModule: run.mapModule, path: run.path, framing: run.framing, options: run.options,
    nominalStart: chunk.start, nominalEnd: chunk.start + chunk.bytes.length, fileSize: Number.MAX_SAFE_INTEGER,
    speculative: false, maxRecordBytes: run.maxRecordBytes, bytes: new Uint8Array(chunk.bytes),
  });
  type Sent = { readonly reply: Promise<ChunkReply<P>>; readonly source: number };
  async function* chunks(): AsyncGenerator<FoldChunk<P>> {
    const inFlight: Sent[] = [];
    const window = Math.max(2, run.pool.workers * 2);
    const pieces = decoded(run.path, run.from.offset, run.crLineEnds === true, read);
    const cut = cutRecords(pieces, run.from.offset, run.chunkSize, run.maxRecordBytes);
    try {
      for (;;) {
        let next: IteratorResult<CutChunk> | undefined;
        if (inFlight.length < window) {
          try {
            next = await cut.next();
          } catch (error) {
            streamError = streamFailure(error, run.path);
          }
          if (next && !next.done) {
            inFlight.push({ reply: run.pool.run<P>(task(next.value)), source: read.bytes });
            continue;
          }
        }
        const sent = inFlight.shift();
        if (!sent) {
          // Line 0: no line (the damage is in the compressed bytes).
          if (streamError) failure = { error: streamError.error, line: streamError.atLine ? pulled.line : 0 };
          return;
        }
        const reply = await sent.reply;
        if (reply.kind !== 'mapped') {
          const error = reply.kind === 'failed' ? reply.error : { code: ErrorCode.InternalError, message: 'misaligned' };
          failure = { error, line: pulled.line + Number(error.context?.['line_offset'] ?? 0) };
          return;
        }
        const line = pulled.line;
        // Progress never goes back: a resume reads the compressed prefix again before its first chunk.
        const source = Math.max(sent.source, pulled.source ?? 0);
        pulled = { offset: reply.end, line: line + reply.newlines, source };
        yield { partial: reply.partial, start: reply.start, end: reply.end, line, newlines: reply.newlines };
      }
    } finally {
      await cut.return(undefined);
    }
  }
  const safePoint = (folded: S) => run.safePoint(folded, (watermark = pulled));
  const { stopped, state } = await driveFold(run.fold, chunks(), run.state, safePoint);
  if (stopped) return { kind: 'stopped', state, watermark };
  if (failure) return { kind: 'failed', state, watermark, ...failure };
  return { kind: 'done', state, watermark: pulled };
}
