import { hostname } from 'node:os';
import { buildEnvelope } from '../../../contract/envelope.js';
import { ErrorCode } from '../../../contract/error-code.js';
import { ExitCode } from '../../../contract/exit-code.js';
import { StintError } from '../../../contract/stint-error.js';
import { QUEUE_ENV } from '../../../runtime/authoring/framework-flags.js';
import type { CommandContext, CommandResult } from '../../../runtime/authoring/command-spec.js';
import { shownUrl } from '../../../engine/queue/queue-connection.js';
import { startQueueWorker, type ChunkEvent, type QueueWorker } from '../../../engine/queue/queue-worker.js';
import { WorkerLog } from './worker-log.js';

export interface WorkerFlags {
  readonly queue: string | undefined;
  readonly concurrency: number;
  readonly 'lock-duration': number;
  readonly 'chunk-timeout': number | undefined;
  readonly log: WorkerLog;
}

/** One chunk on stderr: a JSON object, or a line for people. */
function chunkLine(log: WorkerLog, event: ChunkEvent): string {
  if (log === WorkerLog.Json) return JSON.stringify({ event: 'chunk', ...event });
  const how = event.outcome === 'failed' ? `failed (${event.code})` : event.outcome;
  return `chunk ${event.path} [${event.start}, ${event.end}) ${how} in ${event.ms} ms`;
}

type Say = (event: Record<string, unknown> & { event: string }, text: string) => void;

/** The worker as its flags say, telling each chunk taken, done, refused, or handed back. */
function startWorker(flags: WorkerFlags, url: string, version: string, ctx: CommandContext, say: Say) {
  return startQueueWorker({
    url,
    concurrency: flags.concurrency,
    lockMs: flags['lock-duration'],
    version,
    ...(flags['chunk-timeout'] !== undefined ? { chunkTimeoutMs: flags['chunk-timeout'] } : {}),
    onTake: (job, path, start) => say({ event: 'take', job, path, start }, `take ${path} at ${start}`),
    onChunk: (event) => ctx.log(chunkLine(flags.log, event)),
    onRefuse: (job, why) => say({ event: 'refused', job, why }, `refused job ${job}: ${why}`),
    onLeftOut: (job, why) => say({ event: 'left-out', job, why }, `left out of the run of job ${job}: ${why}`),
  });
}

/**
 * Starts the worker with SIGTERM and SIGINT heard from the first moment: one that comes while it starts
 * drains it as soon as it started. Resolves once it stopped.
 */
async function runUntilSignal(
  start: () => Promise<QueueWorker>, ctx: CommandContext, started: (worker: QueueWorker) => void,
): Promise<QueueWorker> {
  let worker: QueueWorker | undefined;
  let signalled = false;
  const off = ctx.onSignal(() => {
    signalled = true;
    void worker?.drain();
  });
  try {
    worker = await start();
    started(worker);
    if (signalled) void worker.drain();
    await worker.closed;
    return worker;
  } finally {
    off();
  }
}

/** The worker's run: start, announce, take chunks until a signal, drain, answer with the count. */
export async function runWorker(flags: WorkerFlags, ctx: CommandContext, version: string): Promise<CommandResult> {
  const url = flags.queue || ctx.env[QUEUE_ENV];
  if (!url) {
    throw new StintError(ErrorCode.ArgError, 'worker needs a queue: --queue redis://host:port, or STINT_QUEUE', {
      phase: 'validation', context: { flag: '--queue' },
    });
  }
  const began = ctx.now();
  const say: Say = (event, text) => ctx.log(flags.log === WorkerLog.Json ? JSON.stringify(event) : text);
  const queue = shownUrl(url);
  const worker = await runUntilSignal(() => startWorker(flags, url, version, ctx, say), ctx, (running) => {
    const started = { queue, concurrency: flags.concurrency, version, pid: process.pid, id: running.id };
    say({ event: 'started', ...started, build: running.build, host: hostname() }, `worker ${running.id}: queue`
      + ` ${queue}, concurrency ${flags.concurrency}, version ${version}, build ${running.build}`);
  });
  const hung = worker.hung();
  if (hung) {
    say({ event: 'hung', message: hung }, `worker ${worker.id}: ${hung}`);
    throw new StintError(ErrorCode.WorkerFailed, `${hung}: this worker stopped; its chunks run elsewhere`, {
      retryable: true, suggestion: 'Start the worker again; a chunk that hangs on every worker fails its run',
    });
  }
  const data = { queue, concurrency: flags.concurrency, chunks: worker.chunks(), drained: true };
  say({ event: 'drained', chunks: data.chunks }, `worker ${worker.id}: drained after ${data.chunks} chunks`);
  // Draining is how a worker ends: a success, not the CANCELLED a relay answers for a signal.
  const envelope = buildEnvelope({
    exitCode: ExitCode.SUCCESS, durationMs: ctx.now() - began, data, meta: { command: 'worker', tool_version: version },
  });
  return { exitCode: ExitCode.SUCCESS, data, verbatim: envelope };
}
