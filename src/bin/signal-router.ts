// No static imports: this module loads before the rest of stint, and every
// module loaded before the handlers are installed widens the window in which
// a signal still meets Node's default (death, no answer).

type Signal = 'SIGINT' | 'SIGTERM';

const handlers: Record<Signal, Set<() => void>> = { SIGINT: new Set(), SIGTERM: new Set() };
// No Host exists yet when this module loads (before any other): the process's own clock, which a Host reads too.
const started = Date.now();
let installed = false;
let answered = false;

/** The call's answer is on its way: from now on a signal changes nothing. */
export function markAnswered(): void {
  answered = true;
}

function answerAtOnce(signal: Signal): void {
  answered = true;
  const durationMs = Date.now() - started;
  // The answer's modules load only now; the rest of stint may still be loading meanwhile.
  void import('./early-answer.js').then(({ answerEarlySignal }) => answerEarlySignal(signal, durationMs));
}

/**
 * Installs the process's only SIGINT/SIGTERM listeners; a bin calls it
 * before it loads anything else. While the work has handlers, a signal goes
 * to them (they stop at a safe point). Before there are any, it is answered
 * at once with CANCELLED (130 for SIGINT, 143 for SIGTERM); once the answer is on
 * its way it is ignored, so the exit code stays the one the answer names.
 * Without this, a signal in those windows killed the process with no answer,
 * or with an exit status that contradicted the answer already printed.
 */
export function installSignalRouter(): void {
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (handlers[signal].size > 0) for (const handler of [...handlers[signal]]) handler();
      else if (!answered) answerAtOnce(signal);
    });
  }
}

/** Host.onSignal for the real process. */
export function onSignal(signal: Signal, handler: () => void): () => void {
  installSignalRouter();
  handlers[signal].add(handler);
  return () => void handlers[signal].delete(handler);
}
