import type { Envelope } from '../contract/envelope.js';
import { StopReason } from '../contract/vocabulary/stop-reason.js';
import { executeCommand } from '../runtime/call/execute-command.js';
import { cancelledEnvelope, finalEnvelope } from '../runtime/call/final-envelope.js';
import type { Invocation } from '../runtime/call/invocation.js';
import { StopController } from '../runtime/call/stop-controller.js';

/**
 * A relay (`CommandSpec.relay`) passes a signal on to the command it runs and waits for it: the call then
 * answers CANCELLED with the handler's data (the callee's continue_command, so nothing is lost), unless the
 * handler relays a final answer verbatim.
 */
export async function runRelay(inv: Invocation): Promise<Envelope> {
  let heard: 'SIGINT' | 'SIGTERM' | undefined;
  // ctx.stopRequested() tells a handler of a signal that came before it listened.
  const stop = new StopController();
  const offs = (['SIGINT', 'SIGTERM'] as const).map((signal) => inv.host.onSignal(signal, () => {
    heard ??= signal;
    stop.request(signal === 'SIGINT' ? StopReason.Interrupt : StopReason.Terminate);
  }));
  try {
    const execution = await executeCommand(inv, stop);
    await execution.finish(true);
    const { result } = execution;
    if (heard === undefined || result.verbatim) return finalEnvelope(inv, result, execution.warnings);
    const message = `Cancelled by ${heard}; the work done is kept and its continue_command continues it`;
    return cancelledEnvelope(inv, heard, (result.data ?? {}) as object, message);
  } finally {
    for (const off of offs) off();
  }
}
