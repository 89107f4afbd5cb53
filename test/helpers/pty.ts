// A command run in a real pseudo-terminal, as a person runs it: `script` gives it a terminal of a fixed width
// (`stty cols N`), and what the terminal received is read back as frames and lines.
import { spawn } from 'node:child_process';
import { cleanEnv } from './run-cli.js';
import { STINT_BIN } from './paths.js';

export interface TerminalRun {
  /** The command line's exit code (`script -e` passes it on); null when it was killed by the guard. */
  readonly code: number | null;
  /** Everything the terminal received (stdout and stderr both, unless redirected), with its \r\n line ends. */
  readonly screen: string;
}

export interface TerminalOptions {
  readonly env?: Record<string, string | undefined>;
  /** The terminal's width; 80 by default. */
  readonly columns?: number;
  readonly cwd?: string;
  /** A guard, not an assertion of speed: a hung command fails the test instead of the suite. */
  readonly killAfterMs?: number;
}

/** `stint` as a shell word for a command line: node and the built bin. */
export const STINT = `${process.execPath} ${STINT_BIN}`;

/**
 * Runs `line` through a shell under `script`, in a pseudo-terminal `columns` wide (stdin, stdout and stderr
 * all the terminal unless `line` redirects them). TERM is xterm unless `env` says otherwise.
 */
export function inTerminal(line: string, options: TerminalOptions = {}): Promise<TerminalRun> {
  const columns = options.columns ?? 80;
  const child = spawn('script', ['-qec', `stty cols ${columns} rows 24; ${line}`, '/dev/null'], {
    cwd: options.cwd ?? process.cwd(),
    env: cleanEnv({ TERM: 'xterm', ...options.env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
  const guard = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 240_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, screen });
    });
  });
}

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;

/** The text without its ANSI escapes (what takes room on the screen). */
export const withoutAnsi = (text: string): string => text.replace(ANSI, '');

/** The screen's lines as received, each without its line end (a line redrawn with \r still holds every frame). */
export function rawLines(screen: string): string[] {
  return screen.split('\n').map((line) => line.replace(/\r$/, ''));
}

/** Each piece written after a carriage return: one frame of a redrawn line (pieces of other lines included). */
export function framesOf(screen: string): string[] {
  return rawLines(screen).flatMap((line) => line.split('\r')).filter((frame) => frame.length > 0);
}

/** What a person sees once the command ended: each line as its last redraw left it (a \r writes over from col 0). */
export function visibleLines(screen: string): string[] {
  return rawLines(screen).map((line) =>
    line.split('\r').reduce((shown, frame) => frame + shown.slice(frame.length), ''),
  );
}
