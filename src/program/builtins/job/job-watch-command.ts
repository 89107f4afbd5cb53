import type { Envelope } from '../../../contract/envelope.js';
import { ExitCode } from '../../../contract/exit-code.js';
import type { IncompleteData } from '../../../contract/incomplete.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import { IncompleteState } from '../../../contract/vocabulary/job-state.js';
import { FrameworkFlag } from '../../../runtime/authoring/framework-flags.js';
import type { CommandContext, CommandSpec } from '../../../runtime/authoring/command-spec.js';
import { isJobId } from '../../../runtime/jobs/job-id.js';
import type { JobRecord } from '../../../runtime/jobs/job-record.js';
import type { JobStore } from '../../../runtime/jobs/job-store.js';
import { waitOnJob } from '../../../runtime/jobs/job-wait.js';
import { watchItemText, watchProgress } from './watch-progress.js';
import { badId, idArgument, RELAYED, replay, type JobCommandDeps } from './job-command-parts.js';
import { RELAYED_JOB_ANSWER } from './job-schemas.js';

/** How often the watch reads the job's status (a running job rewrites it at least every second). */
export const WATCH_POLL_MS = 250;
/** A heartbeat line after this long without a change, unless --heartbeat-ms says otherwise. */
export const WATCH_HEARTBEAT_MS = 10_000;

/** Still running: anything else (ended, paused, stalled, lost, not found) is the watch's last word. */
function runsOn(answer: Envelope): boolean {
  return answer.meta.exit_code === ExitCode.INCOMPLETE
    && (answer.data as IncompleteData | null)?.state === IncompleteState.Running;
}

/**
 * `job watch <id>`: the job's progress as a stream of JSON lines. Watching is reading: it never asks the job to
 * stop, so SIGINT ends the watch (130, CANCELLED) while the job goes on. Each look judges the job as
 * `job wait` does, so a stalled or lost job ends the stream with that answer.
 */
export function jobWatchCommand({ storeOf, retryableOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job watch',
    outputSchema: RELAYED_JOB_ANSWER,
    description: "Stream a job's progress as JSON lines until it ends; the last line is its final response."
      + ' Ctrl-C stops watching, not the job',
    dangerLevel: DangerLevel.Safe,
    streaming: true,
    positionals: idArgument,
    flags: {
      [FrameworkFlag.HeartbeatMs]: {
        type: 'integer',
        min: 0,
        default: WATCH_HEARTBEAT_MS,
        description: 'A heartbeat line after this many ms without a change (0 = none)',
      },
    },
    exitCodes: RELAYED,
    async run({ positionals, flags }, ctx) {
      const id = positionals['id'] as string;
      if (!isJobId(id)) return badId(id);
      const heartbeatMs = Number(flags[FrameworkFlag.HeartbeatMs] ?? WATCH_HEARTBEAT_MS);
      return replay(await watch(ctx, storeOf(ctx), id, retryableOf, heartbeatMs));
    },
    itemText: watchItemText,
  };
}

/** Polls the job until it stops running; returns its last answer, having streamed its progress. */
async function watch(
  ctx: CommandContext,
  store: JobStore,
  id: string,
  retryableOf: (job: JobRecord) => boolean,
  heartbeatMs: number,
): Promise<Envelope> {
  const seen = watchProgress(id, store.readRecord(id)?.createdAt ?? ctx.now());
  let lastLine = ctx.now();
  for (;;) {
    const now = ctx.now();
    const answer = await waitOnJob({
      store, now: () => ctx.now(), sleep: (ms) => ctx.sleep(ms), id, started: now, until: now, budgetMs: undefined,
      retryableOf,
    });
    if (!runsOn(answer) || ctx.stopRequested()) return answer;
    const item = seen.next(answer.data as IncompleteData, ctx.now());
    const quietFor = ctx.now() - lastLine;
    if (item || (heartbeatMs > 0 && quietFor >= heartbeatMs)) {
      await (item ? ctx.stream?.item({ ...item }) : ctx.stream?.heartbeat(seen.heartbeat(ctx.now())));
      lastLine = ctx.now();
    }
    await ctx.sleep(WATCH_POLL_MS);
  }
}
