import type { FlagSpec } from '../runtime/authoring/command-spec.js';

/**
 * The engine's knobs, shared by the commands built on it. Neither changes a result, so neither is part of a job's
 * identity.
 */
export const WORKERS_FLAG = {
  type: 'integer', min: 1, identity: false, description: 'Worker threads (default: one per core)',
} as const satisfies FlagSpec;

/**
 * The engine's chunk size for the library's own runs (processFiles without a chunkSize) and the benchmarks'.
 * Commands size their own: analyze from each file's first records (analyze-chunk-size.ts), the same with and
 * without --queue, since the chunk grid moves the estimates; import for its commits (IMPORT_CHUNK_SIZE).
 */
export const DEFAULT_CHUNK_SIZE = 1024 * 1024;
/**
 * The largest chunk and the longest record a command accepts: a worker holds
 * a window of up to twice their sum, and the analyze scanner twice that in
 * its 32-bit WebAssembly memory.
 */
export const MAX_CHUNK_SIZE = 256 * 1024 * 1024;
export const MAX_RECORD_SIZE = 128 * 1024 * 1024;

/** --chunk-size; its default, if any, is each command's. */
export const chunkSizeFlag = (description: string) =>
  ({ type: 'bytes', min: 4096, max: MAX_CHUNK_SIZE, identity: false, description }) as const satisfies FlagSpec;

/**
 * An import commits one batch per chunk, and each batch holds the checkpoint
 * keys (ckpt:, meta:, span:) beside its rows, so every LevelDB level-0 file
 * spans the whole key range and compactions merge them instead of moving
 * them. Bigger chunks mean fewer, bigger files and fewer synced commits, but
 * memory grows with them: two native batches, two memtables, three worker
 * slots, and the level-0 files a compaction reads (mapped, so counted in
 * RSS). Measured on 2 cores, 300 MB file, peak RSS / time: 8 MiB 320-336 MiB,
 * 6 MiB 269-284 MiB / 21-27 s, 4 MiB 203-209 MiB / 29 s (before the slots
 * and reused batches: 8 MiB, 556-559 MiB / 17-39 s on this noisy machine).
 */
export const IMPORT_CHUNK_SIZE = 4 * 1024 * 1024;
