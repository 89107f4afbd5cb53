import type { FlagSpec } from '../runtime/command-spec.js';

/** The engine's knobs, shared by the commands built on it. Neither changes a result, so neither is part of a job's identity. */
export const WORKERS_FLAG = { type: 'integer', min: 1, identity: false, description: 'Worker threads (default: one per core)' } as const satisfies FlagSpec;

export const DEFAULT_CHUNK_SIZE = 1024 * 1024;

export const chunkSizeFlag = (description: string) =>
  ({ type: 'bytes', min: 4096, default: DEFAULT_CHUNK_SIZE, identity: false, description }) as const satisfies FlagSpec;
