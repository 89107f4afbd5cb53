import type { ProcessExitCode } from '../contract/exit-code.js';
import { OutputFormat } from '../contract/vocabulary/output-format.js';
import type { Host } from '../runtime/authoring/host.js';
import type { ProgramContext } from '../runtime/call/invocation.js';
import { parseArgv } from '../runtime/cli/parse-argv.js';
import { respondTo } from '../runtime/cli/respond.js';
import { answerAtOnce } from './call-answering.js';
import { resolveCall } from './resolve-call.js';

/**
 * One call: parsed and resolved here; help, --version and argument errors answered at once. Only a call that runs
 * a command loads what running takes (run-resolved.ts): jobs, checkpoints, streams.
 */
export async function runCall(program: ProgramContext, host: Host): Promise<ProcessExitCode> {
  // The format is read first and alone, so that even an argument error answers in it.
  const early = parseArgv(program.tree, host.argv);
  // A call whose data streams to stdout answers on stderr (in text when a person reads stderr).
  const streams = early.node.command?.spec.streamsStdout?.(early.flags as never) === true;
  const answerHost: Host = streams ? { ...host, writeStdout: async (text) => host.writeStderr(text) } : host;
  const answersToTTY = streams ? host.stderrIsTTY : host.stdoutIsTTY;
  const format = early.globals.format ?? (answersToTTY ? OutputFormat.Text : OutputFormat.Json);
  const respond = respondTo(answerHost, format, program.identity);
  const answering = { program, host, answerHost, format, respond, flags: early.flags };
  const resolution = resolveCall(program, host, respond, format);
  if (resolution.kind === 'answer') return answerAtOnce(answering, resolution);
  const { runResolved } = await import('./run-resolved.js');
  return runResolved(answering, resolution);
}
