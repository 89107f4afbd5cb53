import { ExitCode } from '../../contract/exit-code.js';
import type { CommandSpec } from '../program/command-spec.js';
import type { ProgramContext } from '../program/invocation.js';
import { jobCancelCommand } from './commands/job-cancel-command.js';
import type { JobCommandDeps } from './commands/job-command-parts.js';
import { jobListCommand } from './commands/job-list-command.js';
import { jobLogsCommand } from './commands/job-logs-command.js';
import { jobPruneCommand } from './commands/job-prune-command.js';
import { jobStatusCommand } from './commands/job-status-command.js';
import { jobWaitCommand } from './commands/job-wait-command.js';
import { JobStore } from './job-store.js';
import { recordCheck } from './job-words.js';
import { jobWatchCommand } from './commands/job-watch-command.js';
import { stateDirPath } from '../storage/state-dir.js';

/** `job wait|status|cancel|list|logs|prune|watch`, generated for every program built on stint (REQ-F-081). */
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
