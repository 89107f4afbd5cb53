import type { FlagSpec } from '../runtime/command-spec.js';

/** The engine's knobs, shared by the commands built on it. Neither changes a result, so neither is part of a job's identity. */
export const WORKERS_FLAG = { type: 'integer', min: 1, identity: false, description: 'Worker threads (default: one per core)' } as const satisfies FlagSpec;

export const DEFAULT_CHUNK_SIZE = 1024 * 1024;
/**
 * The largest chunk and the longest record a command accepts: a worker holds
 * a window of up to twice their sum, and the analyze scanner twice that in
 * its 32-bit WebAssembly memory.
 */
export const MAX_CHUNK_SIZE = 256 * 1024 * 1024;
export const MAX_RECORD_SIZE = 128 * 1024 * 1024;

export const chunkSizeFlag = (description: string, size = DEFAULT_CHUNK_SIZE) =>
  ({ type: 'bytes', min: 4096, max: MAX_CHUNK_SIZE, default: size, identity: false, description }) as const satisfies FlagSpec;

/**
 * An import commits one batch per chunk, and each batch holds the checkpoint
 * keys (ckpt:, meta:) beside its rows, so every LevelDB level-0 file spans
 * the whole key range and compactions merge them all instead of moving them:
 * bigger batches mean fewer, bigger files and far less compaction (measured
 * on 2 cores, 100 MiB: LevelDB's compaction thread used ~4 s of CPU at 2 MiB,
 * ~2.2 s at 4 MiB, ~1.1-1.5 s at 8 MiB and 16 MiB; the main thread waited
 * ~1.1 s for writes at 4 MiB, 0.13 s at 8 MiB). 8 MiB costs ~60 MiB more peak
 * RSS than 4 MiB; 16 MiB gains nothing more and costs ~120 MiB more again.
 */
export const IMPORT_CHUNK_SIZE = 8 * 1024 * 1024;
