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
  const worker = await startQueueWorker({
    url,
    concurrency: flags.concurrency,
    lockMs: flags['lock-duration'],
    ...(flags['chunk-timeout'] !== undefined ? { chunkTimeoutMs: flags['chunk-timeout'] } : {}),
    onTake: (job, path, start) => ctx.log(log === WorkerLog.Json ? JSON.stringify({ event: 'take', job, path, start })
      : `take ${path} at ${start}`),
    onChunk: (event) => ctx.log(chunkLine(log, event)),
  });
  const started = { queue: shownUrl(url), concurrency: flags.concurrency, version, pid: process.pid };
  ctx.log(log === WorkerLog.Json ? JSON.stringify({ event: 'started', ...started, host: hostname() })
    : `worker ${started.pid} on ${hostname()}: queue ${started.queue}, concurrency ${started.concurrency},`
      + ` version ${started.version}`);
  const off = ctx.onSignal(() => void worker.drain());
  try {
    await worker.closed;
  } finally {
    off();
  }
  const hung = worker.hung();
  if (hung) {
    const said = { event: 'hung', message: hung };
    ctx.log(log === WorkerLog.Json ? JSON.stringify(said) : `worker ${started.pid}: ${hung}`);
    throw new StintError(ErrorCode.WorkerFailed, `${hung}: this worker stopped; its chunks run elsewhere`, {
      retryable: true, suggestion: 'Start the worker again; a chunk that hangs on every worker fails its run',
    });
  }
  const data = { queue: started.queue, concurrency: flags.concurrency, chunks: worker.chunks(), drained: true };
  ctx.log(log === WorkerLog.Json ? JSON.stringify({ event: 'drained', chunks: data.chunks })
    : `worker ${started.pid}: drained after ${data.chunks} chunks`);
  // Draining is how a worker ends: a success, not the CANCELLED a relay answers for a signal.
  const envelope = buildEnvelope({
    exitCode: ExitCode.SUCCESS, durationMs: ctx.now() - began, data, meta: { command: 'worker', tool_version: version },
  });
  return { exitCode: ExitCode.SUCCESS, data, verbatim: envelope };
}
