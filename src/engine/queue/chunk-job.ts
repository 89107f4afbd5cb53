import { createHash } from 'node:crypto';
import type { ChunkTask } from '../worker-protocol.js';

/** What the coordinator saw of a file: a worker refuses to read one of another size or mtime (INPUT_NOT_SHARED). */
export interface FileSeen {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
}

/** A chunk job's data: the task itself, and the file as the coordinator saw it (none for bytes sent along). */
export interface ChunkJobData {
  /** The ChunkTask, encoded (chunk-codec.ts). */
  readonly task: string;
  readonly seen?: FileSeen;
  /** For people reading the queue: the file and the planned cut. */
  readonly path: string;
  readonly nominalStart: number;
}

/** A job's return value: the ChunkReply, encoded, and the id of the worker process that ran it. */
export interface ChunkJobResult {
  readonly reply: string;
  readonly worker: string;
}

/**
 * A chunk's job id: the run's key, then everything the task says (which file, which cut, aligned or not),
 * hashed. The same chunk of the same run always gets the same id, so BullMQ adds it once however often a
 * coordinator (or its successor after a crash) enqueues it; another run, or another file, never shares it.
 * The run's key shows in the id so that a sweep tells a run's leftovers by their ids alone (leftover-sweep.ts).
 */
export function chunkJobId(runKey: string, task: ChunkTask, seen: FileSeen | undefined): string {
  const { bytes, ...plain } = task;
  const hash = createHash('sha256').update(runKey).update(JSON.stringify(plain)).update(JSON.stringify(seen ?? null));
  if (bytes) hash.update(bytes);
  return `${runKey}${RUN_SEPARATOR}c${hash.digest('hex').slice(0, 40)}`;
}

/** Between the run's key and the chunk's hash in a job id (BullMQ forbids `:` in ids). */
const RUN_SEPARATOR = '-';

/** The run a chunk job id belongs to, or undefined for an id of another shape. */
export function runOfJob(jobId: string): string | undefined {
  const at = jobId.lastIndexOf(RUN_SEPARATOR);
  return at > 0 ? jobId.slice(0, at) : undefined;
}
