import { hostname } from 'node:os';
import { buildEnvelope } from '../../contract/envelope.js';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { StintError } from '../../contract/stint-error.js';
import { QUEUE_ENV } from '../../runtime/cli/framework-flags.js';
import type { CommandContext, CommandResult } from '../../runtime/program/command-spec.js';
import { shownUrl } from '../../engine/queue/queue-connection.js';
import { startQueueWorker, type ChunkEvent } from '../../engine/queue/queue-worker.js';
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

/** The worker's run: start, announce, take chunks until a signal, drain, answer with the count. */
export async function runWorker(flags: WorkerFlags, ctx: CommandContext, version: string): Promise<CommandResult> {
  const url = flags.queue || ctx.env[QUEUE_ENV];
  if (!url) {
    throw new StintError(ErrorCode.ArgError, 'worker needs a queue: --queue redis://host:port, or STINT_QUEUE', {
      phase: 'validation', context: { flag: '--queue' },
    });
  }
  const began = ctx.now();
  const log = flags.log;
  const say = (event: Record<string, unknown> & { event: string }, text: string) =>
    ctx.log(log === WorkerLog.Json ? JSON.stringify(event) : text);
  // Heard from the start: a signal while the worker starts drains it as soon as it started.
  let signalled = false;
  let onStarted: (() => void) | undefined;
  const off = ctx.onSignal(() => {
    signalled = true;
    onStarted?.();
  });
  let worker;
  try {
    worker = await startQueueWorker({
      url,
      concurrency: flags.concurrency,
      lockMs: flags['lock-duration'],
      version,
      ...(flags['chunk-timeout'] !== undefined ? { chunkTimeoutMs: flags['chunk-timeout'] } : {}),
      onTake: (job, path, start) => say({ event: 'take', job, path, start }, `take ${path} at ${start}`),
      onChunk: (event) => ctx.log(chunkLine(log, event)),
      onRefuse: (job, why) => say({ event: 'refused', job, why }, `refused job ${job}: ${why}`),
      onLeftOut: (job, why) => say({ event: 'left-out', job, why }, `left out of the run of job ${job}: ${why}`),
    });
  } catch (error) {
    off();
    throw error;
  }
  const started = {
    queue: shownUrl(url), concurrency: flags.concurrency, version, pid: process.pid, id: worker.id, build: worker.build,
  };
  say({ event: 'started', ...started, host: hostname() }, `worker ${started.id}: queue ${started.queue},`
    + ` concurrency ${started.concurrency}, version ${started.version}, build ${started.build}`);
  const running = worker;
  onStarted = () => void running.drain();
  if (signalled) onStarted();
  try {
    await worker.closed;
  } finally {
    off();
  }
  const hung = worker.hung();
  if (hung) {
    const said = { event: 'hung', message: hung };
    say(said, `worker ${started.id}: ${hung}`);
    throw new StintError(ErrorCode.WorkerFailed, `${hung}: this worker stopped; its chunks run elsewhere`, {
      retryable: true, suggestion: 'Start the worker again; a chunk that hangs on every worker fails its run',
    });
  }
  const data = { queue: started.queue, concurrency: flags.concurrency, chunks: worker.chunks(), drained: true };
  say({ event: 'drained', chunks: data.chunks }, `worker ${started.id}: drained after ${data.chunks} chunks`);
  // Draining is how a worker ends: a success, not the CANCELLED a relay answers for a signal.
  const envelope = buildEnvelope({
    exitCode: ExitCode.SUCCESS, durationMs: ctx.now() - began, data, meta: { command: 'worker', tool_version: version },
  });
  return { exitCode: ExitCode.SUCCESS, data, verbatim: envelope };
}
