import type { Envelope } from '../../../contract/envelope.js';
import { ExitCode } from '../../../contract/exit-code.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import type { CommandResult, CommandSpec, TextView } from '../../../runtime/authoring/command-spec.js';
import { outline } from '../../../runtime/cli/render.js';
import { isJobId } from '../../../runtime/jobs/job-id.js';
import { waitDeadline } from '../../../runtime/jobs/budget-plan.js';
import { waitOnJob } from '../../../runtime/jobs/job-wait.js';
import { badId, budgetFlag, budgetOf, idArgument, RELAYED, replay, type JobCommandDeps } from './job-command-parts.js';
import { RELAYED_JOB_ANSWER } from './job-schemas.js';

/**
 * A job's final answer as its own command shows it in text mode (its `text` renderer, else the outline); an
 * INCOMPLETE answer keeps the framework's notice.
 */
export function relayedAsItsCommand(
  envelope: Envelope,
  command: CommandSpec | undefined,
  view: TextView,
): CommandResult {
  const result = replay(envelope);
  if (envelope.meta.exit_code === ExitCode.INCOMPLETE || envelope.data === null) return result;
  const render = command?.text?.bind(command);
  return { ...result, text: () => (render ? render(envelope.data, view) : outline(envelope.data)) };
}

export function jobWaitCommand(deps: JobCommandDeps): CommandSpec {
  const { storeOf, retryableOf } = deps;
  return {
    name: 'job wait',
    outputSchema: RELAYED_JOB_ANSWER,
    description: 'Hold up to the budget for a job: its own response and exit code once it ends,'
      + ' else 14 with fresh progress (--format text shows the answer as the job\'s command would)',
    dangerLevel: DangerLevel.Safe,
    positionals: idArgument,
    flags: budgetFlag,
    exitCodes: RELAYED,
    async run({ positionals, flags }, ctx) {
      const id = positionals['id'] as string;
      if (!isJobId(id)) return badId(id);
      const budgetMs = budgetOf(ctx, flags['budget'], ctx.interactive);
      const started = ctx.now();
      const store = storeOf(ctx);
      const answer = await waitOnJob({
        store,
        now: () => ctx.now(),
        id,
        started,
        until: waitDeadline(started, budgetMs),
        budgetMs,
        retryableOf,
        onProgress: (p) => ctx.progress(p.done, p.total, p.unit, p.rows),
      });
      const job = store.readRecord(id);
      return relayedAsItsCommand(answer, job && deps.commandOf(job), { width: ctx.stdoutWidth });
    },
  };
}
