import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { ExitCode } from '../../../contract/exit-code.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../../contract/vocabulary/side-effects.js';
import type { CommandSpec } from '../../../runtime/authoring/command-spec.js';
import { isJobId } from '../../../runtime/jobs/job-id.js';
import { badId, idArgument, noJob, STATE_FOLDER_EXIT_CODES, type JobCommandDeps } from './job-command-parts.js';
import { JOB_LOGS_SCHEMA } from './job-schemas.js';

/** A log is read from its end, at most this much: a job that logs a lot still answers at once. */
const MAX_LOG_BYTES = 1024 * 1024;

/** The last MAX_LOG_BYTES of a file ('' when there is none), and whether anything before them was left out. */
function readEnd(path: string): { text: string; cut: boolean } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { text: '', cut: false };
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, MAX_LOG_BYTES);
    const buffer = Buffer.alloc(length);
    readSync(fd, buffer, 0, length, size - length);
    return { text: buffer.toString('utf8'), cut: size > length };
  } finally {
    closeSync(fd);
  }
}

export function jobLogsCommand({ storeOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job logs',
    outputSchema: JOB_LOGS_SCHEMA,
    description: "Show a background job's log: what its process said on stdout and stderr (its start and end,"
      + ' the command\'s log lines); a job run only in the foreground has none',
    dangerLevel: DangerLevel.Safe,
    positionals: idArgument,
    flags: { tail: { type: 'integer', min: 1, description: 'Only the last N lines' } },
    exitCodes: {
      ...STATE_FOLDER_EXIT_CODES,
      [ExitCode.SUCCESS]: { description: 'The log was read', retryable: false, sideEffects: SideEffects.Complete },
      [ExitCode.NOT_FOUND]: { description: 'No job has that id', retryable: false, sideEffects: SideEffects.None },
    },
    async run(input, ctx) {
      const flags = input.flags as Readonly<Record<string, unknown>>;
      const id = input.positionals['id'] as string;
      if (!isJobId(id)) return badId(id);
      const store = storeOf(ctx);
      if (!store.folderExists(id)) return noJob(id);
      const { text, cut } = readEnd(store.logPath(id));
      const all = text.split('\n');
      if (all.at(-1) === '') all.pop();
      // A cut read may begin mid-line: that first piece is not a line of the log.
      if (cut) all.shift();
      const tail = flags['tail'] as number | undefined;
      const lines = tail === undefined ? all : all.slice(-tail);
      const data = { job_id: id, path: store.logPath(id), lines, truncated: cut || lines.length < all.length };
      return { exitCode: ExitCode.SUCCESS, data, text: () => lines.map((line) => `${line}\n`).join('') };
    },
  };
}
