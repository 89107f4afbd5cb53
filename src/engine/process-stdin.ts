import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';
import type { EngineContext } from './engine-context.js';
import { inspectInput } from './input-file.js';
import { foldOneFile, type FileOutcome, type FileWork } from './process-file.js';
import { checkEngineKnobs } from './work-options.js';

/** What `processStdin` needs: a file's work without the path. */
export type StdinWork<P, S> = Omit<FileWork<P, S>, 'path'>;

/** How the spool is named where a file's path would be. */
const STDIN_NAME = '-';

/**
 * The caller's stdin through the pool, exactly as `processFile` runs a file.
 * The command must declare `stdin`: the framework then spools the input to a
 * private file before the work starts and keeps it with the job, so the work
 * resumes like a file's. The spool's digest is part of the invocation's
 * identity, so its checkpoint is checked against its length alone (a job's
 * spool moves with the job).
 */
export async function processStdin<P, S>(ctx: EngineContext, work: StdinWork<P, S>): Promise<FileOutcome<S>> {
  checkEngineKnobs('processStdin', work);
  if (ctx.stdinPath === undefined) {
    const message = 'processStdin() in a command that does not declare stdin: add `stdin` to its declaration';
    throw new StintError(ErrorCode.InternalError, message);
  }
  const input = inspectInput(ctx.stdinPath, ctx.cwd);
  if (input.kind === 'bad') throw input.error;
  return foldOneFile(ctx, { ...input, path: STDIN_NAME }, { stdin: input.size }, work);
}
