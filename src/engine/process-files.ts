import { ErrorCode } from '../contract/error-code.js';
import type { Progress } from '../contract/incomplete.js';
import { StintError } from '../contract/stint-error.js';
import { ProgressUnit } from '../contract/vocabulary/progress-unit.js';
import type { EngineContext } from './engine-context.js';
import type { ChunkPool, WorkerPool } from './chunk-pool.js';
import { choosePool } from './pool-choice.js';
import { DEFAULT_MAX_RECORD_BYTES, runChunked, type Fold, type Watermark } from './chunked-run.js';
import type { Framing } from './worker/framing.js';
import { fingerprintOf, inputOf, versionOf, type InputFile } from './input-file.js';
import { workerFailedError } from './worker-failed.js';
import { chunkBound } from './chunk-bound.js';
import { runGunzipped } from './gzip-run.js';
import type { WireError } from './worker/worker-protocol.js';
import { checkEngineKnobs } from './work-options.js';
import { checkWhole } from '../contract/option-check.js';

/** A named input that could be opened: its path as given, absolute path, size, mtime and inode. */
export type ReadableFile = InputFile & { readonly kind: 'file' };

/** Where one file's fold begins. */
export interface FileStart<S> {
  /** The state before the file's first chunk. */
  readonly state: S;
  /** Where its records start (after a header, say); default the first byte, line 1. */
  readonly from?: Watermark;
  /** Passed to this file's map calls as `info.options`; default the work's `options`. */
  readonly options?: unknown;
  /** The file's lines end in a lone CR: chunks read each CR as a LF (ChunkTask.crLineEnds). */
  readonly crLineEnds?: boolean;
  /** The file is gzip: it is decompressed as a stream, and offsets count decompressed bytes (gzip-run.ts). */
  readonly gzip?: boolean;
  /**
   * This file's chunk size, default the work's. It fixes where chunks end, so it is kept with the file's fold:
   * a resumed file goes on on its first run's grid whatever the continuing call asks.
   */
  readonly chunkSize?: number;
}

/** How one file ended. */
export type FileEnd<S> =
  | { readonly kind: 'done'; readonly file: ReadableFile; readonly state: S; readonly watermark: Watermark }
  /** A chunk failed (the map threw a coded error, a record ran on, the file changed); none after it is folded. */
  | {
      readonly kind: 'failed';
      readonly file: ReadableFile;
      readonly state: S;
      /** Where the records folded before the failing chunk end. */
      readonly watermark: Watermark;
      readonly error: WireError;
      readonly line: number;
    }
  /** The file could not be read (missing, a directory, unreadable) or `begin` threw a StintError. */
  | { readonly kind: 'refused'; readonly file: InputFile; readonly error: StintError };

/** Several files through the pool, one after another, with one checkpoint for the whole. */
export interface FilesWork<P, S, R> {
  /** The inputs, relative to the caller's working directory. */
  readonly paths: readonly string[];
  readonly framing: Framing;
  /** URL of the worker-side module whose `map` (or `mapWindow`) export turns a chunk into a partial. */
  readonly mapModule: string;
  /** Passed to every map call as `info.options`, unless `begin` gives a file its own. */
  readonly options?: unknown;
  /** Runs once per file, before its first chunk (a header is read here); a StintError refuses that file alone. */
  begin(file: ReadableFile): FileStart<S> | Promise<FileStart<S>>;
  /** Folds one file's partials in file order; every yield is a safe point. */
  readonly fold: Fold<P, S>;
  /** A file's result, once it ended; results are kept in the checkpoint, so they must be plain data. */
  end(ended: FileEnd<S>): R;
  readonly workers?: number;
  /**
   * Caps each worker thread's young generation (MiB, V8's `maxYoungGenerationSizeMb`): a map whose partials
   * are large keeps a lower peak memory on long inputs, for a few more minor collections. Default: V8's.
   */
  readonly workerYoungGenerationMb?: number;
  /** Worker threads opened ahead (openWorkerPool): used, not opened, and left open. */
  readonly pool?: Promise<WorkerPool>;
  readonly chunkSize?: number;
  readonly maxRecordBytes?: number;
}

/** Where the files stand: all ended, or stopped at a safe point with the file in progress and those not started. */
export type FilesOutcome<S, R> =
  | { readonly kind: 'done'; readonly results: readonly R[] }
  | {
      readonly kind: 'stopped';
      readonly results: readonly R[];
      /** Paths not ended, the one in progress first. */
      readonly remaining: readonly string[];
      /** The fold of the file in progress, when the stop came inside one. */
      readonly current?: { readonly state: S; readonly watermark: Watermark };
    };

/** The checkpoint: results of the files ended, and the fold of the file in progress. */
interface FilesCheckpoint<S, R> {
  readonly index: number;
  readonly results: readonly R[];
  readonly current?: {
    readonly state: S;
    readonly watermark: Watermark;
    readonly options: unknown;
    readonly crLineEnds?: boolean;
    readonly gzip?: boolean;
    readonly chunkSize?: number;
  };
}

type Current<S> = NonNullable<FilesCheckpoint<S, unknown>['current']>;
type FileStep<S> = FileEnd<S> | { readonly kind: 'stopped'; readonly state: S; readonly watermark: Watermark };

const FILE_START: Watermark = { offset: 0, line: 1 };
const DEFAULT_CHUNK_SIZE = 1024 * 1024;

/**
 * Files through the pool with everything an interruptible command needs
 * around its fold: each input checked, the checkpoint restored (or discarded
 * when any input changed), progress in bytes over all files, a checkpoint at
 * every safe point and after every file, and a stop honoured there.
 */
export async function processFiles<P, S, R>(
  ctx: EngineContext,
  work: FilesWork<P, S, R>,
): Promise<FilesOutcome<S, R>> {
  checkEngineKnobs('processFiles', work);
  const inputs = work.paths.map((path) => inputOf(path, ctx));
  return foldFiles(ctx, inputs, fingerprintOf(inputs), work);
}

/**
 * The files' run, from inputs already inspected and the fingerprint their checkpoint is checked against;
 * `progressOf` (one file's work) measures a safe point's progress in its own unit instead of bytes.
 */
export async function foldFiles<P, S, R>(
  ctx: EngineContext,
  inputs: readonly InputFile[],
  fingerprint: unknown,
  work: Omit<FilesWork<P, S, R>, 'paths'>,
  progressOf?: (state: S, watermark: Watermark) => Progress,
): Promise<FilesOutcome<S, R>> {
  const restored = await ctx.restore<FilesCheckpoint<S, R>>(fingerprint);
  let saved: FilesCheckpoint<S, R> = restored?.state ?? { index: 0, results: [] };
  const progress = progressOver(inputs);
  // A fresh run says its total before its first safe point: an answer given before any chunk ends still does.
  if (!restored && !progressOf) {
    const start = progress(0, 0);
    ctx.progress(start.done, start.total, start.unit);
  }
  const paths = (from: number) => inputs.slice(from).map((input) => input.path);
  let opened: { readonly pool: ChunkPool; readonly owned: boolean } | undefined;
  const poolOf = async () => {
    const bound = chunkBound(inputs.slice(saved.index), work.chunkSize ?? DEFAULT_CHUNK_SIZE);
    opened ??= await choosePool({ ...work, ...bound }, ctx);
    return opened.pool;
  };
  try {
    for (let index = saved.index; index < inputs.length; index++) {
      const input = inputs[index]!;
      const at = (current: Current<S>) =>
        progressOf?.(current.state, current.watermark)
          ?? progress(index, current.watermark.source ?? current.watermark.offset);
      const checkpoint = (current: Current<S>) =>
        ctx.checkpoint<FilesCheckpoint<S, R>>({ ...saved, index, current }, at(current));
      const step = input.kind === 'bad'
        ? refused(input, input.error)
        : await foldFile(input, saved.current, work, poolOf, { checkpoint, urgent: ctx.stopUrgent });
      if (step.kind === 'stopped') {
        const current = { state: step.state, watermark: step.watermark };
        return { kind: 'stopped', results: saved.results, remaining: paths(index), current };
      }
      saved = { index: index + 1, results: [...saved.results, work.end(step)] };
      // After the last file the work is done: nothing is left to stop before.
      const last = index + 1 === inputs.length;
      if (!last && (await ctx.checkpoint(saved, progress(index + 1, 0), true))) {
        return { kind: 'stopped', results: saved.results, remaining: paths(index + 1) };
      }
    }
  } finally {
    if (opened?.owned) await opened.pool.close();
  }
  return { kind: 'done', results: saved.results };
}

/** How a file's safe points save, and when a stop no longer waits for chunks in flight (ctx.stopUrgent). */
interface FileStops<S> {
  readonly checkpoint: (current: Current<S>) => Promise<boolean>;
  readonly urgent: Promise<void> | undefined;
}

/** One file from its start (or a restored fold) to its end or a stop. */
async function foldFile<P, S>(
  input: ReadableFile,
  restored: Current<S> | undefined,
  work: Omit<FilesWork<P, S, unknown>, 'paths'>,
  poolOf: () => Promise<ChunkPool>,
  stops: FileStops<S>,
): Promise<FileStep<S>> {
  let start = restored;
  if (!start) {
    let begun: FileStart<S>;
    try {
      begun = await work.begin(input);
    } catch (error) {
      if (error instanceof StintError) return refused(input, error);
      throw error;
    }
    checkWhole('processFiles', 'the chunkSize begin gave', begun.chunkSize, 1);
    start = {
      state: begun.state,
      watermark: begun.from ?? FILE_START,
      options: begun.options ?? work.options,
      ...(begun.crLineEnds ? { crLineEnds: true } : {}),
      ...(begun.gzip ? { gzip: true } : {}),
      ...(begun.chunkSize ? { chunkSize: begun.chunkSize } : {}),
    };
  }
  const { options, crLineEnds, gzip } = start;
  // Saved at every safe point: the file's grid stays its first run's (a checkpoint without it was the work's).
  const chunkSize = start.chunkSize ?? work.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const safePoint = (state: S, watermark: Watermark) => stops.checkpoint({
    state, watermark, options, ...(crLineEnds ? { crLineEnds } : {}), ...(gzip ? { gzip } : {}), chunkSize,
  });
  const outcome = await (gzip ? runGunzipped : runChunked)({
    pool: await poolOf(),
    path: input.absolute,
    fileSize: input.size,
    ...versionOf(input),
    framing: work.framing,
    mapModule: work.mapModule,
    options,
    ...(crLineEnds ? { crLineEnds } : {}),
    chunkSize,
    maxRecordBytes: work.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES,
    from: start.watermark,
    state: start.state,
    fold: work.fold,
    safePoint,
    ...(stops.urgent ? { urgent: stops.urgent } : {}),
  });
  if (outcome.kind === 'stopped') {
    // Its last safe point may have saved nothing (saves are throttled): with the stop pending, this one does.
    if (outcome.urgent) await safePoint(outcome.state, outcome.watermark);
    return outcome;
  }
  if (outcome.kind === 'done') return { kind: 'done', file: input, state: outcome.state, watermark: outcome.watermark };
  // A dead thread is not the file's fault: the call fails, and the checkpoint stays for the identical call.
  if (outcome.error.code === ErrorCode.WorkerFailed) throw workerFailedError(outcome.error);
  const { state, watermark, error, line } = outcome;
  return { kind: 'failed', file: input, state, watermark, error, line };
}

const refused = (file: InputFile, error: StintError): FileEnd<never> => ({ kind: 'refused', file, error });

/** Progress in bytes over all inputs: the files before `index` whole, then `offset` into it. */
function progressOver(inputs: readonly InputFile[]): (index: number, offset: number) => Progress {
  const sizes = inputs.map((input) => (input.kind === 'file' ? input.size : 0));
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const before = (index: number) => sizes.slice(0, index).reduce((sum, size) => sum + size, 0);
  return (index, offset) => ({ done: before(index) + offset, total, unit: ProgressUnit.Bytes });
}
