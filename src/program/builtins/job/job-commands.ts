import { ExitCode } from '../../../contract/exit-code.js';
import type { CommandSpec } from '../../../runtime/authoring/command-spec.js';
import type { ProgramContext } from '../../../runtime/call/invocation.js';
import { jobCancelCommand } from './job-cancel-command.js';
import type { JobCommandDeps } from './job-command-parts.js';
import { jobListCommand } from './job-list-command.js';
import { jobLogsCommand } from './job-logs-command.js';
import { jobPruneCommand } from './job-prune-command.js';
import { jobStatusCommand } from './job-status-command.js';
import { jobWaitCommand } from './job-wait-command.js';
import { JobStore } from '../../../runtime/jobs/job-store.js';
import { recordCheck } from '../../../runtime/jobs/job-words.js';
import { jobWatchCommand } from './job-watch-command.js';
import { stateDirPath } from '../../../runtime/storage/state-dir.js';

/** `job wait|status|cancel|list|logs|prune|watch`, generated for every program built on stint. */
export function jobCommands(program: () => ProgramContext): CommandSpec[] {
  const commandOf: JobCommandDeps['commandOf'] = (job) =>
    program().commands.find((c) => c.path.join(' ') === job.command.join(' '))?.spec;
  const deps: JobCommandDeps = {
    storeOf: (ctx) => new JobStore(
      stateDirPath(ctx.env, program().identity.name), recordCheck(ctx.programWords, ctx.env),
    ),
    retryableOf: (job) => program().commands
      .find((c) => c.path.join(' ') === job.command.join(' '))?.exitCodes[ExitCode.INCOMPLETE]?.retryable ?? false,
    commandOf,
  };
  return [
    jobWaitCommand(deps),
    jobStatusCommand(deps),
    jobCancelCommand(deps),
    jobListCommand(deps),
    jobLogsCommand(deps),
    jobPruneCommand(deps),
    jobWatchCommand(deps),
  ];
}
