// A remote gzip input's compressed bytes as a stream, for the main thread's
// decompression (gzip-run.ts): read range after range, in order, each with
// the retries of any range, and all of the version the run began with.
import { Readable } from 'node:stream';
import { StintError } from '../contract/stint-error.js';
import { remoteIdentity } from './worker/byte-source.js';
import { readObjectRange } from './worker/remote-object.js';

/** Bytes asked for at a time: large enough that a request's own cost is small beside its transfer. */
const RANGE_BYTES = 4 * 1024 * 1024;

async function* ranges(url: string): AsyncGenerator<Buffer> {
  const identity = remoteIdentity(url);
  for (let at = 0; at < identity.size; at += RANGE_BYTES) {
    const answer = await readObjectRange(url, identity, at, Math.min(identity.size, at + RANGE_BYTES));
    if (!answer.ok) {
      throw new StintError(answer.error.code, answer.error.message, { context: answer.error.context ?? {} });
    }
    yield Buffer.from(answer.value.buffer, answer.value.byteOffset, answer.value.length);
  }
}

export function remoteStream(url: string): Readable {
  return Readable.from(ranges(url), { objectMode: false });
}
