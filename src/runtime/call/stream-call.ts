import type { Envelope } from '../../contract/envelope.js';
import type { ProcessExitCode } from '../../contract/exit-code.js';
import { OutputFormat } from '../../contract/vocabulary/output-format.js';
import { StopReason } from '../../contract/vocabulary/stop-reason.js';
import { StopController } from './stop-controller.js';
import { executeCommand } from './execute-command.js';
import { cancelledEnvelope, finalEnvelope } from './final-envelope.js';
import type { Invocation } from './invocation.js';
import type { TextRenderer } from '../cli/respond.js';
import { NO_STREAM_FLAG } from '../authoring/stream-flag.js';
import { streamWriter, terminalLine } from './stream-out.js';

type Signal = 'SIGINT' | 'SIGTERM';
const STOP_OF: Readonly<Record<Signal, StopReason>> = { SIGINT: StopReason.Interrupt, SIGTERM: StopReason.Terminate };

/** Whether this call answers as a stream of JSON lines: a streaming command, unless --no-stream (a parsed flag). */
export function streamsItems(inv: Pick<Invocation, 'command'>, parsedFlags: Readonly<Record<string, unknown>>) {
  return inv.command.spec.streaming === true && parsedFlags[NO_STREAM_FLAG] !== true;
}

/**
 * Runs a streaming command: its items go to stdout as they come, then exactly one terminal line.
 * A signal stops the stream at once with CANCELLED (130/143) and `data.partial`; the handler is asked to stop
 * (ctx.stopRequested) and nothing it writes later reaches stdout. Like any stream it has no budget.
 */
export async function runStreaming(
  inv: Invocation,
  format: OutputFormat,
  text?: TextRenderer,
): Promise<ProcessExitCode> {
  const { host, command } = inv;
  const asText = format === OutputFormat.Text ? (command.spec.itemText ?? JSON.stringify) : undefined;
  const writer = streamWriter(host, asText);
  const stop = new StopController();
  let signalled!: (signal: Signal) => void;
  const bySignal = new Promise<Signal>((resolve) => (signalled = resolve));
  const offs = (['SIGINT', 'SIGTERM'] as const).map((signal) => host.onSignal(signal, () => {
    stop.request(STOP_OF[signal]);
    signalled(signal);
  }));
  try {
    // The stream's heartbeats are the command's own lines: no stderr heartbeat beside them.
    const quiet = { ...inv, heartbeatMs: undefined };
    const winner = await Promise.race([executeCommand(quiet, stop, undefined, writer.out), bySignal]);
    let envelope: Envelope;
    if (typeof winner === 'string') envelope = cancelledEnvelope(inv, winner);
    else {
      await winner.finish(true);
      envelope = finalEnvelope(inv, winner.result, winner.warnings);
    }
    const items = writer.close();
    // The terminal line is the call's response: answered as any response is (a person at a terminal whose
    // stdout goes to a file also reads a failure on stderr); in text, as the command's data or error.
    return await inv.respond(format === OutputFormat.Json ? terminalLine(envelope, items) : envelope, text);
  } finally {
    for (const off of offs) off();
  }
}
