import { createHash } from 'node:crypto';
import type { ChunkTask } from '../worker/worker-protocol.js';

/**
 * What the coordinator saw of a file: a worker refuses to read one of another size or mtime, or whose bytes in
 * the chunk's planned range have another digest (chunk-digest.ts).
 */
export interface FileSeen {
  readonly path: string;
  readonly size: number;
  readonly mtimeMs: number;
  /** sha256 of the bytes in [nominalStart, nominalEnd) as the coordinator read them. */
  readonly digest: string;
}

/**
 * A chunk job's data. The task names no module: `map` is a map the program registers (map-registry.ts) and
 * `build` the program's build identity, which a worker resolves in its own program or refuses.
 */
export interface ChunkJobData {
  /** The ChunkTask without its mapModule, encoded (chunk-codec.ts). */
  readonly task: string;
  readonly map: string;
  readonly build: string;
  readonly seen?: FileSeen;
  /** For people reading the queue: the file and the planned cut. */
  readonly path: string;
  readonly nominalStart: number;
  /** With a shared secret: the HMAC of the job's id and the fields above (job-signature.ts). */
  readonly sig?: string;
  /**
   * The worker's reply, put here as the job completes rather than returned: BullMQ copies a return value
   * into its event stream, which outlives the run. Gone with the job once the coordinator read it.
   */
  readonly reply?: string;
  readonly worker?: string;
  readonly replySig?: string;
}

/** A job's return value, copied into BullMQ's event stream: the worker's id alone, no data. */
export interface ChunkJobResult {
  readonly worker: string;
}

/** What a job's signature covers, in order. */
export const jobSigned = (id: string, data: ChunkJobData): string[] =>
  [id, data.map, data.build, data.task, JSON.stringify(data.seen ?? null)];

/** What a reply's signature covers: the job it answers, the reply and who made it. */
export const replySigned = (id: string, reply: string, worker: string): string[] => [id, reply, worker];

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
