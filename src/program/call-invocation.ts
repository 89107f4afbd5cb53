import type { FrameworkOptions } from '../runtime/authoring/command-spec.js';
import type { RegisteredCommand } from '../runtime/authoring/define-command.js';
import { FrameworkFlag } from '../runtime/authoring/framework-flags.js';
import type { Host } from '../runtime/authoring/host.js';
import { invocationKey } from '../runtime/call/invocation-key.js';
import type { Invocation, ProgramContext } from '../runtime/call/invocation.js';
import type { ParsedCall } from '../runtime/cli/parse-argv.js';
import type { Respond } from '../runtime/cli/respond.js';
import { withoutSecrets } from '../runtime/jobs/argv-secrets.js';
import { stateDirPath } from '../runtime/storage/state-dir.js';
import type { Spooled } from '../runtime/storage/stdin-spool.js';

/** A validated call's invocation: its flags, and the key that names it (with an idempotency key for a writer). */
export function invocationOf(
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
  // A URL's password is the caller's credential, not the work: the call that names the URL without it (as a
  // continue_command does, taking it from the environment) is the same invocation.
  const identityFlags = Object.fromEntries(
    Object.entries(parsed.given).filter(([name]) => local[name] !== undefined && local[name]!.identity !== false)
      .map(([name, value]) => [name, withoutPasswords(value)]),
  );
  const identityOf = (idempotencyKey?: string) =>
    invocationKey({
      program: identity.name,
      command: command.id,
      positionals: withoutPasswords(parsed.positionals) as Record<string, unknown>,
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

/** A parsed value (text, a list of texts, or an object of them) with no password in its URLs. */
function withoutPasswords(value: unknown): unknown {
  if (typeof value === 'string') return withoutSecrets(value);
  if (Array.isArray(value)) return value.map(withoutPasswords);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withoutPasswords(item)]));
  }
  return value;
}
