import { rmSync } from 'node:fs';
import { ExitCode, type ProcessExitCode } from '../contract/exit-code.js';
import { OutputFormat } from '../contract/vocabulary/output-format.js';
import type { CodeTable } from '../contract/code-table.js';
import type { CommandResult } from '../runtime/authoring/command-spec.js';
import { finalEnvelope } from '../runtime/call/final-envelope.js';
import type { Host } from '../runtime/authoring/host.js';
import { runInterruptible } from '../runtime/jobs/interruptible-call.js';
import { streamsStdout, type Invocation, type ProgramContext } from '../runtime/call/invocation.js';
import { parseArgv } from '../runtime/cli/parse-argv.js';
import { respondTo } from '../runtime/cli/respond.js';
import { spoolStdin, type Spooled } from '../runtime/storage/stdin-spool.js';
import { resultOfThrown } from '../runtime/call/thrown.js';
import { runStreaming, streamsItems } from '../runtime/call/stream-call.js';
import { confirmCall } from '../runtime/call/confirmation.js';
import { earlierAnswer, forgetAnswer } from '../runtime/call/keyed-replay.js';
import { resolveCall } from './resolve-call.js';
import { helpText } from './resolution.js';
import { type Answered, runDirect } from './run-direct.js';

export async function runCall(program: ProgramContext, host: Host): Promise<ProcessExitCode> {
  // The format is read first and alone, so that even an argument error answers in it.
  const early = parseArgv(program.tree, host.argv);
  // A call whose data streams to stdout answers on stderr (in text when a person reads stderr).
  const streams = early.node.command?.spec.streamsStdout?.(early.flags as never) === true;
  const answerHost: Host = streams ? { ...host, writeStdout: async (text) => host.writeStderr(text) } : host;
  const answersToTTY = streams ? host.stderrIsTTY : host.stdoutIsTTY;
  const format = early.globals.format ?? (answersToTTY ? OutputFormat.Text : OutputFormat.Json);
  const respond = respondTo(answerHost, format, program.identity);
  let resolution = resolveCall(program, host, respond, format);
  const stdinSpec = resolution.kind === 'run' ? resolution.inv.command.spec.stdin : undefined;
  let spool: Spooled | undefined;
  if (resolution.kind === 'run' && stdinSpec && (stdinSpec.when?.(resolution.inv.positionals) ?? true)) {
    // Only a command that declares stdin ever reads it, and it reads all of it before any work.
    try {
      spool = await spoolStdin(host, stdinSpec, resolution.inv.stateRoot);
    } catch (thrown) {
      return respond(finalEnvelope(resolution.inv, resultOfThrown(thrown, program.codes), []));
    }
    resolution = resolveCall(program, host, respond, format, spool);
  }
  if (resolution.kind === 'answer') {
    const { help, envelope } = resolution;
    const shown = help ? await helpText(help) : undefined;
    if (help?.toStderr) host.writeStderr(shown!);
    const text = help?.toStderr ? undefined : shown ?? resolution.text;
    if (format === OutputFormat.Text && text !== undefined && envelope.ok) {
      await answerHost.writeStdout(text);
      return ExitCode.SUCCESS;
    }
    return respond(envelope);
  }
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
    if (streamsItems(inv, early.flags)) return await runStreaming(inv, format, text);
    if (inv.command.spec.interruption) {
      const call = await runInterruptible(inv);
      const code = await respond(call.envelope, text);
      await call.after?.();
      return code;
    }
    return await answer(await runDirect(inv));
  } catch (thrown) {
    // The framework's own I/O failed (a full disk, a state folder that refuses writes): still one coded answer.
    return await respond(finalEnvelope(inv, resultOfThrown(thrown, program.codes), []));
  } finally {
    // A job adopts its spool; anything left is this call's alone.
    if (spool) rmSync(spool.path, { force: true });
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
