import type { Framing } from './framing.js';
import type { ChunkPool } from './chunk-pool.js';
import type { ChunkReply, ChunkTask, WireError } from './worker-protocol.js';

/** A chunk whose start is proven to be a record start, in file order. */
export type VerifiedChunk<P> =
  | {
      readonly kind: 'mapped';
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
  readonly chunkSize: number;
  /**
   * A smaller first chunk (a writer's, whose answer does not depend on where its chunks end): the first commit
   * of a call with a small budget comes early. Default: `chunkSize`.
   */
  readonly firstChunkSize?: number;
  readonly maxRecordBytes: number;
  /** Lines end in a lone CR (ChunkTask.crLineEnds). */
  readonly crLineEnds?: boolean;
  /** Chunks in flight at most: memory stays flat whatever the file size. */
  readonly window: number;
}

/**
 * Maps a file's chunks on the pool and yields them strictly in file order.
 * Every chunk but the first starts speculatively at the first line start
 * after its cut point; the fold checks it against the previous chunk's end
 * and, when a quoted newline fooled it, maps it again from the true start.
 */
export async function* orderedChunks<P>(pool: ChunkPool, plan: ChunkPlan): AsyncGenerator<VerifiedChunk<P>> {
  const first = Math.min(plan.firstChunkSize ?? plan.chunkSize, plan.chunkSize);
  const nominal = (index: number) =>
    index === 0 ? plan.from : Math.min(plan.from + first + (index - 1) * plan.chunkSize, plan.fileSize);
  const left = plan.fileSize - plan.from;
  const count = left <= 0 ? 0 : 1 + Math.max(0, Math.ceil((left - first) / plan.chunkSize));
  const task = (index: number, start: number, speculative: boolean): ChunkTask => ({
    mapModule: plan.mapModule,
    path: plan.path,
    framing: plan.framing,
    nominalStart: start,
    nominalEnd: nominal(index + 1),
    fileSize: plan.fileSize,
    ...(plan.fileIno !== undefined ? { fileIno: plan.fileIno } : {}),
    speculative,
    maxRecordBytes: plan.maxRecordBytes,
    options: plan.options,
    ...(plan.crLineEnds ? { crLineEnds: true } : {}),
  });
  const inFlight = new Map<number, Promise<ChunkReply<P>>>();
  let next = 0;
  const fill = () => {
    while (next < count && inFlight.size < plan.window) {
      inFlight.set(next, pool.run<P>(task(next, nominal(next), next > 0)));
      next++;
    }
  };

  let expected = plan.from;
  for (let index = 0; index < count; index++) {
    fill();
    let reply = await inFlight.get(index)!;
    inFlight.delete(index);
    if (reply.kind === 'misaligned' || reply.start !== expected) {
      reply = await pool.run<P>(task(index, expected, false));
    }
    fill();
    if (reply.kind === 'misaligned') throw new Error('an exact chunk cannot be misaligned');
    if (reply.kind === 'failed') {
      yield { kind: 'failed', index, start: reply.start, end: reply.end, error: reply.error };
      return;
    }
    const { start, end, newlines, partial } = reply;
    yield { kind: 'mapped', index, start, end, newlines, partial };
    expected = reply.end;
  }
}
