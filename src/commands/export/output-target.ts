import { accessSync, constants, lstatSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { StintCode } from '../stint-codes.js';
import { StintError } from '../../contract/stint-error.js';

/** Where an export may write: a regular file (new or to replace) in an existing, writable folder. */
export interface OutputTarget {
  /** The file to rename over, symlinks followed (the links themselves stay links). */
  readonly path: string;
  /** The file it replaces, whose permission bits and owner the new one keeps. */
  readonly existing: { readonly mode: number; readonly uid: number; readonly gid: number } | undefined;
}

const MAX_LINK_HOPS = 40;
const WRITE_BITS = 0o222;
const USE_STDOUT = 'Write to stdout with --output - (and redirect it), or name a regular file';

const notRegular = (output: string, what: string) =>
  new StintError(StintCode.OutputNotRegularFile, `--output ${output} ${what}; export writes only regular files`, {
    context: { path: output },
    fix_required: USE_STDOUT,
  });

const notWritable = (output: string, what: string) =>
  new StintError(StintCode.OutputNotWritable, `--output ${output}: ${what}; it is left as it is`, {
    context: { path: output },
    fix_required: 'Make it writable, or name another file',
  });

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'is a directory';
  if (stats.isFIFO()) return 'is a FIFO';
  if (stats.isSocket()) return 'is a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'is a device';
  return 'is not a regular file';
}

/**
 * Follows symlinks a hop at a time to the path that is no link (it may not exist: a dangling link is written
 * through).
 */
function followLinks(output: string, absolute: string): string {
  let path = absolute;
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    // /dev/stdout and /proc/self/fd/N name a process's open file, not a place a file can be renamed to.
    if (path.startsWith(`${sep}proc${sep}`)) {
      throw notRegular(output, 'is an open file of a process (as /dev/stdout is)');
    }
    if (!statOf(path, true)?.isSymbolicLink()) return path;
    path = resolve(dirname(path), readlinkSync(path));
  }
  throw notRegular(output, `is a chain of more than ${MAX_LINK_HOPS} symlinks`);
}

/** The path's status (through links unless `lstat`), or undefined when there is nothing there to see. */
function statOf(path: string, lstat = false): Stats | undefined {
  try {
    return lstat ? lstatSync(path) : statSync(path);
  } catch {
    return undefined;
  }
}

function checkFolder(output: string, folder: string): void {
  if (!statOf(folder)?.isDirectory()) {
    throw new StintError(StintCode.OutputFolderNotFound, `--output ${output}: the folder ${folder} does not exist`, {
      context: { path: output, folder },
      fix_required: `Create ${folder} first`,
    });
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw notWritable(output, `the folder ${folder} is not writable`);
  }
}

/**
 * Checks `--output` before anything is written and says where the file goes.
 * Refused, never replaced: a directory, FIFO, device or socket (also behind a
 * symlink), and a regular file without write permission, judged by its mode
 * bits as well as by access(2) so that root, who may write anything, still
 * respects a `chmod a-w`.
 */
export function inspectTarget(output: string, cwd: string): OutputTarget {
  if (output.endsWith(sep)) throw notRegular(output, 'names a folder');
  const absolute = resolve(cwd, output);
  const followed = statOf(absolute);
  // Checked through every link first: a terminal or pipe behind /dev/stdout is refused by what it is.
  if (followed && !followed.isFile()) throw notRegular(output, kindOf(followed));
  const path = followLinks(output, absolute);
  checkFolder(output, dirname(path));
  const stats = statOf(path, true);
  if (!stats) return { path, existing: undefined };
  if (!stats.isFile()) throw notRegular(output, kindOf(stats));
  let writable = (stats.mode & WRITE_BITS) !== 0;
  try {
    accessSync(path, constants.W_OK);
  } catch {
    writable = false;
  }
  if (!writable) throw notWritable(output, 'the file is read-only');
  return { path, existing: { mode: stats.mode & 0o777, uid: stats.uid, gid: stats.gid } };
}
