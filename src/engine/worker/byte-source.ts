// Where an input's bytes are read from, by offset: a local file, or an
// http://, https:// or s3:// object read by range (remote-reads.ts).
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ErrorCode } from '../../contract/error-code.js';
import type { RemoteIdentity } from './remote-identity.js';
import { isRemotePath } from './remote-url.js';
import { probeRemote, readRemote } from './remote-reads.js';

export interface ByteSource {
  /** Up to `length` bytes at `position` into `buffer` at `offset`; answers how many (0: the end). */
  read(buffer: Uint8Array, offset: number, length: number, position: number): number;
  /** The local file's inode (undefined for a remote object). */
  readonly ino: number | undefined;
  /** Its size when opened. */
  readonly size: number;
  /** Reads are cheapest into shared memory (a remote object's: the fetch thread writes the bytes there). */
  readonly intoShared: boolean;
  close(): void;
}

/**
 * The codes a failed read keeps as its own (any other failure of a read is FILE_UNREADABLE): an input that
 * changed under the run, and what a remote input's server answered.
 */
export const READ_FAILURES: ReadonlySet<string> = new Set([
  ErrorCode.InputTruncated, ErrorCode.InputReplaced, ErrorCode.InputChanged, ErrorCode.FileNotFound,
  ErrorCode.AuthRequired, ErrorCode.PermissionDenied, ErrorCode.RemoteThrottled, ErrorCode.RemoteUnavailable,
  ErrorCode.RangesUnsupported,
]);

/** The version of each remote object this thread inspected last, so that its reads after that read that one. */
const versions = new Map<string, RemoteIdentity>();

/** What the remote object is now (a run's inspection of its input): its later reads here hold to that version. */
export function inspectRemoteVersion(url: string): RemoteIdentity {
  const identity = probeRemote(url);
  versions.set(url, identity);
  return identity;
}

/** The version this thread inspected last, else what the object is now. */
export const remoteIdentity = (url: string): RemoteIdentity => versions.get(url) ?? inspectRemoteVersion(url);

function fileSource(path: string): ByteSource {
  const fd = openSync(path, 'r');
  const { ino, size } = fstatSync(fd);
  return {
    read: (buffer, offset, length, position) => readSync(fd, buffer, offset, length, position),
    ino,
    size,
    intoShared: false,
    close: () => closeSync(fd),
  };
}

/** A remote object's version `identity` (default: the one this thread saw first). */
function remoteSource(url: string, identity: RemoteIdentity, readsOn: boolean): ByteSource {
  return {
    read: (buffer, offset, length, position) =>
      readRemote(url, identity, buffer, offset, { from: position, to: position + length, readsOn }),
    ino: undefined,
    size: identity.size,
    intoShared: true,
    close: () => undefined,
  };
}

/**
 * The input at `path`. `readsOn`: its reader goes on to read where its last read ended (a chunk's reader,
 * whose next chunk a remote object's fetch thread then reads ahead).
 */
export function openByteSource(path: string, identity?: RemoteIdentity, readsOn = false): ByteSource {
  return isRemotePath(path) ? remoteSource(path, identity ?? remoteIdentity(path), readsOn) : fileSource(path);
}
