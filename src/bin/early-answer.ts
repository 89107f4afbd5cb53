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
  const exit = () => process.exit(SignalExitCode[signal]);
  // A person at a terminal reads a sentence, never an envelope; JSON when asked for or when stdout is not a terminal.
  if (process.stdout.isTTY && !asksForJson(process.argv.slice(2))) {
    process.stderr.write(`stint: ${envelope.error!.message}; nothing was done\n`, exit);
  } else process.stdout.write(renderJson(envelope), exit);
}

/** `--format json` (or `--format=json`) among the words, read before any parser has loaded. */
function asksForJson(words: readonly string[]): boolean {
  return words.some((word, k) => word === '--format=json' || (word === '--format' && words[k + 1] === 'json'));
}
