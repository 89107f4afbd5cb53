import { ExitCode, type ProcessExitCode } from '../contract/exit-code.js';
import { OutputFormat } from '../contract/vocabulary/output-format.js';
import type { JobRecord } from '../runtime/jobs/job-record.js';
import { recordCheck } from '../runtime/jobs/job-words.js';
import type { Host } from '../runtime/authoring/host.js';
import { runJob } from '../runtime/jobs/run-job.js';
import { RunMode } from '../runtime/jobs/run-mode.js';
import type { Invocation, ProgramContext } from '../runtime/call/invocation.js';
import { JobStore } from '../runtime/jobs/job-store.js';
import type { Respond } from '../runtime/cli/respond.js';
import { stateDirPath } from '../runtime/storage/state-dir.js';
import { resolveCall } from './resolve-call.js';

/** The job the supervisor is to run; undefined (said on stderr, its log) when it is missing or refused. */
function trustedRecord(store: JobStore, jobId: string, host: Host): JobRecord | undefined {
  try {
    const job = store.readRecord(jobId);
    if (!job) host.writeStderr(`supervisor: no job ${jobId}\n`);
    return job;
  } catch (thrown) {
    host.writeStderr(`supervisor: job ${jobId} is refused: ${(thrown as Error).message}\n`);
    return undefined;
  }
}

/** The detached supervisor: continue the job's work with no budget; the response goes to the job's folder. */
export async function superviseJob(program: ProgramContext, host: Host, jobId: string): Promise<ProcessExitCode> {
  const root = stateDirPath(host.env, program.identity.name);
  const store = new JobStore(root, recordCheck(host.programWords, host.env));
  const job = trustedRecord(store, jobId, host);
  if (!job) return ExitCode.GENERAL_ERROR;
  if (!store.takeLease(job.id, host.pid)) {
    host.writeStderr(`supervisor: job ${jobId} is run by another process\n`);
    return ExitCode.SUCCESS;
  }
  const jobHost: Host = {
    ...host,
    argv: job.argv,
    cwd: job.cwd,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    programWords: () => job.programWords,
  };
  const respond: Respond = async (envelope) => envelope.meta.exit_code;
  const resolution = resolveCall(program, jobHost, respond, OutputFormat.Json);
  if (resolution.kind !== 'run') {
    host.writeStderr(`supervisor: job ${jobId} cannot be run: ${resolution.envelope.error?.message ?? 'no command'}\n`);
    return ExitCode.GENERAL_ERROR;
  }
  // Its answer's duration is the work's, from the call that started it, not this process's share of it.
  const workStarted = store.readStatus(job.id)?.startedAt ?? resolution.inv.started;
  const inv: Invocation = {
    ...resolution.inv,
    started: Math.min(workStarted, resolution.inv.started),
    key: job.key,
    heartbeatMs: undefined,
    stdinPath: job.stdinPath,
    options: { ...resolution.inv.options, budgetMs: undefined, timeoutMs: job.timeoutMs || undefined },
  };
  const announce = () => host.writeStderr(`supervisor: pid ${host.pid} runs job ${job.id}\n`);
  const outcome = await runJob(inv, store, job, RunMode.Supervisor, announce);
  const code = outcome.kind === 'ended' ? outcome.envelope.meta.exit_code : ExitCode.INCOMPLETE;
  const how = outcome.kind === 'ended' ? `ended with exit ${code}` : 'paused at a safe point';
  host.writeStderr(`supervisor: job ${job.id} ${how}\n`);
  return code;
}
