import type { Envelope } from '../contract/envelope.js';
import { executeCommand } from '../runtime/call/execute-command.js';
import { cancelledEnvelope, finalEnvelope } from '../runtime/call/final-envelope.js';
import type { Invocation } from '../runtime/call/invocation.js';
import { StopController } from '../runtime/call/stop-controller.js';
import { runRelay } from './run-relay.js';

/** A direct call's answer, and the text its result asks to show on stdout in text mode. */
export interface Answered {
  readonly envelope: Envelope;
  readonly shown?: () => string | Promise<string>;
}

/** A command without interruption: no safe points, so a signal answers CANCELLED (130 or 143) at once. */
export async function runDirect(inv: Invocation): Promise<Answered> {
  const { host } = inv;
  if (inv.command.spec.relay) return { envelope: await runRelay(inv) };
  let signalled: ((signal: 'SIGINT' | 'SIGTERM') => void) | undefined;
  const bySignal = new Promise<'SIGINT' | 'SIGTERM'>((resolve) => (signalled = resolve));
  const offs = (['SIGINT', 'SIGTERM'] as const).map((signal) => host.onSignal(signal, () => signalled!(signal)));
  try {
    const winner = await Promise.race([executeCommand(inv, new StopController()), bySignal]);
    if (typeof winner === 'string') return { envelope: cancelledEnvelope(inv, winner) };
    await winner.finish(true);
    const envelope = finalEnvelope(inv, winner.result, winner.warnings);
    const shown = envelope.meta.exit_code === winner.result.exitCode ? winner.result.text : undefined;
    return { envelope, ...(shown ? { shown } : {}) };
  } finally {
    for (const off of offs) off();
  }
}
