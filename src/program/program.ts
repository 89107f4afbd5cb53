import { rmSync } from 'node:fs';
import type { Envelope, ErrorDetail, FieldError } from '../contract/envelope.js';
import { buildEnvelope } from '../contract/envelope.js';
import { codeTable } from '../contract/code-table.js';
import type { DeclaredCodeSet } from '../contract/declared-codes.js';
import { ErrorCode } from '../contract/error-code.js';
import { ExitCode, type ProcessExitCode } from '../contract/exit-code.js';
import { StintError } from '../contract/stint-error.js';
import { OutputFormat } from '../contract/vocabulary/output-format.js';
import { ArgProblem } from '../contract/vocabulary/arg-problem.js';
import { Phase } from '../contract/vocabulary/phase.js';
import { StopReason } from '../contract/vocabulary/stop-reason.js';
import { resolveBudget, resolveTimeout } from '../runtime/authoring/budget.js';
import type { CodeTable } from '../contract/code-table.js';
import { jobCommands } from './builtins/job/job-commands.js';
import type { JobRecord } from '../runtime/jobs/job-record.js';
import { recordCheck } from '../runtime/jobs/job-words.js';
import { manifestCommand } from './builtins/manifest-command.js';
import type { CommandResult, CommandSpec, FrameworkOptions } from '../runtime/authoring/command-spec.js';
import { buildCommandTree } from '../runtime/cli/command-tree.js';
import { registerCommand, type RegisteredCommand } from '../runtime/authoring/define-command.js';
import { executeCommand } from '../runtime/call/execute-command.js';
import { cancelledEnvelope, finalEnvelope } from '../runtime/call/final-envelope.js';
import { FrameworkFlag, QUEUE_ENV } from '../runtime/authoring/framework-flags.js';
import { commandHelp, groupHelp, type ProgramIdentity } from '../runtime/cli/help-text.js';
import type { Host } from '../runtime/authoring/host.js';
import { runInterruptible } from '../runtime/jobs/interruptible-call.js';
import { runJob } from '../runtime/jobs/run-job.js';
import { RunMode } from '../runtime/jobs/run-mode.js';
import { invocationKey } from '../runtime/call/invocation-key.js';
import { streamsStdout, type Invocation, type ProgramContext } from '../runtime/call/invocation.js';
import { JobStore } from '../runtime/jobs/job-store.js';
import { buildManifest } from '../runtime/cli/manifest.js';
import { parseArgv, type ParsedCall } from '../runtime/cli/parse-argv.js';
import { respondTo, type Respond } from '../runtime/cli/respond.js';
import { stateDirPath } from '../runtime/storage/state-dir.js';
import { spoolStdin, type Spooled } from '../runtime/storage/stdin-spool.js';
import { StopController } from '../runtime/call/stop-controller.js';
import { resultOfThrown } from '../runtime/call/thrown.js';
import { checkListedCodes } from './listed-codes.js';
import { runStreaming, streamsItems } from '../runtime/call/stream-call.js';
import { confirmCall } from '../runtime/call/confirmation.js';
import { earlierAnswer, forgetAnswer } from '../runtime/call/keyed-replay.js';

/** What `createProgram` takes: the program's identity and its commands (each declared with `defineCommand`). */
export interface ProgramSpec extends ProgramIdentity {
  // Commands of any flag and positional shape; each was checked by defineCommand.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly commands: readonly CommandSpec<any, any, any>[];
  /** The program's own error and warning codes: what defineErrorCodes and defineWarningCodes returned. */
  readonly codes?: readonly DeclaredCodeSet[];
}

/** A program built by `createProgram`; `runCli` runs it as the process. */
export interface Program {
  readonly identity: ProgramIdentity;
  readonly commands: readonly RegisteredCommand[];
  /** Runs one call and returns the exit code; writes exactly one envelope in JSON mode. */
  main(host: Host): Promise<ProcessExitCode>;
  /** Runs a background job's work (the detached supervisor); its response goes to the job's folder. */
  supervise(host: Host, jobId: string): Promise<ProcessExitCode>;
}

function argError(errors: readonly FieldError[]): ErrorDetail {
  const first = errors[0]!;
  const suggestion = errors.find((e) => e.suggestion)?.suggestion;
  return {
    code: ErrorCode.ArgError,
    message: errors.length === 1 ? first.message : `${first.message} (and ${errors.length - 1} more)`,
    retryable: false,
    phase: Phase.Validation,
    fix_required: 'Correct the arguments named in error.errors and call again',
    ...(suggestion ? { suggestion: `did you mean ${suggestion}?` } : {}),
    errors,
  };
}

/**
 * Builds a program from commands and the codes it declares. The framework
 * adds `manifest` and the `job` commands; registration refuses contradictions.
 */
export function createProgram(spec: ProgramSpec, frameworkCommands: readonly CommandSpec[] = []): Program {
  const identity: ProgramIdentity = { name: spec.name, version: spec.version, description: spec.description };
  const authored = spec.commands.map((command) => registerCommand(command, false));
  let manifestCache: Record<string, unknown> | undefined;
  let program: ProgramContext;
  const builtins = [
    manifestCommand(() => (manifestCache ??= buildManifest(identity, program.commands))),
    ...jobCommands(() => program),
    // Commands the framework adds from a layer above this one (`worker`, from the commands layer).
    ...frameworkCommands,
  ].map((c) => registerCommand(c, true));
  const commands: readonly RegisteredCommand[] = [...authored, ...builtins];
  const seen = new Set<string>();
  for (const command of commands) {
    if (seen.has(command.id)) {
      throw new StintError(ErrorCode.RegistrationRefused, `command "${command.path.join(' ')}" is registered twice`, {
        context: { command: command.path.join(' '), field: 'name' },
      });
    }
    seen.add(command.id);
  }
  const codes = codeTable(spec.codes ?? []);
  checkListedCodes(commands, codes);
  program = { identity, commands, tree: buildCommandTree(commands), codes };
  return {
    identity,
    commands,
    main: (host) => runCall(program, host),
    supervise: (host, jobId) => superviseJob(program, host, jobId),
  };
}

/** Either a response to give at once (help, version, argument errors) or a validated invocation to run. */
type Resolution =
  | { readonly kind: 'answer'; readonly envelope: Envelope; readonly text?: string }
  | { readonly kind: 'run'; readonly inv: Invocation };

/** What the early answers of a call share: when it started, and the meta every one of them carries. */
interface CallStart {
  readonly elapsed: () => number;
  readonly meta: Record<string, unknown>;
}

/** `--version` and `--help` answer at once, whatever else the call holds. */
function immediateAnswer(
  identity: ProgramIdentity,
  host: Host,
  parsed: ParsedCall,
  format: OutputFormat,
  { elapsed, meta }: CallStart,
): Resolution | undefined {
  const command = parsed.node.command;
  if (parsed.globals.version) {
    const data = { name: identity.name, version: identity.version };
    return {
      kind: 'answer',
      envelope: buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: elapsed(), data, meta }),
      text: `${identity.name} ${identity.version}\n`,
    };
  }
  // Help for a command that does not exist is an argument error (with its "did you mean"), not the group's help.
  const unknownCommand = parsed.errors.some((e) => e.reason === ArgProblem.UnknownCommand);
  if (parsed.globals.help && !unknownCommand) {
    const text = command ? commandHelp(identity, command) : groupHelp(identity, parsed.node);
    if (format === OutputFormat.Json) host.writeStderr(text);
    const helpMeta = { ...meta, help: true, schema_ref: `${identity.name} manifest` };
    return {
      kind: 'answer',
      envelope: buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: elapsed(), meta: helpMeta }),
      text,
    };
  }
  return undefined;
}

/** A validated call's invocation: its flags, and the key that names it (with an idempotency key for a writer). */
function invocationOf(
  program: ProgramContext,
  host: Host,
  respond: Respond,
  parsed: ParsedCall,
  command: RegisteredCommand,
  resolved: FrameworkOptions,
  started: number,
  stdin?: Spooled,
): Invocation {
  const { identity } = program;
  let options = resolved;
  const local = command.spec.flags ?? {};
  const flags = Object.fromEntries(Object.entries(parsed.flags).filter(([name]) => local[name] !== undefined));
  const identityFlags = Object.fromEntries(
    Object.entries(parsed.given).filter(([name]) => local[name] !== undefined && local[name]!.identity !== false),
  );
  const identityOf = (idempotencyKey?: string) =>
    invocationKey({
      program: identity.name,
      command: command.id,
      positionals: parsed.positionals,
      flags: identityFlags,
      cwd: host.cwd,
      toolVersion: identity.version,
      ...(stdin ? { stdinDigest: stdin.digest } : {}),
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    });
  const argumentsDigest = identityOf();
  let key = argumentsDigest;
  if (command.flags[FrameworkFlag.IdempotencyKey]) {
    // A writer without a key gets one derived from the invocation, so that the
    // continuation that names it explicitly is the same invocation.
    const given = parsed.flags[FrameworkFlag.IdempotencyKey] as string | undefined;
    const effective = given ?? `auto-${key.slice(0, 16)}`;
    options = { ...options, idempotencyKey: effective, idempotencyKeyGiven: given !== undefined };
    key = identityOf(effective);
  }
  return {
    program,
    host,
    command,
    flags,
    positionals: parsed.positionals,
    options,
    key,
    argumentsDigest,
    stdinPath: stdin?.path,
    started,
    heartbeatMs: parsed.flags[FrameworkFlag.HeartbeatMs] as number | undefined,
    respond,
    stateRoot: stateDirPath(host.env, identity.name),
    ...(command.spec.confirm ? { confirmation: confirmationOf(parsed) } : {}),
  };
}

function confirmationOf(parsed: ParsedCall): NonNullable<Invocation['confirmation']> {
  const given = parsed.flags;
  return { yes: given[FrameworkFlag.Yes] === true, nonInteractive: given[FrameworkFlag.NonInteractive] === true };
}

function resolveCall(
  program: ProgramContext,
  host: Host,
  respond: Respond,
  format: OutputFormat,
  stdin?: Spooled,
): Resolution {
  const { identity } = program;
  const started = host.now();
  const parsed = parseArgv(program.tree, host.argv);
  const command = parsed.node.command;
  const elapsed = () => host.now() - started;
  const baseMeta = { ...(command ? { command: command.path.join(' ') } : {}), tool_version: identity.version };
  const immediate = immediateAnswer(identity, host, parsed, format, { elapsed, meta: baseMeta });
  if (immediate) return immediate;

  const errors = [...parsed.errors];
  let options: FrameworkOptions = { budgetMs: undefined, timeoutMs: undefined, idempotencyKey: undefined, format };
  if (command?.spec.interruption) {
    const flagMs = parsed.flags[FrameworkFlag.Budget] as number | undefined;
    const budget = resolveBudget({ flagMs, env: host.env, interactive: host.stdinIsTTY });
    if (!budget.ok) errors.push(budget.error);
    else {
      const timeoutFlag = parsed.flags[FrameworkFlag.Timeout] as number | undefined;
      const timeoutMs = resolveTimeout(timeoutFlag, command.spec.interruption);
      // STINT_QUEUE is a default for the commands that take --queue; the others run as they would without it.
      const takesQueue = command.spec.interruption?.chunks !== false;
      const queue = takesQueue
        ? (parsed.flags[FrameworkFlag.Queue] as string | undefined) || host.env[QUEUE_ENV] || undefined
        : undefined;
      options = { ...options, budgetMs: budget.budgetMs, timeoutMs, ...(queue ? { queue } : {}) };
    }
  }
  if (errors.length > 0 || !command) {
    if (!command && format === OutputFormat.Text) host.writeStderr(groupHelp(identity, parsed.node));
    const limits = {
      ...(options.budgetMs !== undefined ? { budget_ms: options.budgetMs } : {}),
      ...(options.timeoutMs !== undefined ? { timeout_ms: options.timeoutMs } : {}),
    };
    const meta = { ...baseMeta, ...limits };
    return {
      kind: 'answer',
      envelope: buildEnvelope({ exitCode: ExitCode.ARG_ERROR, durationMs: elapsed(), error: argError(errors), meta }),
    };
  }
  return { kind: 'run', inv: invocationOf(program, host, respond, parsed, command, options, started, stdin) };
}

async function runCall(program: ProgramContext, host: Host): Promise<ProcessExitCode> {
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
    if (format === OutputFormat.Text && resolution.text !== undefined && resolution.envelope.ok) {
      await answerHost.writeStdout(resolution.text);
      return ExitCode.SUCCESS;
    }
    return respond(resolution.envelope);
  }
  const { spec } = resolution.inv.command;
  const view = { width: answerHost.stdoutColumns?.() };
  const text = spec.text ? (data: unknown) => spec.text!(data, view) : undefined;
  // A repeated key is answered before anything runs or asks (REQ-C-007).
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

/** A direct call's answer, and the text its result asks to show on stdout in text mode. */
interface Answered {
  readonly envelope: Envelope;
  readonly shown?: () => string | Promise<string>;
}

/** A command without interruption: no safe points, so a signal answers CANCELLED at once (REQ-F-013, F-069). */
async function runDirect(inv: Invocation): Promise<Answered> {
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

/**
 * A relay (`CommandSpec.relay`) passes a signal on to the command it runs and waits for it: the call then
 * answers CANCELLED with the handler's data (the callee's continue_command, so nothing is lost), unless the
 * handler relays a final answer verbatim.
 */
async function runRelay(inv: Invocation): Promise<Envelope> {
  let heard: 'SIGINT' | 'SIGTERM' | undefined;
  // ctx.stopRequested() tells a handler of a signal that came before it listened.
  const stop = new StopController();
  const offs = (['SIGINT', 'SIGTERM'] as const).map((signal) => inv.host.onSignal(signal, () => {
    heard ??= signal;
    stop.request(signal === 'SIGINT' ? StopReason.Interrupt : StopReason.Terminate);
  }));
  try {
    const execution = await executeCommand(inv, stop);
    await execution.finish(true);
    const { result } = execution;
    if (heard === undefined || result.verbatim) return finalEnvelope(inv, result, execution.warnings);
    const message = `Cancelled by ${heard}; the work done is kept and data.continue_command continues it`;
    return cancelledEnvelope(inv, heard, (result.data ?? {}) as object, message);
  } finally {
    for (const off of offs) off();
  }
}

/** The job the supervisor is to run; undefined (said on stderr, its log) when it is missing or refused. */
function trustedRecord(store: JobStore, jobId: string, host: Host): JobRecord | undefined {
  try {
    const job = store.readRecord(jobId);
    if (!job) host.writeStderr(`supervisor: no job ${jobId}\n`);
    return job;
  } catch (thrown) {
    host.writeStderr(`supervisor: job ${jobId} is refused: ${(thrown as Error).message}\n`);
    return undefined;
  }
}

/** The detached supervisor: continue the job's work with no budget; the response goes to the job's folder. */
async function superviseJob(program: ProgramContext, host: Host, jobId: string): Promise<ProcessExitCode> {
  const root = stateDirPath(host.env, program.identity.name);
  const store = new JobStore(root, recordCheck(host.programWords, host.env));
  const job = trustedRecord(store, jobId, host);
  if (!job) return ExitCode.GENERAL_ERROR;
  if (!store.takeLease(job.id, host.pid)) {
    host.writeStderr(`supervisor: job ${jobId} is run by another process\n`);
    return ExitCode.SUCCESS;
  }
  const jobHost: Host = {
    ...host,
    argv: job.argv,
    cwd: job.cwd,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    programWords: () => job.programWords,
  };
  const respond: Respond = async (envelope) => envelope.meta.exit_code;
  const resolution = resolveCall(program, jobHost, respond, OutputFormat.Json);
  if (resolution.kind !== 'run') {
    host.writeStderr(`supervisor: job ${jobId} cannot be run: ${resolution.envelope.error?.message ?? 'no command'}\n`);
    return ExitCode.GENERAL_ERROR;
  }
  const inv: Invocation = {
    ...resolution.inv,
    key: job.key,
    heartbeatMs: undefined,
    stdinPath: job.stdinPath,
    options: { ...resolution.inv.options, budgetMs: undefined, timeoutMs: job.timeoutMs || undefined },
  };
  const announce = () => host.writeStderr(`supervisor: pid ${host.pid} runs job ${job.id}\n`);
  const outcome = await runJob(inv, store, job, RunMode.Supervisor, announce);
  const code = outcome.kind === 'ended' ? outcome.envelope.meta.exit_code : ExitCode.INCOMPLETE;
  const how = outcome.kind === 'ended' ? `ended with exit ${code}` : 'paused at a safe point';
  host.writeStderr(`supervisor: job ${job.id} ${how}\n`);
  return code;
}
