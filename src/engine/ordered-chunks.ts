import { gridCell } from './chunk-grid.js';
import type { Framing } from './worker/framing.js';
import type { ChunkPool } from './chunk-pool.js';
import type { ChunkReply, ChunkTask, WireError } from './worker/worker-protocol.js';
import type { RemoteIdentity } from './worker/remote-identity.js';

/** A chunk whose start is proven to be a record start, in file order. */
export type VerifiedChunk<P> =
  | {
      readonly kind: 'mapped';
      /** The grid cell the chunk starts in (chunk-grid.ts). */
      readonly index: number;
      readonly start: number;
      readonly end: number;
      readonly newlines: number;
      readonly partial: P;
    }
  | {
      readonly kind: 'failed';
      readonly index: number;
      readonly start: number;
      readonly end: number;
      readonly error: WireError;
    };

export interface ChunkPlan {
  readonly path: string;
  readonly framing: Framing;
  readonly mapModule: string;
  readonly options: unknown;
  /** A known record start (the data start, or a checkpoint's watermark). */
  readonly from: number;
  readonly fileSize: number;
  readonly fileIno?: number;
  readonly remote?: RemoteIdentity;
  readonly chunkSize: number;
  /**
   * A smaller first piece (a writer's, whose answer does not depend on where its chunks end): the first commit
   * of a call with a small budget comes early. The pieces after it keep to the grid. Default: none.
   */
  readonly firstChunkSize?: number;
  readonly maxRecordBytes: number;
  /** Lines end in a lone CR (ChunkTask.crLineEnds). */
  readonly crLineEnds?: boolean;
  /** Chunks in flight at most: memory stays flat whatever the file size. */
  readonly window: number;
}

/**
 * Maps a file's chunks on the pool and yields them strictly in file order, one per grid cell (chunk-grid.ts)
 * from the cell `plan.from` lies in; a cell a long record covers whole yields nothing. Every chunk but the
 * first starts speculatively at the first line start at or after its grid point; the fold checks it against
 * the previous chunk's end and, when a quoted newline fooled it, maps it again from the true start.
 */
export async function* orderedChunks<P>(pool: ChunkPool, plan: ChunkPlan): AsyncGenerator<VerifiedChunk<P>> {
  const first = gridCell(plan.from, plan.chunkSize);
  const nominal = (index: number) => Math.min((first + index) * plan.chunkSize, plan.fileSize);
  const count = plan.from < plan.fileSize ? Math.ceil(plan.fileSize / plan.chunkSize) - first : 0;
  const task = (start: number, end: number, speculative: boolean): ChunkTask => ({
    mapModule: plan.mapModule,
    path: plan.path,
    framing: plan.framing,
    nominalStart: start,
    nominalEnd: end,
    fileSize: plan.fileSize,
    ...(plan.fileIno !== undefined ? { fileIno: plan.fileIno } : {}),
    ...(plan.remote ? { remote: plan.remote } : {}),
    speculative,
    maxRecordBytes: plan.maxRecordBytes,
    options: plan.options,
    ...(plan.crLineEnds ? { crLineEnds: true } : {}),
  });
  let expected = plan.from;
  const leadEnd = plan.firstChunkSize === undefined ? Infinity : plan.from + plan.firstChunkSize;
  if (count > 0 && leadEnd < nominal(1)) {
    const chunk = verified(await pool.run<P>(task(plan.from, leadEnd, false)), first);
    if (chunk.kind === 'failed') {
      yield chunk;
      return;
    }
    if (chunk.end > chunk.start) yield chunk;
    expected = chunk.end;
  }
  const inFlight = new Map<number, Promise<ChunkReply<P>>>();
  let next = 0;
  const cellTask = (index: number, start: number, speculative: boolean) => task(start, nominal(index + 1), speculative);
  const fill = () => {
    while (next < count && inFlight.size < plan.window) {
      const start = next === 0 ? expected : nominal(next);
      inFlight.set(next, pool.run<P>(cellTask(next, start, next > 0)));
      next++;
    }
  };

  for (let index = 0; index < count; index++) {
    fill();
    let reply = await inFlight.get(index)!;
    inFlight.delete(index);
    if (reply.kind === 'misaligned' || reply.start !== expected) {
      // The previous chunk's end may lie past this cell's end (a long record): the exact chunk is then empty.
      reply = await pool.run<P>(cellTask(index, expected, false));
    }
    fill();
    const chunk = verified(reply, first + index);
    if (chunk.kind === 'failed') {
      yield chunk;
      return;
    }
    if (chunk.end === chunk.start) continue;
    yield chunk;
    expected = chunk.end;
  }
}

/** An exact (non-speculative) reply as the fold's chunk of grid cell `index`. */
function verified<P>(reply: ChunkReply<P>, index: number): VerifiedChunk<P> {
  if (reply.kind === 'misaligned') throw new Error('an exact chunk cannot be misaligned');
  if (reply.kind === 'failed') return { kind: 'failed', index, start: reply.start, end: reply.end, error: reply.error };
  const { start, end, newlines, partial } = reply;
  return { kind: 'mapped', index, start, end, newlines, partial };
}
