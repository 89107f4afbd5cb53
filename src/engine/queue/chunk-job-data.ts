import { statSync } from 'node:fs';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { buildIdentity, mapNameOf } from '../map-registry.js';
import type { ChunkTask } from '../worker/worker-protocol.js';
import { rangeDigest } from './chunk-digest.js';
import { encodeClone } from './chunk-codec.js';
import { chunkJobId, jobSigned, type ChunkJobData, type FileSeen } from './chunk-job.js';
import { queueSecret, signed } from './job-signature.js';

/** A file's size and mtime as the coordinator saw it first, by path. */
export type SeenFiles = Map<string, Omit<FileSeen, 'digest'>>;

/** The chunk's job: its id and data, signed when a secret is set. The map must be one the program registers. */
export function chunkJob(runKey: string, task: ChunkTask, files: SeenFiles): { id: string; data: ChunkJobData } {
  const map = mapNameOf(task.mapModule);
  if (map === undefined) {
    throw new StintError(ErrorCode.RegistrationRefused, `the map module ${task.mapModule} is not registered:`
      + ' a queue worker runs only the maps its program\'s commands list in defineCommand\'s `maps`', {
      suggestion: 'Add the module to the command\'s `maps` (name: module URL), then run it again',
    });
  }
  // A remote input needs no check of the coordinator's own: every range a worker reads names the version the run
  // began with (If-Match), so a worker can read no other.
  const seen = task.bytes || task.remote ? undefined : seenOf(files, task);
  const id = chunkJobId(runKey, task, seen);
  const { mapModule: _url, ...portable } = task;
  const data: ChunkJobData = {
    task: encodeClone(portable), map, build: buildIdentity(), path: task.path, nominalStart: task.nominalStart,
    ...(seen ? { seen } : {}),
  };
  const secret = queueSecret();
  return { id, data: secret ? { ...data, sig: signed(secret, jobSigned(id, data)) } : data };
}

/** The file as the coordinator sees it (size and mtime once per path), with the digest of the chunk's range. */
function seenOf(files: SeenFiles, task: ChunkTask): FileSeen {
  let file = files.get(task.path);
  if (!file) {
    const stat = statSync(task.path);
    file = { path: task.path, size: stat.size, mtimeMs: stat.mtimeMs };
    files.set(task.path, file);
  }
  return { ...file, digest: rangeDigest(task.path, task.nominalStart, Math.min(task.nominalEnd, task.fileSize)) };
}
