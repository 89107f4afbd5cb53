import type { FlagSpec } from '../runtime/command-spec.js';

/** The engine's knobs, shared by the commands built on it. Neither changes a result, so neither is part of a job's identity. */
export const WORKERS_FLAG = { type: 'integer', min: 1, identity: false, description: 'Worker threads (default: one per core)' } as const satisfies FlagSpec;

export const DEFAULT_CHUNK_SIZE = 1024 * 1024;

export const chunkSizeFlag = (description: string, size = DEFAULT_CHUNK_SIZE) =>
  ({ type: 'bytes', min: 4096, default: size, identity: false, description }) as const satisfies FlagSpec;

/** An import commits one batch per chunk: bigger chunks mean fewer synced commits (measured: 4 MiB imports 1.5x faster than 1 MiB). */
export const IMPORT_CHUNK_SIZE = 4 * 1024 * 1024;
