import type { Envelope, ErrorDetail, FieldError, WarningDetail } from '../contract/envelope.js';
import { buildEnvelope } from '../contract/envelope.js';
import { ErrorCode } from '../contract/error-code.js';
import { ExitCode, type ProcessExitCode } from '../contract/exit-code.js';
import { StintError, isStintErrorLike } from '../contract/stint-error.js';
import { OutputFormat } from '../contract/vocabulary/output-format.js';
import { Phase } from '../contract/vocabulary/phase.js';
import { resolveBudget, resolveTimeout } from './budget.js';
import type { CommandInput, CommandResult, CommandSpec, FrameworkOptions } from './command-spec.js';
import { createCallContext } from './call-context.js';
import { invocationKey } from './invocation-key.js';
import { buildCommandTree, type CommandNode } from './command-tree.js';
import { registerCommand, type RegisteredCommand } from './define-command.js';
import { FrameworkFlag } from './framework-flags.js';
import { commandHelp, groupHelp, type ProgramIdentity } from './help-text.js';
import type { Host } from './host.js';
import { buildManifest } from './manifest.js';
import { manifestCommand } from './builtins/manifest-command.js';
import { paintFor, renderErrorText, renderJson, renderWarningsText, outline } from './render.js';
import { parseArgv } from './parse-argv.js';
import { heartbeat, terminalBar } from './progress-display.js';

export interface ProgramSpec extends ProgramIdentity {
  // Commands of any flag and positional shape; each was checked by defineCommand.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly commands: readonly CommandSpec<any, any, any>[];
}

export interface Program {
  readonly identity: ProgramIdentity;
  readonly commands: readonly RegisteredCommand[];
  /** Runs one call and returns the exit code; writes exactly one envelope in JSON mode. */
  main(host: Host): Promise<ProcessExitCode>;
}

/** What one call resolved to before anything ran. */
interface Call {
  readonly host: Host;
  readonly started: number;
  readonly format: OutputFormat;
  readonly command?: RegisteredCommand;
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
 * Builds a program from commands. The framework adds `manifest` (and,
 * once jobs exist, `job ...`); registration refuses contradictions.
 */
export function createProgram(spec: ProgramSpec): Program {
  const identity: ProgramIdentity = { name: spec.name, version: spec.version, description: spec.description };
  const authored = spec.commands.map((command) => registerCommand(command, false));
  let manifestCache: Record<string, unknown> | undefined;
  const builtins = [manifestCommand(() => (manifestCache ??= buildManifest(identity, commands)))].map((c) => registerCommand(c, true));
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
  const tree = buildCommandTree(commands);
  return { identity, commands, main: (host) => runCall(identity, tree, host) };
}

async function write(call: Call, identity: ProgramIdentity, envelope: Envelope, text?: (data: unknown) => string): Promise<ProcessExitCode> {
  const { host } = call;
  if (call.format === OutputFormat.Json) {
    await host.writeStdout(renderJson(envelope));
  } else {
    const paint = paintFor(host.stderrIsTTY, host.env);
    host.writeStderr(renderWarningsText(identity.name, envelope, paint));
    if (envelope.ok) {
      if (envelope.data !== null) await host.writeStdout(text ? text(envelope.data) : outline(envelope.data));
    } else {
      host.writeStderr(renderErrorText(identity.name, envelope, paint));
      // A failure's data is the command's own (a partial outcome) except on INCOMPLETE.
      const own = text && envelope.meta.exit_code !== ExitCode.INCOMPLETE;
      if (envelope.data !== null) await host.writeStdout(own ? text(envelope.data) : outline(envelope.data));
    }
  }
  return envelope.meta.exit_code;
}

function baseMeta(identity: ProgramIdentity, command: RegisteredCommand | undefined): Record<string, unknown> {
  return { ...(command ? { command: command.path.join(' ') } : {}), tool_version: identity.version };
}

async function runCall(identity: ProgramIdentity, root: CommandNode, host: Host): Promise<ProcessExitCode> {
  const started = host.now();
  const parsed = parseArgv(root, host.argv);
  const format = parsed.globals.format ?? (host.stdoutIsTTY ? OutputFormat.Text : OutputFormat.Json);
  const command = parsed.node.command;
  const out: Call = { host, started, format, ...(command ? { command } : {}) };
  const elapsed = () => host.now() - started;

  if (parsed.globals.version) {
    const envelope = buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: elapsed(), data: { name: identity.name, version: identity.version }, meta: baseMeta(identity, undefined) });
    return write(out, identity, envelope, () => `${identity.name} ${identity.version}\n`);
  }
  if (parsed.globals.help) {
    const text = command ? commandHelp(identity, command) : groupHelp(identity, parsed.node);
    if (format === OutputFormat.Text) {
      await host.writeStdout(text);
      return ExitCode.SUCCESS;
    }
    host.writeStderr(text);
    const schemaRef = `${identity.name} manifest`;
    return write(out, identity, buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: elapsed(), meta: { ...baseMeta(identity, command), help: true, schema_ref: schemaRef } }));
  }

  const errors = [...parsed.errors];
  let options: FrameworkOptions = { budgetMs: undefined, timeoutMs: undefined, idempotencyKey: undefined };
  if (command?.spec.interruption) {
    const budget = resolveBudget({ flagMs: parsed.flags[FrameworkFlag.Budget] as number | undefined, env: host.env, interactive: host.stdinIsTTY });
    if (!budget.ok) errors.push(budget.error);
    else options = { ...options, budgetMs: budget.budgetMs, timeoutMs: resolveTimeout(parsed.flags[FrameworkFlag.Timeout] as number | undefined, command.spec.interruption) };
  }
  if (command && command.flags[FrameworkFlag.IdempotencyKey]) {
    options = { ...options, idempotencyKey: parsed.flags[FrameworkFlag.IdempotencyKey] as string | undefined };
  }
  const limitsMeta = {
    ...(options.budgetMs !== undefined ? { budget_ms: options.budgetMs } : {}),
    ...(options.timeoutMs !== undefined ? { timeout_ms: options.timeoutMs } : {}),
  };

  if (errors.length > 0 || !command) {
    if (!command && format === OutputFormat.Text) host.writeStderr(groupHelp(identity, parsed.node));
    const envelope = buildEnvelope({ exitCode: ExitCode.ARG_ERROR, durationMs: elapsed(), error: argError(errors), meta: { ...baseMeta(identity, command), ...limitsMeta } });
    return write(out, identity, envelope);
  }

  const warnings: WarningDetail[] = [];
  const localFlags = Object.fromEntries(Object.entries(parsed.flags).filter(([name]) => command.spec.flags?.[name] !== undefined));
  const identityFlags = Object.fromEntries(Object.entries(parsed.given).filter(([name]) => command.spec.flags?.[name] !== undefined && command.spec.flags[name]!.identity !== false));
  const key = invocationKey({
    command: command.id,
    positionals: parsed.positionals,
    flags: identityFlags,
    cwd: host.cwd,
    toolVersion: identity.version,
    ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
  });
  const heartbeatMs = parsed.flags[FrameworkFlag.HeartbeatMs] as number | undefined;
  const label = [identity.name, ...command.path].join(' ');
  const display = heartbeatMs ? heartbeat(host, label, heartbeatMs, started) : host.stderrIsTTY && command.spec.interruption ? terminalBar(host, label, started) : undefined;
  const call = createCallContext({ host, invocationKey: key, warnings, stopRequested: () => false, ...(display ? { onProgress: (p) => display.update(p) } : {}) });
  const ctx = call.ctx;
  const input = { flags: localFlags, positionals: parsed.positionals, options } as unknown as CommandInput<never, never>;

  let result: CommandResult;
  try {
    result = await command.spec.run(input, ctx);
  } catch (thrown) {
    result = resultOfThrown(thrown);
  }
  display?.end();
  result = checkDeclared(command, result);
  await call.finish(workEnded(result.exitCode));
  const envelope = buildEnvelope({
    exitCode: result.exitCode,
    durationMs: elapsed(),
    data: result.data ?? null,
    error: result.exitCode === ExitCode.SUCCESS ? null : (result.error ?? null),
    warnings: [...warnings, ...(result.warnings ?? [])],
    meta: { ...result.meta, ...baseMeta(identity, command), ...limitsMeta },
  });
  return write(out, identity, envelope, command.spec.text ? (data) => command.spec.text!(data) : undefined);
}

/** Exits after which nothing is left to continue, so the checkpoint goes. */
function workEnded(exitCode: ProcessExitCode): boolean {
  return exitCode !== ExitCode.INCOMPLETE && exitCode !== ExitCode.GENERAL_ERROR && exitCode !== ExitCode.TIMEOUT && exitCode !== ExitCode.UNAVAILABLE;
}

/** A thrown StintError keeps its code; anything else is an INTERNAL_ERROR with a one-line message. */
export function resultOfThrown(thrown: unknown): CommandResult {
  if (thrown instanceof StintError) return { exitCode: thrown.exitCode, error: thrown.toDetail() };
  const message = isStintErrorLike(thrown) ? thrown.message : thrown instanceof Error ? thrown.message : String(thrown);
  return {
    exitCode: ExitCode.GENERAL_ERROR,
    error: { code: ErrorCode.InternalError, message: message.split('\n')[0] || 'unexpected error', retryable: false, phase: Phase.Execution },
  };
}

/** An exit the command did not declare is a defect in the command, reported as such. */
function checkDeclared(command: RegisteredCommand, result: CommandResult): CommandResult {
  if (Object.hasOwn(command.exitCodes, result.exitCode)) return result;
  return {
    exitCode: ExitCode.GENERAL_ERROR,
    error: {
      code: ErrorCode.UndeclaredExitCode,
      message: `command "${command.path.join(' ')}" tried to exit ${result.exitCode}, which it does not declare`,
      retryable: false,
      phase: Phase.Execution,
      context: { attempted_exit_code: result.exitCode, ...(result.error ? { attempted_error: result.error } : {}) },
    },
  };
}
