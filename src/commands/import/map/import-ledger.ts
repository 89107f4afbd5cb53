import { createHash } from 'node:crypto';
import { openByteSource, type ByteSource } from '../../../engine/worker/byte-source.js';

/**
 * What an import read, span by span: the byte range of each committed chunk
 * and a digest of its bytes, stored beside the rows. It lets a later call
 * recognise the same bytes by content (a copy, a new timestamp, a grown
 * file), where size and mtime alone would call them new.
 */
export interface LedgerSpan {
  readonly start: number;
  readonly end: number;
  readonly digest: Uint8Array;
}

/** How the file on disk compares with the spans recorded. */
export type LedgerMatch =
  | { readonly kind: 'same'; readonly end: number }
  /** The recorded bytes are all there, but the last record runs on past them: the last row imported changed. */
  | { readonly kind: 'extended'; readonly end: number }
  | { readonly kind: 'differs' };

const DIGEST_BYTES = 16;
const READ_BYTES = 1 << 20;
const LF = 0x0a;
const CR = 0x0d;

/** The digest a span records: the first 16 bytes of SHA-256 (collisions are not a practical concern here). */
export function spanDigest(bytes: Uint8Array): Uint8Array {
  return createHash('sha256').update(bytes).digest().subarray(0, DIGEST_BYTES);
}

/** The digest of a byte range of an input, read a buffer at a time. */
export function rangeDigest(source: ByteSource, start: number, end: number, buffer = Buffer.allocUnsafe(READ_BYTES)) {
  const hash = createHash('sha256');
  for (let at = start; at < end; ) {
    const read = source.read(buffer, 0, Math.min(buffer.length, end - at), at);
    if (read === 0) break;
    hash.update(buffer.subarray(0, read));
    at += read;
  }
  return hash.digest().subarray(0, DIGEST_BYTES);
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, k) => byte === b[k]);

/** The byte at `offset`, or undefined past the end. */
function byteAt(source: ByteSource, offset: number): number | undefined {
  const one = Buffer.alloc(1);
  return source.read(one, 0, 1, offset) === 1 ? one[0] : undefined;
}

/**
 * Checks the file against the spans (in offset order, contiguous from 0).
 * `same` when every span's bytes are unchanged and the last one ended a
 * record; the file may have grown past them.
 */
export async function matchLedger(path: string, size: number, spans: AsyncIterable<LedgerSpan>): Promise<LedgerMatch> {
  const source = openByteSource(path);
  const buffer = Buffer.allocUnsafe(READ_BYTES);
  try {
    let end = 0;
    for await (const span of spans) {
      if (span.start !== end || span.end > size) return { kind: 'differs' };
      if (!sameBytes(rangeDigest(source, span.start, span.end, buffer), span.digest)) return { kind: 'differs' };
      end = span.end;
    }
    if (end === 0) return { kind: 'differs' };
    // Bytes after the recorded end are new records only if the last recorded one had ended.
    const last = byteAt(source, end - 1);
    const next = byteAt(source, end);
    const ended = last === LF || next === undefined || next === LF || next === CR;
    return { kind: ended ? 'same' : 'extended', end };
  } finally {
    source.close();
  }
}
