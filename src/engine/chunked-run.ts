import type { WireError } from './worker/worker-protocol.js';
import type { ChunkPool } from './chunk-pool.js';
import type { Framing } from './worker/framing.js';
import { orderedChunks } from './ordered-chunks.js';
import { driveFold, type FoldOver } from './fold-loop.js';
import type { RemoteIdentity } from './worker/remote-identity.js';

export { DEFAULT_MAX_RECORD_BYTES } from './worker/framing.js';

/** Where the folded work ends: a record start, and its 1-based line number. */
export interface Watermark {
  readonly offset: number;
  readonly line: number;
  /** Bytes of the file read, when they are not `offset` (a compressed input): what progress counts. */
  readonly source?: number;
}

/** A mapped chunk as the author's fold receives it, in file order. */
export interface FoldChunk<P> {
  readonly partial: P;
  readonly start: number;
  readonly end: number;
  /** 1-based line number of the chunk's first byte. */
  readonly line: number;
  /** Newlines inside the chunk. */
  readonly newlines: number;
}

/**
 * The main-side half of a handler: a resumable fold. It receives chunks in
 * file order and yields its state after each; every yield is a safe point
 * where the framework reports progress, checkpoints, and may stop it.
 */
export type Fold<P, S> = FoldOver<FoldChunk<P>, S>;

/** What the framework does at a safe point; answers whether to stop there. */
export type SafePoint<S> = (state: S, watermark: Watermark) => Promise<boolean>;

export interface ChunkedRun<P, S> {
  readonly pool: ChunkPool;
  readonly path: string;
  readonly fileSize: number;
  /** The file's inode when the run began (see ChunkTask.fileIno). */
  readonly fileIno?: number;
  /** A remote input's version when the run began (see ChunkTask.remote). */
  readonly remote?: RemoteIdentity;
  readonly framing: Framing;
  /** URL of the worker-side module exporting `map`. */
  readonly mapModule: string;
  readonly options: unknown;
  /** Lines end in a lone CR (ChunkTask.crLineEnds). */
  readonly crLineEnds?: boolean;
  readonly chunkSize: number;
  /** A smaller first chunk (ChunkPlan.firstChunkSize). */
  readonly firstChunkSize?: number;
  readonly maxRecordBytes: number;
  /** Where to begin: the data start, or a restored checkpoint's watermark. */
  readonly from: Watermark;
  readonly state: S;
  readonly fold: Fold<P, S>;
  readonly safePoint: SafePoint<S>;
  /** Resolves once the stop is urgent: a fold waiting for a chunk then stops at its last safe point. */
  readonly urgent?: Promise<void>;
}

export type ChunkedOutcome<S> =
  | { readonly kind: 'done'; readonly state: S; readonly watermark: Watermark }
  | {
      readonly kind: 'stopped';
      readonly state: S;
      readonly watermark: Watermark;
      /** An urgent stop (fold-loop.ts): at the last safe point, which asked to go on (a throttled save skipped it). */
      readonly urgent?: boolean;
    }
  | {
      readonly kind: 'failed';
      readonly state: S;
      readonly watermark: Watermark;
      readonly error: WireError;
      readonly line: number;
    };

/** A worker resolves the map module from its own folder, so a relative path would name a file inside stint. */
export function checkMapModule(mapModule: string): void {
  if (/^[a-z][a-z0-9+.-]*:/i.test(mapModule)) return;
  throw new Error(`mapModule "${mapModule}" is not a URL: pass new URL('./your-map.js', import.meta.url).href`);
}

/** Runs one file through the pool and the author's fold, from a watermark to the end or a stop. */
export async function runChunked<P, S>(run: ChunkedRun<P, S>): Promise<ChunkedOutcome<S>> {
  checkMapModule(run.mapModule);
  let watermark = run.from;
  let pulled = run.from;
  let failure: { error: WireError; line: number } | undefined;
  const source = orderedChunks<P>(run.pool, {
    path: run.path,
    framing: run.framing,
    mapModule: run.mapModule,
    options: run.options,
    from: run.from.offset,
    fileSize: run.fileSize,
    ...(run.fileIno !== undefined ? { fileIno: run.fileIno } : {}),
    ...(run.remote ? { remote: run.remote } : {}),
    chunkSize: run.chunkSize,
    ...(run.firstChunkSize !== undefined ? { firstChunkSize: run.firstChunkSize } : {}),
    maxRecordBytes: run.maxRecordBytes,
    ...(run.crLineEnds ? { crLineEnds: true } : {}),
    window: Math.max(2, run.pool.workers * 2),
  });
  async function* chunks(): AsyncGenerator<FoldChunk<P>> {
    for await (const chunk of source) {
      if (chunk.kind === 'failed') {
        failure = { error: chunk.error, line: pulled.line + Number(chunk.error.context?.['line_offset'] ?? 0) };
        return;
      }
      const line = pulled.line;
      pulled = { offset: chunk.end, line: line + chunk.newlines };
      yield { partial: chunk.partial, start: chunk.start, end: chunk.end, line, newlines: chunk.newlines };
    }
  }

  const safePoint = (folded: S) => run.safePoint(folded, (watermark = pulled));
  const { stopped, state, urgent } = await driveFold(run.fold, chunks(), run.state, safePoint, run.urgent);
  // Urgent: the chunks wait on one in flight, so they cannot be closed; the pool's close lets them go.
  if (urgent) return { kind: 'stopped', state, watermark, urgent };
  if (stopped) {
    await source.return(undefined);
    return { kind: 'stopped', state, watermark };
  }
  if (failure) return { kind: 'failed', state, watermark, ...failure };
  return { kind: 'done', state, watermark: pulled };
}
