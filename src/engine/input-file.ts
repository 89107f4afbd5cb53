import { statSync, accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';
import { inspectRemoteVersion } from './worker/byte-source.js';
import type { RemoteIdentity } from './worker/remote-identity.js';
import { isRemotePath, shownUrl } from './worker/remote-url.js';

/** A named input, checked before anything opens it (a FIFO must never be opened: that blocks). */
export type InputFile =
  | {
      readonly kind: 'file';
      readonly path: string;
      readonly absolute: string;
      readonly size: number;
      readonly mtimeMs: number;
      readonly ino: number;
      /** An http:// or https:// input's version (`absolute` is its URL; `ino` 0, `mtimeMs` its Last-Modified). */
      readonly remote?: RemoteIdentity;
    }
  | { readonly kind: 'bad'; readonly path: string; readonly error: StintError };

/** The name that stands for the caller's stdin among a command's inputs. */
export const STDIN_PATH = '-';

/** An input refused before it is opened, with its code. */
const bad = (path: string, code: ErrorCode, message: string): InputFile =>
  ({ kind: 'bad', path, error: new StintError(code, message, { context: { path } }) });

/** An http:// or https:// input: what its server says it is, or the coded failure of asking. */
function inspectRemote(url: string): InputFile {
  try {
    const remote = inspectRemoteVersion(url);
    const mtimeMs = remote.lastModified ? Date.parse(remote.lastModified) || 0 : 0;
    return { kind: 'file', path: shownUrl(url), absolute: url, size: remote.size, mtimeMs, ino: 0, remote };
  } catch (error) {
    return { kind: 'bad', path: shownUrl(url), error: error as StintError };
  }
}

export function inspectInput(path: string, cwd: string): InputFile {
  if (isRemotePath(path)) return inspectRemote(path);
  const absolute = resolve(cwd, path);
  try {
    const stat = statSync(absolute);
    if (stat.isDirectory()) return bad(path, ErrorCode.NotAFile, `${path} is a directory`);
    const special = `${path} is not a regular file (a FIFO, socket or device)`;
    if (!stat.isFile()) return bad(path, ErrorCode.NotAFile, special);
    accessSync(absolute, constants.R_OK);
    return { kind: 'file', path, absolute, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return bad(path, ErrorCode.FileNotFound, `${path} does not exist`);
    return bad(path, ErrorCode.FileUnreadable, `${path} cannot be read: ${(error as Error).message}`);
  }
}

/** An input by the name a caller gave: `-` is the caller's stdin, read from its spool (the command declares stdin). */
export function inputOf(path: string, ctx: { readonly cwd: string; readonly stdinPath?: string }): InputFile {
  if (path !== STDIN_PATH) return inspectInput(path, ctx.cwd);
  if (ctx.stdinPath === undefined) {
    return bad(STDIN_PATH, ErrorCode.InternalError, 'a command read `-` without declaring stdin');
  }
  return { ...inspectInput(ctx.stdinPath, ctx.cwd), path: STDIN_PATH };
}

/** How a run's chunks know the input is still the one it began with: its inode, or a remote object's version. */
export function versionOf(input: InputFile & { kind: 'file' }): { fileIno: number } | { remote: RemoteIdentity } {
  return input.remote ? { remote: input.remote } : { fileIno: input.ino };
}

/** What a checkpoint is checked against: a change in any input means start over. */
export function fingerprintOf(inputs: readonly InputFile[]): unknown {
  // Stdin's spool moves with its job, and its bytes are part of the invocation: its length is enough.
  return inputs.map((input) => (input.kind === 'file' && input.path === STDIN_PATH ? { stdin: input.size }
    : input.kind === 'file' && input.remote ? { url: shownUrl(input.absolute), ...input.remote }
    : input.kind === 'file' ? { path: input.absolute, size: input.size, mtimeMs: input.mtimeMs, ino: input.ino }
    : { path: input.path, error: input.error.code }));
}
