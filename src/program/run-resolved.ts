import { rmSync } from 'node:fs';
import type { ProcessExitCode } from '../contract/exit-code.js';
import { OutputFormat } from '../contract/vocabulary/output-format.js';
import type { CodeTable } from '../contract/code-table.js';
import type { CommandResult } from '../runtime/authoring/command-spec.js';
import { finalEnvelope } from '../runtime/call/final-envelope.js';
import { streamsStdout, type Invocation } from '../runtime/call/invocation.js';
import type { Spooled } from '../runtime/storage/stdin-spool.js';
import { resultOfThrown } from '../runtime/call/thrown.js';
import { confirmCall } from '../runtime/call/confirmation.js';
import { earlierAnswer, forgetAnswer } from '../runtime/call/keyed-replay.js';
import { resolveCall } from './resolve-call.js';
import type { Resolution } from './resolution.js';
import { answerAtOnce, type CallAnswering } from './call-answering.js';
import { type Answered, runDirect } from './run-direct.js';

/**
 * A call resolved to a command: its standard input spooled when it reads one, then run as its kind runs. What only
 * some kinds take (the spool, streams, jobs) loads when a call needs it: `job list` starts as fast as it can.
 */
export async function runResolved(
  answering: CallAnswering,
  first: Extract<Resolution, { kind: 'run' }>,
): Promise<ProcessExitCode> {
  const { program, host, respond, format } = answering;
  const stdinSpec = first.inv.command.spec.stdin;
  if (!stdinSpec || !(stdinSpec.when?.(first.inv.positionals) ?? true)) return runCommand(answering, first);
  // Only a command that declares stdin ever reads it, and it reads all of it before any work.
  let spool: Spooled;
  try {
    const { spoolStdin } = await import('../runtime/storage/stdin-spool.js');
    spool = await spoolStdin(host, stdinSpec, first.inv.stateRoot);
  } catch (thrown) {
    return respond(finalEnvelope(first.inv, resultOfThrown(thrown, program.codes), []));
  }
  const resolution = resolveCall(program, host, respond, format, spool);
  try {
    if (resolution.kind === 'answer') return await answerAtOnce(answering, resolution);
    return await runCommand(answering, resolution);
  } finally {
    // A job adopts its spool; anything left is this call's alone.
    rmSync(spool.path, { force: true });
  }
}

async function runCommand(
  { program, answerHost, format, respond, flags }: CallAnswering,
  resolution: Extract<Resolution, { kind: 'run' }>,
): Promise<ProcessExitCode> {
  const { spec } = resolution.inv.command;
  const view = { width: answerHost.stdoutColumns?.() };
  const text = spec.text ? (data: unknown) => spec.text!(data, view) : undefined;
  // A repeated --idempotency-key gets its first answer before anything runs or asks: a retry writes nothing.
  const earlier = await answerOfKey(resolution.inv, program.codes);
  if (earlier) return respond(finalEnvelope(resolution.inv, earlier, []), text);
  const gate = await confirmCall(resolution.inv);
  if (gate.kind === 'refuse') return respond(gate.envelope);
  const inv = gate.inv;
  // A result's own text takes the place of its data's on stdout; stderr says what it says for any answer.
  const answer = async ({ envelope, shown }: Answered) => {
    if (format !== OutputFormat.Text || !shown) return respond(envelope, text);
    await answerHost.writeStdout(await shown());
    return respond({ ...envelope, data: null }, text);
  };
  try {
    forgetAnswer(inv);
    // A stream cannot pause and be continued by another call: it runs to its end, with no budget and no job.
    if (streamsStdout(inv)) {
      const unbudgeted = { ...inv, options: { ...inv.options, budgetMs: 0, timeoutMs: undefined } };
      return await answer(await runDirect(unbudgeted));
    }
    if (inv.command.spec.streaming) {
      const streams = await import('../runtime/call/stream-call.js');
      if (streams.streamsItems(inv, flags)) return await streams.runStreaming(inv, format, text);
    }
    if (inv.command.spec.interruption) {
      const { runInterruptible } = await import('../runtime/jobs/interruptible-call.js');
      const call = await runInterruptible(inv);
      const code = await respond(call.envelope, text);
      await call.after?.();
      return code;
    }
    return await answer(await runDirect(inv));
  } catch (thrown) {
    // The framework's own I/O failed (a full disk, a state folder that refuses writes): still one coded answer.
    return await respond(finalEnvelope(inv, resultOfThrown(thrown, program.codes), []));
  }
}

/** A repeated key's answer (keyed-replay.ts), or the coded failure to look for one; undefined: the call goes on. */
async function answerOfKey(inv: Invocation, codes: CodeTable): Promise<CommandResult | undefined> {
  try {
    return await earlierAnswer(inv);
  } catch (thrown) {
    return resultOfThrown(thrown, codes);
  }
}
