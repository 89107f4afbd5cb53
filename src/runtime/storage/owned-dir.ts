import { lstatSync, mkdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, parse, resolve, sep } from 'node:path';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';

// The rules OpenSSH applies to ~/.ssh: whoever else can write the state folder, or any folder or symlink on the
// way to it, can plant job records that get printed and run, or point our writes elsewhere. So a folder we did
// not create must be this user's and writable by no one else; we never chmod it to make it so.

const STICKY = 0o1000;
const GROUP_OR_OTHER_WRITE = 0o022;
/** The user's id; undefined where the OS has no uids (Windows), and the checks do not apply. */
const me = (): number | undefined => process.getuid?.();

const octal = (mode: number) => `0${(mode & 0o7777).toString(8)}`;

function unsafe(path: string, why: string): StintError {
  return new StintError(ErrorCode.StateDirUnsafe, `refusing the state folder: ${path} ${why}`, {
    context: { path },
    fix_required: `Use a state folder that this user owns and only this user can write (chmod go-w; chown), `
      + 'reached through no folder or symlink another user controls, or set <NAME>_HOME to one',
  });
}

/** A symlink is trusted only when this user or root owns it (whoever owns it decides where it points). */
function checkLink(path: string, link: Stats, uid: number): void {
  if (link.isSymbolicLink() && link.uid !== uid && link.uid !== 0) {
    throw unsafe(path, `is a symlink owned by uid ${link.uid}, not this user (uid ${uid})`);
  }
}

/** The folders above ours: this user's or root's, and writable by others only when sticky (as /tmp is). */
function checkAbove(real: string, uid: number): void {
  const prefixes = prefixesOf(real);
  for (const prefix of prefixes) {
    const st = statSync(prefix);
    if (st.uid !== uid && st.uid !== 0) throw unsafe(prefix, `is owned by uid ${st.uid}, not this user or root`);
    if ((st.mode & GROUP_OR_OTHER_WRITE) !== 0 && (st.mode & STICKY) === 0) {
      throw unsafe(prefix, `is writable by group or others (mode ${octal(st.mode)}) and not sticky`);
    }
  }
}

/** '/a/b/c' -> ['/', '/a', '/a/b', '/a/b/c']. */
function prefixesOf(path: string): string[] {
  const { root } = parse(path);
  const words = path.slice(root.length).split(sep).filter(Boolean);
  return [root, ...words.map((_, k) => root + words.slice(0, k + 1).join(sep))];
}

const exists = (path: string) => lstatSync(path, { throwIfNoEntry: false }) !== undefined;

/** Refuses a path to the state folder that runs through a symlink or a folder someone else controls. */
export function checkAncestors(root: string): void {
  const uid = me();
  if (uid === undefined) return;
  const path = resolve(root);
  for (const prefix of prefixesOf(path)) {
    const link = lstatSync(prefix, { throwIfNoEntry: false });
    if (!link) break;
    checkLink(prefix, link, uid);
  }
  const existing = prefixesOf(dirname(path)).filter(exists).pop()!;
  checkAbove(realpathSync(existing), uid);
  if (exists(path)) checkAbove(dirname(realpathSync(path)), uid);
}

/** A folder there already is used only when it is this user's and no one else can write it. */
function checkOwned(path: string, uid: number): void {
  checkLink(path, lstatSync(path), uid);
  const st = statSync(path);
  if (!st.isDirectory()) throw Object.assign(new Error(`${path} is not a folder`), { code: 'ENOTDIR' });
  if (st.uid !== uid) throw unsafe(path, `is owned by uid ${st.uid}, not this user (uid ${uid})`);
  if ((st.mode & GROUP_OR_OTHER_WRITE) !== 0) {
    throw unsafe(path, `is writable by group or others (mode ${octal(st.mode)})`);
  }
}

/** Creates `path` (0700; its parents too when `parents`), or checks the one there is ours. */
export function ensureOwnedDir(path: string, parents: boolean): void {
  try {
    mkdirSync(path, { mode: 0o700 });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && parents) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      return ensureOwnedDir(path, false);
    }
    if (code !== 'EEXIST') throw error;
  }
  const uid = me();
  if (uid !== undefined) checkOwned(path, uid);
}
