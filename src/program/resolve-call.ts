import type { ErrorDetail, FieldError } from '../contract/envelope.js';
import { buildEnvelope } from '../contract/envelope.js';
import { ErrorCode } from '../contract/error-code.js';
import { ExitCode } from '../contract/exit-code.js';
import { OutputFormat } from '../contract/vocabulary/output-format.js';
import { Phase } from '../contract/vocabulary/phase.js';
import { resolveBudget, resolveTimeout } from '../runtime/authoring/budget.js';
import type { FrameworkOptions } from '../runtime/authoring/command-spec.js';
import { FrameworkFlag, QUEUE_ENV } from '../runtime/authoring/framework-flags.js';
import { groupHelp } from '../runtime/cli/help-text.js';
import type { Host } from '../runtime/authoring/host.js';
import type { ProgramContext } from '../runtime/call/invocation.js';
import { parseArgv } from '../runtime/cli/parse-argv.js';
import type { Respond } from '../runtime/cli/respond.js';
import type { Spooled } from '../runtime/storage/stdin-spool.js';
import { invocationOf } from './call-invocation.js';
import { immediateAnswer } from './immediate-answer.js';
import type { Resolution } from './resolution.js';

function argError(errors: readonly FieldError[]): ErrorDetail {
  const first = errors[0]!;
  const suggestion = errors.find((e) => e.suggestion)?.suggestion;
  return {
    code: ErrorCode.ArgError,
    message: errors.length === 1 ? first.message : `${first.message} (and ${errors.length - 1} more)`,
    retryable: false,
    phase: Phase.Validation,
    fix_required: 'Correct the arguments this error names and call again (--help lists them)',
    ...(suggestion ? { suggestion: `did you mean ${suggestion}?` } : {}),
    errors,
  };
}

export function resolveCall(
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
    // A group's help goes to stderr before its argument error, for a person reading text.
    const help = !command && format === OutputFormat.Text
      ? { help: { text: groupHelp(identity, parsed.node), width: host.stderrColumns?.(), toStderr: true } }
      : {};
    const limits = {
      ...(options.budgetMs !== undefined ? { budget_ms: options.budgetMs } : {}),
      ...(options.timeoutMs !== undefined ? { timeout_ms: options.timeoutMs } : {}),
    };
    const meta = { ...baseMeta, ...limits };
    return {
      kind: 'answer',
      envelope: buildEnvelope({ exitCode: ExitCode.ARG_ERROR, durationMs: elapsed(), error: argError(errors), meta }),
      ...help,
    };
  }
  return { kind: 'run', inv: invocationOf(program, host, respond, parsed, command, options, started, stdin) };
}
