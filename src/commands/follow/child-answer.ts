import type { Envelope } from '../../contract/envelope.js';
import { ExitCode } from '../../contract/exit-code.js';
import { StintError } from '../../contract/stint-error.js';
import { StintCode } from '../stint-codes.js';

/** How a followed command ended: what it printed, its exit, and the last lines it said on stderr. */
export interface ChildEnd {
  readonly line: string;
  readonly stdout: string;
  readonly code: number | null;
  readonly signal: string | null;
  readonly stderrTail: string;
}

const SHOWN_STDOUT = 200;
const KEYS = ['ok', 'data', 'error', 'warnings', 'meta'] as const;

/** What is wrong with an answer as an envelope of the contract, if anything. */
function problemOf(value: unknown, end: ChildEnd): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'stdout is not a JSON object';
  const envelope = value as Record<string, unknown>;
  const missing = KEYS.find((key) => !Object.hasOwn(envelope, key));
  if (missing) return `the envelope has no "${missing}"`;
  const exitCode = (envelope['meta'] as { exit_code?: unknown } | null)?.exit_code;
  if (typeof exitCode !== 'number') return 'meta.exit_code is not a number';
  // A shell between us and the callee may die of the signal we passed on after the callee answered.
  if (end.code !== null && exitCode !== end.code) return `meta.exit_code ${exitCode} is not the exit ${end.code}`;
  if (exitCode === ExitCode.INCOMPLETE) return incompleteProblem(envelope['data']);
  return undefined;
}

/** An INCOMPLETE answer must say how to go on: the loop runs these, and reads progress.done. */
function incompleteProblem(data: unknown): string | undefined {
  type Fields = { continue_command?: unknown; cancel_command?: unknown; progress?: { done?: unknown } };
  const fields = (data ?? {}) as Fields;
  if (typeof fields.continue_command !== 'string') return 'an INCOMPLETE answer without data.continue_command';
  if (typeof fields.cancel_command !== 'string') return 'an INCOMPLETE answer without data.cancel_command';
  if (typeof fields.progress?.done !== 'number') return 'an INCOMPLETE answer without data.progress.done';
  return undefined;
}

function parsed(stdout: string): unknown {
  try {
    return JSON.parse(stdout);
  } catch {
    return undefined;
  }
}

/** The followed command's envelope; anything else is NOT_AN_ENVELOPE, with its last stderr lines as detail. */
export function envelopeOf(end: ChildEnd): Envelope {
  const value = parsed(end.stdout);
  const problem = value === undefined ? 'stdout is not one JSON document' : problemOf(value, end);
  if (problem === undefined) return value as Envelope;
  const how = end.code !== null ? `exit ${end.code}` : `killed by ${end.signal}`;
  throw new StintError(StintCode.NotAnEnvelope, `"${end.line}" (${how}) did not answer an envelope: ${problem}`, {
    retryable: false,
    ...(end.stderrTail ? { detail: end.stderrTail } : {}),
    context: {
      command: end.line, exit_code: end.code, signal: end.signal, stdout: end.stdout.slice(0, SHOWN_STDOUT),
    },
  });
}
