import { realpathSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import { realFileOf } from '../cli/path-lookup.js';
import type { JobRecord } from './job-record.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What a shell runs for the words: [runner, script] as real files (runner absent for one word). */
function resolved(words: readonly string[], env: Env): readonly (string | undefined)[] | undefined {
  if (words.length === 0 || words.length > 2 || !words.every((word) => typeof word === 'string' && word)) {
    return undefined;
  }
  const files = words.map((word) => realFileOf(word, env));
  return files.every(Boolean) ? files : undefined;
}

/**
 * Whether a job record's program words run this very program: the same words, or words that resolve to the
 * same files (one caller found it on PATH, another by its path). Anything else would print, and `follow`
 * would run, a command of someone's choosing.
 */
export function sameProgram(stored: readonly string[], own: readonly string[], env: Env): boolean {
  if (isDeepStrictEqual(stored, own)) return true;
  const theirs = resolved(stored, env);
  const ours = resolved(own, env);
  if (theirs === undefined || ours === undefined) return false;
  const script = scriptOf(theirs);
  return isDeepStrictEqual(theirs, ours) || (script !== undefined && script === scriptOf(ours));
}

/**
 * The script that resolved words run when their runner is a Node, or there is none: `node tool.js` and `tool.js`
 * (by its shebang) are one program, so a script made executable between two calls is still ours, and so is one
 * that another Node (22 beside 24) started. A runner of another name is another program.
 */
function scriptOf(files: readonly (string | undefined)[]): string | undefined {
  if (files.length === 1) return files[0];
  return isNode(files[0]!) ? files[1] : undefined;
}

/** This very Node, or another one: a real file named `node` (what every Node.js release installs). */
function isNode(file: string): boolean {
  return file === realpathSync(process.execPath) || basename(file) === 'node';
}

/** Why a job record in `folder` is not to be trusted, or undefined when it is. */
function distrust(record: JobRecord, folder: string, own: readonly string[], env: Env): string | undefined {
  if (basename(folder) !== record.id) return `its record names another job (${record.id})`;
  // A job's spooled stdin is its own file: the continuation reads it, so it may name no other.
  if (record.stdinPath !== undefined && record.stdinPath !== join(folder, 'stdin')) {
    return 'its record names a stdin outside its folder';
  }
  if (!sameProgram(record.programWords, own, env)) return 'its record names a program other than this one';
  return undefined;
}

/** A check for JobStore: a record it cannot trust is refused, and nothing of it printed or run. */
export function recordCheck(own: () => readonly string[], env: Env): (record: JobRecord, folder: string) => void {
  return (record, folder) => {
    const why = distrust(record, folder, own(), env);
    if (why === undefined) return;
    const id = basename(folder);
    throw new StintError(ErrorCode.JobRecordInvalid, `job ${id}: ${why}; it is refused, not run`, {
      context: { job_id: id },
      fix_required: `Remove the job's folder (jobs/${id} in the state folder) and run the command again`,
    });
  };
}
