// A gzip file through the pool: decompressed as a stream on the main
// thread, cut into chunks of whole records there, and each chunk's bytes sent
// to a worker. See docs/sources.md, "A gzip file".
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';
import { checkMapModule, type ChunkedOutcome, type ChunkedRun, type FoldChunk, type Watermark } from './chunked-run.js';
import { crToLf } from './worker/chunk-reader.js';
import { READ_FAILURES } from './worker/byte-source.js';
import { isRemotePath } from './worker/remote-url.js';
import { remoteStream } from './remote-stream.js';
import { driveFold } from './fold-loop.js';
import { cutRecords, type CutChunk } from './record-cutter.js';
import type { ChunkReply, ChunkTask, WireError } from './worker/worker-protocol.js';

/** Decompressed bytes per piece the stream hands over. */
const PIECE = 256 * 1024;

/** The decompressed bytes from `skip` on (a resume re-decompresses the bytes before it), and the bytes read. */
async function* decoded(
  path: string, skip: number, crLineEnds: boolean, read: { bytes: number },
): AsyncGenerator<Buffer> {
  const file: Readable = isRemotePath(path) ? remoteStream(path) : createReadStream(path, { highWaterMark: PIECE });
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
  if (left > 0) {
    throw new StintError(ErrorCode.InputTruncated, `${path} decompresses to fewer bytes than when the run began`);
  }
}

/**
 * A failure of the stream itself, as data, and whether it has a line: a record that runs on starts at the
 * line after those folded; a damaged gzip file or a failed read is somewhere in the compressed bytes.
 */
function streamFailure(error: unknown, path: string): { error: WireError; atLine: boolean } {
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message;
  // Only the cutter throws it here (recordRunsOn).
  if (code === ErrorCode.RecordTooLong) return { error: { code, message }, atLine: true };
  if (typeof code === 'string' && READ_FAILURES.has(code)) return { error: { code, message }, atLine: false };
  if (typeof code === 'string' && code.startsWith('Z_')) {
    const damaged = `${path} cannot be decompressed: ${message} (a gzip file cut short or corrupt)`;
    return { error: { code: ErrorCode.InputDamaged, message: damaged }, atLine: false };
  }
  return { error: { code: ErrorCode.FileUnreadable, message: `${path} cannot be read: ${message}` }, atLine: false };
}

/** A chunk's bytes as the pool's task: whole records, offsets in the decompressed bytes. */
function taskOf(run: GzipPlan, chunk: CutChunk): ChunkTask {
  return {
    mapModule: run.mapModule, path: run.path, framing: run.framing, options: run.options,
    nominalStart: chunk.start, nominalEnd: chunk.start + chunk.bytes.length, fileSize: Number.MAX_SAFE_INTEGER,
    speculative: false, maxRecordBytes: run.maxRecordBytes, bytes: new Uint8Array(chunk.bytes),
  };
}

type StreamFailure = ReturnType<typeof streamFailure>;
/** What reading and sending the chunks needs of a run. */
type GzipPlan = Omit<ChunkedRun<unknown, unknown>, 'fold' | 'state' | 'safePoint'>;

/**
 * The file's chunks sent to the pool, up to two per worker in flight, and their replies in order, each with
 * the compressed bytes read when it was cut. A failure of the stream ends them (after those in flight).
 */
async function* repliesInOrder<P>(
  run: GzipPlan, onStreamFailure: (failure: StreamFailure) => void,
): AsyncGenerator<{ readonly reply: ChunkReply<P>; readonly source: number }> {
  const read = { bytes: 0 };
  const window = Math.max(2, run.pool.workers * 2);
  const cut = cutRecords(
    decoded(run.path, run.from.offset, run.crLineEnds === true, read), run.from.offset, run.chunkSize,
    run.maxRecordBytes, run.framing,
  );
  const inFlight: { readonly reply: Promise<ChunkReply<P>>; readonly source: number }[] = [];
  let ended = false;
  try {
    for (;;) {
      while (!ended && inFlight.length < window) {
        let next: IteratorResult<CutChunk>;
        try {
          next = await cut.next();
        } catch (error) {
          onStreamFailure(streamFailure(error, run.path));
          next = { done: true, value: undefined };
        }
        if (next.done) ended = true;
        else inFlight.push({ reply: run.pool.run<P>(taskOf(run, next.value)), source: read.bytes });
      }
      const sent = inFlight.shift();
      if (!sent) return;
      yield { reply: await sent.reply, source: sent.source };
    }
  } finally {
    await cut.return(undefined);
  }
}

/**
 * Runs a gzip file through the pool and the author's fold, from a watermark
 * (an offset in the decompressed bytes) to the end or a stop. Chunks are
 * mapped in parallel and folded in order; a safe point's watermark also
 * carries `source`, the compressed bytes read, for progress.
 */
export async function runGunzipped<P, S>(run: ChunkedRun<P, S>): Promise<ChunkedOutcome<S>> {
  checkMapModule(run.mapModule);
  let pulled: Watermark = run.from;
  let watermark = run.from;
  let failure: { error: WireError; line: number } | undefined;
  let streamError: StreamFailure | undefined;
  async function* chunks(): AsyncGenerator<FoldChunk<P>> {
    for await (const { reply, source } of repliesInOrder<P>(run, (failed) => (streamError = failed))) {
      if (reply.kind !== 'mapped') {
        const error = reply.kind === 'failed' ? reply.error : { code: ErrorCode.InternalError, message: 'misaligned' };
        failure = { error, line: pulled.line + Number(error.context?.['line_offset'] ?? 0) };
        return;
      }
      const line = pulled.line;
      // Progress never goes back: a resume reads the compressed prefix again before its first chunk.
      pulled = { offset: reply.end, line: line + reply.newlines, source: Math.max(source, pulled.source ?? 0) };
      yield { partial: reply.partial, start: reply.start, end: reply.end, line, newlines: reply.newlines };
    }
    // Line 0: no line (damage is somewhere in the compressed bytes).
    if (streamError) failure = { error: streamError.error, line: streamError.atLine ? pulled.line : 0 };
  }
  const safePoint = (folded: S) => run.safePoint(folded, (watermark = pulled));
  const { stopped, state, urgent } = await driveFold(run.fold, chunks(), run.state, safePoint, run.urgent);
  if (stopped) return { kind: 'stopped', state, watermark, ...(urgent ? { urgent } : {}) };
  if (failure) return { kind: 'failed', state, watermark, ...failure };
  return { kind: 'done', state, watermark: pulled };
}
