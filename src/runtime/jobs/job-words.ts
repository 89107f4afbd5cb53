import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import type { JobRecord } from './job-record.js';

type Env = Readonly<Record<string, string | undefined>>;

/** The real file a word names: a path as it is, a bare name as PATH finds it (as a shell would). */
function realFile(word: string, env: Env): string | undefined {
  const candidates = isAbsolute(word) ? [word] : (env['PATH'] ?? '').split(delimiter).filter(Boolean)
    .map((dir) => join(dir, word));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.F_OK);
      return realpathSync(candidate);
    } catch {
      // not this one
    }
  }
  return undefined;
}

/** What a shell runs for the words: [runner, script] as real files (runner absent for one word). */
function resolved(words: readonly string[], env: Env): readonly (string | undefined)[] | undefined {
  if (words.length === 0 || words.length > 2 || !words.every((word) => typeof word === 'string' && word)) {
    return undefined;
  }
  const files = words.map((word) => realFile(word, env));
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
  return theirs !== undefined && ours !== undefined && isDeepStrictEqual(theirs, ours);
}

/** A check for JobStore: a record whose words are not this program's is refused, never printed or run. */
export function recordCheck(own: () => readonly string[], env: Env): (record: JobRecord) => void {
  return (record) => {
    if (sameProgram(record.programWords, own(), env)) return;
    throw new StintError(ErrorCode.JobRecordInvalid,
      `job ${record.id}: its record names a program other than this one; it is refused, not run`, {
        context: { job_id: record.id },
        fix_required: `Remove the job's folder (jobs/${record.id} in the state folder) and run the command again`,
      });
  };
}
