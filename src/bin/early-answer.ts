import { buildEnvelope } from '../contract/envelope.js';
import { ErrorCode } from '../contract/error-code.js';
import { SignalExitCode } from '../contract/exit-code.js';
import { Phase } from '../contract/vocabulary/phase.js';
import { renderJson } from '../runtime/cli/render.js';

/** CANCELLED (130/143) for a signal that came before the work had handlers: the call's one answer, then exit. */
export function answerEarlySignal(signal: keyof typeof SignalExitCode, durationMs: number): void {
  const envelope = buildEnvelope({
    exitCode: SignalExitCode[signal],
    durationMs,
    data: { partial: true },
    error: {
      code: ErrorCode.Cancelled,
      message: `Command cancelled by ${signal} before its work began`,
      retryable: false,
      phase: Phase.Execution,
      context: { signal },
    },
  });
  process.stdout.write(renderJson(envelope), () => process.exit(SignalExitCode[signal]));
}
