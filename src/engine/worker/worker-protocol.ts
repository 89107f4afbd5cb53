// The messages between the main thread and the pool's workers, in one place.
// Worker-side code imports only this, the framing and the contract.
import type { Framing } from './framing.js';
import type { MessagePort } from 'node:worker_threads';
import type { RemoteIdentity } from './remote-identity.js';

/** One chunk to map. `nominalStart`/`nominalEnd` are the planned cut points; the worker aligns them to records. */
export interface ChunkTask {
  /** URL of the module whose `map` export turns a chunk's bytes into a partial. */
  readonly mapModule: string;
  readonly path: string;
  readonly framing: Framing;
  readonly nominalStart: number;
  readonly nominalEnd: number;
  readonly fileSize: number;
  /** The file's inode when the run began: a file replaced under the same name is not read as the same input. */
  readonly fileIno?: number;
  /** An http:// or https:// input's version when the run began: only its bytes are read. */
  readonly remote?: RemoteIdentity;
  /** With `remote`: this task's connection to the process's fetch thread (the pool adds it; remote-reads.ts). */
  readonly remotePort?: MessagePort;
  /** True when nominalStart is not known to be a record start: the worker starts at the next line start. */
  readonly speculative: boolean;
  /** A record may run past nominalEnd by at most this many bytes. */
  readonly maxRecordBytes: number;
  /** Whatever the handler's map needs besides the bytes (header width, options). */
  readonly options: unknown;
  /** Lines end in a lone CR: the reader hands every CR over as a LF (same length, so offsets hold). */
  readonly crLineEnds?: boolean;
  /**
   * The chunk's bytes themselves, whole records, when the input is not read by offset (a decompressed
   * stream): nominalStart is their offset in the decoded input, and nothing is read from `path`.
   */
  readonly bytes?: Uint8Array;
}

/** A coded failure, as data: structured clone drops custom error classes. */
export interface WireError {
  readonly code: string;
  readonly message: string;
  readonly context?: Record<string, unknown>;
  /** The thread died or could not run the task (the pool's side says so): a retry runs on a fresh thread. */
  readonly threadDied?: boolean;
}

/** The reply for one chunk: the exact record-aligned range and what the map made of it. */
export type ChunkReply<P> =
  | {
      readonly kind: 'mapped';
      readonly start: number;
      readonly end: number;
      readonly newlines: number;
      readonly partial: P;
    }
  | { readonly kind: 'failed'; readonly start: number; readonly end: number; readonly error: WireError }
  /** A speculative start fell inside a record that runs on too long: redo from the exact start. */
  | { readonly kind: 'misaligned'; readonly start: number };

/** What a handler's map sees besides the bytes. */
export interface ChunkInfo {
  /** File offset of bytes[0]. */
  readonly start: number;
  readonly end: number;
  readonly options: unknown;
}

/** The signature of a handler's worker-side map export. */
export type ChunkMap<P> = (bytes: Uint8Array, info: ChunkInfo) => P;

/**
 * What a self-framing map sees besides the bytes: where its chunk's cut point lies, and whether the bytes reach
 * the end of the file.
 */
export interface WindowInfo extends ChunkInfo {
  /** Records that start before this offset (in the bytes) are this chunk's; the last may run past it. */
  readonly limit: number;
  readonly atEof: boolean;
}

/** How far a self-framing map's records went, or undefined when its last record runs past the bytes it was given. */
export type WindowResult<P> = { readonly partial: P; readonly consumed: number; readonly newlines: number } | undefined;

/**
 * A map that finds its own chunk end while it parses, sparing the worker a
 * separate framing pass over every byte. Exported as `mapWindow`.
 */
export type WindowMap<P> = (bytes: Uint8Array, info: WindowInfo) => WindowResult<P>;
