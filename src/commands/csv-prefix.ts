// The first bytes of a CSV input, read on the main thread before its chunks: for its header, and for a sample
// of its first records. A gzip input's are its decompressed bytes, so both see what the chunks will see.
import { openByteSource, type ByteSource } from '../engine/worker/byte-source.js';
import { constants, gunzipSync } from 'node:zlib';
import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';

const CR = 0x0d;
const LF = 0x0a;

/** The first bytes of an input, decompressed when it is gzip: at least `wanted` of them unless it ends first. */
export type Prefix = (wanted: number) => { readonly bytes: Buffer; readonly eof: boolean };

function plainPrefix(source: ByteSource, size: number): Prefix {
  return (wanted) => {
    const buffer = Buffer.allocUnsafe(Math.min(size, wanted));
    let filled = 0;
    while (filled < buffer.length) {
      const n = source.read(buffer, filled, buffer.length - filled, filled);
      if (n === 0) break;
      filled += n;
    }
    return { bytes: buffer.subarray(0, filled), eof: filled >= size };
  };
}

/** A gzip file's first bytes: a growing compressed prefix inflated without its end (a sync flush). */
function gzipPrefix(source: ByteSource, size: number, label: string): Prefix {
  return (wanted) => {
    for (let read = Math.min(size, Math.max(4096, wanted >> 2)); ; read = Math.min(size, read * 2)) {
      const compressed = plainPrefix(source, size)(read).bytes;
      let bytes: Buffer;
      try {
        bytes = gunzipSync(compressed, { finishFlush: constants.Z_SYNC_FLUSH });
      } catch (error) {
        const message = `${label} cannot be decompressed: ${(error as Error).message}`
          + ' (a gzip file cut short or corrupt)';
        throw new StintError(ErrorCode.InputDamaged, message, { context: { path: label } });
      }
      if (bytes.length >= wanted || read >= size) return { bytes, eof: read >= size && bytes.length < wanted };
    }
  };
}

/** Runs `read` on the input's prefix reader while the file is open. */
export function withPrefix<T>(path: string, size: number, label: string, gzip: boolean, read: (p: Prefix) => T): T {
  const source = openByteSource(path);
  try {
    return read(gzip ? gzipPrefix(source, size, label) : plainPrefix(source, size));
  } finally {
    source.close();
  }
}

/** The first bytes, with lone CRs read as LFs when the file ends its lines so (as its chunks are read). */
export function sampleOf(prefix: Prefix, wanted: number, crLineEnds: boolean): { bytes: Buffer; eof: boolean } {
  const sample = prefix(wanted);
  if (!crLineEnds) return sample;
  const bytes = Buffer.from(sample.bytes);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === CR) bytes[i] = LF;
  return { bytes, eof: sample.eof };
}
