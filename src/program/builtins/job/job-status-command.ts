import type { Envelope } from '../../../contract/envelope.js';
import type { IncompleteData } from '../../../contract/incomplete.js';
import { isTerminal } from '../../../contract/vocabulary/job-state.js';
import { DangerLevel } from '../../../contract/vocabulary/danger-level.js';
import { ProgressUnit } from '../../../contract/vocabulary/progress-unit.js';
import type { CommandSpec } from '../../../runtime/authoring/command-spec.js';
import { shellJoin } from '../../../runtime/cli/shell-quote.js';
import { escapeControls } from '../../../runtime/cli/control-escape.js';
import { cancelCommand } from '../../../runtime/jobs/incomplete-response.js';
import { isJobId } from '../../../runtime/jobs/job-id.js';
import type { JobRecord } from '../../../runtime/jobs/job-record.js';
import type { JobStore } from '../../../runtime/jobs/job-store.js';
import { waitOnJob } from '../../../runtime/jobs/job-wait.js';
import { badId, idArgument, RELAYED, replay, type JobCommandDeps } from './job-command-parts.js';
import { age, commandLineOf, etaText, quantity, viewOf, type JobView } from './job-view.js';
import { RELAYED_JOB_ANSWER } from './job-schemas.js';

function progressLine(view: JobView): string {
  const { done, total, unit } = view.progress;
  // `12 of 2,000 steps`, but `1.5 MiB of 4.0 MiB`: a byte count is read with its own unit.
  const part = unit === ProgressUnit.Bytes ? quantity(done, unit) : quantity(done, undefined);
  const amount = total !== undefined ? `${part} of ${quantity(total, unit)}` : quantity(done, unit);
  const rows = view.progress.rows !== undefined ? `, ${quantity(view.progress.rows, ProgressUnit.Rows)}` : '';
  const parts = [view.percent !== undefined ? `${view.percent}% (${amount}${rows})` : amount + rows];
  if (view.rate !== undefined) parts.push(`${quantity(view.rate, unit)}/s`);
  if (view.eta_ms !== undefined) parts.push(`ETA ${etaText(view)}`);
  return parts.join(', ');
}

/** What to run next: continue while the job can go on; its stored answer once it ended. */
function nextLines(job: JobRecord, view: JobView, answer: Envelope): [string, string][] {
  if (!isTerminal(view.state)) {
    const data = answer.data as IncompleteData | null;
    const next = data?.continue_command ?? shellJoin([...job.programWords, 'job', 'wait', job.id]);
    return [['next', next], ['cancel', cancelCommand(job)]];
  }
  const exit = `exit ${answer.meta.exit_code}${answer.error ? ` ${answer.error.code}` : ''}`;
  const why: [string, string][] = answer.error ? [['error', answer.error.message]] : [];
  return [['answer', exit], ...why, ['show', shellJoin([...job.programWords, 'job', 'wait', job.id])]];
}

/** `job status` for people: a short block, one fact a line. */
export function statusBlock(job: JobRecord, view: JobView, answer: Envelope): string {
  const rows: [string, string][] = [
    ['job', job.id],
    ['command', commandLineOf(job)],
    ['state', view.state],
    ['progress', progressLine(view)],
    // A run through the queue: the distinct `worker` processes that completed its chunks.
    ...(view.progress.workers !== undefined ? [['workers', String(view.progress.workers)] as [string, string]] : []),
    ['started', `${age(view.age_ms)} ago`],
    ['updated', `${age(view.updated_ms_ago)} ago`],
    ...nextLines(job, view, answer),
  ];
  // A value holding a newline (a file's name) stays on its line, escaped.
  return rows.map(([label, value]) => `${label.padEnd(9)}${escapeControls(value)}`).join('\n') + '\n';
}

function blockOf(store: JobStore, id: string, answer: Envelope, now: number): (() => string) | undefined {
  const job = store.readRecord(id);
  const status = store.readStatus(id);
  if (!job || !status) return undefined;
  return () => statusBlock(job, viewOf(job, status, now), answer);
}

export function jobStatusCommand({ storeOf, retryableOf }: JobCommandDeps): CommandSpec {
  return {
    name: 'job status',
    outputSchema: RELAYED_JOB_ANSWER,
    description: 'Answer at once: 14 with progress while a job runs or waits, its final response once it ended'
      + ' (--format text: a short block with progress, rate, ETA and the next command)',
    dangerLevel: DangerLevel.Safe,
    positionals: idArgument,
    exitCodes: RELAYED,
    async run({ positionals }, ctx) {
      const id = positionals['id'] as string;
      if (!isJobId(id)) return badId(id);
      const now = ctx.now();
      const store = storeOf(ctx);
      const answer = await waitOnJob({
        store, now: () => ctx.now(), id, started: now, until: now, budgetMs: undefined, retryableOf,
      });
      const text = blockOf(store, id, answer, ctx.now());
      return { ...replay(answer), ...(text ? { text } : {}) };
    },
  };
}
