import { spawn } from 'node:child_process';
import type { Envelope } from '../../contract/envelope.js';
import { StintError } from '../../contract/stint-error.js';
import { StintCode } from '../stint-codes.js';
import { envelopeOf, type ChildEnd } from './child-answer.js';

type Signal = 'SIGINT' | 'SIGTERM';

/** How one followed call runs: where, with what environment, and whether it gets the caller's stdin. */
export interface ChildSpawn {
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdin: 'inherit' | 'ignore';
}

/** The stderr lines kept for an error's detail (the callee's stderr is never shown as it comes). */
const TAIL_LINES = 20;
const TAIL_BYTES = 8192;
/** More than any envelope holds (in UTF-16 units): past it, stdout is a stream, not an answer. */
const MAX_STDOUT = 64 * 1024 * 1024;

/** The last lines of what a stream said, kept as it comes. */
function tailKeeper(): { add(chunk: string): void; lines(): string } {
  let kept = '';
  return {
    add(chunk) {
      kept = (kept + chunk).slice(-TAIL_BYTES);
    },
    lines: () => kept.trimEnd().split('\n').slice(-TAIL_LINES).join('\n'),
  };
}

/**
 * Runs one followed call, `words` as argv (no shell), in a process group of its own: a signal at a
 * terminal reaches us only, and we pass it on once, to the whole group (as a terminal would).
 */
export class FollowedCall {
  private pid: number | undefined;
  readonly answer: Promise<Envelope>;

  constructor(words: readonly string[], line: string, how: ChildSpawn) {
    this.answer = new Promise((resolve, reject) => {
      const child = spawn(words[0]!, words.slice(1), {
        cwd: how.cwd, env: how.env, stdio: [how.stdin, 'pipe', 'pipe'], detached: true,
      });
      this.pid = child.pid;
      let stdout = '';
      const stderr = tailKeeper();
      // An envelope is one document: a callee that streams data to stdout is read no further than this.
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        if (stdout.length <= MAX_STDOUT) stdout += chunk;
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.add(chunk));
      child.on('error', (error) => reject(notStarted(line, error)));
      child.on('close', (code, signal) => {
        this.pid = undefined;
        const end: ChildEnd = { line, stdout, code, signal, stderrTail: stderr.lines() };
        try {
          resolve(envelopeOf(end));
        } catch (thrown) {
          reject(thrown);
        }
      });
    });
  }

  /** Passes a signal on to the running call's process group; nothing once it has ended. */
  forward(signal: Signal): void {
    if (this.pid === undefined) return;
    try {
      process.kill(-this.pid, signal);
    } catch {
      // It ended meanwhile: its answer is on its way.
    }
  }
}

function notStarted(line: string, error: Error): StintError {
  return new StintError(StintCode.NotAnEnvelope, `"${line}" could not be started: ${error.message}`, {
    retryable: false,
    context: { command: line },
  });
}
