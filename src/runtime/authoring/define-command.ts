import { ErrorCode } from '../../contract/error-code.js';
import {
  ExitCode, SignalExitCode, STANDARD_EXIT_CODES, isCommandExitCode, type ExitCodeEntry,
} from '../../contract/exit-code.js';
import { StintError } from '../../contract/stint-error.js';
import { DangerLevel, writes } from '../../contract/vocabulary/danger-level.js';
import { isMemberOf } from '../../contract/vocabulary/closed-set.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import type { CommandSpec, FlagSpec, PositionalSpec } from './command-spec.js';
import { DRY_RUN_FLAG, FrameworkFlag, GLOBAL_FLAGS, frameworkFlagsFor } from './framework-flags.js';
import { STREAM_FLAGS } from './stream-flag.js';

const NAME = /^[a-z][a-z0-9-]*$/;
const CODE = /^[A-Z][A-Z0-9_]+$/;
const INTERRUPTION_MIN_MS = 1_000;

/** What the framework declares for 12 on an interruptible command: a full disk keeps the work done. */
const NO_SPACE_ENTRY = (isWriter: boolean): Pick<ExitCodeEntry, 'description' | 'retryable' | 'sideEffects'> => ({
  description: 'A disk the work writes to is full (NO_SPACE) or a resource is busy; the work done is kept; call again',
  // A writer may have committed part of its work: retrying is safe only as the same call (its idempotency key).
  retryable: !isWriter,
  sideEffects: isWriter ? SideEffects.Partial : SideEffects.None,
});

/** What a call with --queue answers when its Redis refuses it (never retryable as it is). */
const QUEUE_ACCESS_ENTRIES: Readonly<Record<number, ExitCodeEntry>> = {
  [ExitCode.AUTH_REQUIRED]: {
    ...STANDARD_EXIT_CODES[ExitCode.AUTH_REQUIRED],
    description: 'The Redis of --queue refused the credentials (AUTH_REQUIRED): set STINT_QUEUE_PASSWORD',
    errorCodes: [ErrorCode.AuthRequired],
  },
  [ExitCode.PERMISSION_DENIED]: {
    ...STANDARD_EXIT_CODES[ExitCode.PERMISSION_DENIED],
    description: 'An input cannot be read, or the Redis user of --queue lacks a right (PERMISSION_DENIED)',
  },
};

/** An entry that also lists `code` (kept once): the framework's code beside the author's own. */
const listing = (entry: ExitCodeEntry, code: string): ExitCodeEntry =>
  ({ ...entry, errorCodes: [...new Set([...(entry.errorCodes ?? []), code])] });

/** A command that asks first also exits 2 when it is not confirmed. */
const UNCONFIRMED_ENTRY: ExitCodeEntry = {
  ...STANDARD_EXIT_CODES[ExitCode.ARG_ERROR],
  description: 'Invalid arguments, or not confirmed (CONFIRMATION_REQUIRED: add --yes); nothing was done',
};

/** A writer whose repeats the framework answers (keyed-replay.ts) refuses its key with other arguments. */
const KEY_REUSED_ENTRY: ExitCodeEntry = {
  ...STANDARD_EXIT_CODES[ExitCode.CONFLICT],
  description: 'The --idempotency-key already answered other arguments (IDEMPOTENCY_KEY_REUSED); nothing was done',
  errorCodes: [ErrorCode.IdempotencyKeyReused],
};

/** A command after registration: validated, with the framework's flags and exit codes added. */
export interface RegisteredCommand {
  readonly spec: CommandSpec;
  /** `['job', 'wait']` */
  readonly path: readonly string[];
  /** `job.wait`, the manifest key */
  readonly id: string;
  /** Local flags: the author's plus the framework's per-command ones. */
  readonly flags: Readonly<Record<string, FlagSpec>>;
  /** The codes this command may exit with, framework codes included. */
  readonly exitCodes: Readonly<Record<number, ExitCodeEntry>>;
  readonly builtin: boolean;
  readonly writes: boolean;
}

function refuse(command: string, field: string, message: string): never {
  throw new StintError(ErrorCode.RegistrationRefused, `command "${command}": ${field}: ${message}`, {
    context: { command, field },
    phase: 'validation',
  });
}

/** One declared exit code: inside the table, described, and with a side effect that fits it. */
function checkExitCodeEntry(spec: CommandSpec, key: string): void {
  const field = `exitCodes.${key}`;
  const code = Number(key);
  if (!isCommandExitCode(code)) refuse(spec.name, field, `${key} is outside the exit-code table (0-14)`);
  const entry = spec.exitCodes[code] as ExitCodeEntry;
  if (typeof entry.description !== 'string' || entry.description.length < 1 || entry.description.length > 120) {
    refuse(spec.name, `${field}.description`, 'a description of 1 to 120 characters is required');
  }
  if (typeof entry.retryable !== 'boolean') refuse(spec.name, `${field}.retryable`, 'must be a boolean');
  if (!isMemberOf(SideEffects, entry.sideEffects)) {
    refuse(spec.name, `${field}.sideEffects`, 'must be none, partial or complete');
  }
  if (entry.retryable && entry.sideEffects !== SideEffects.None) {
    refuse(spec.name, field, 'a retryable exit must have sideEffects "none"');
  }
  if (code === ExitCode.ARG_ERROR && entry.sideEffects !== SideEffects.None) {
    refuse(spec.name, field, 'ARG_ERROR always has sideEffects "none"');
  }
  if (code === ExitCode.PARTIAL_FAILURE && entry.retryable) {
    refuse(spec.name, field, 'PARTIAL_FAILURE is never retryable');
  }
  if ((code === ExitCode.SUCCESS) !== (entry.sideEffects === SideEffects.Complete)) {
    refuse(spec.name, field, 'only SUCCESS (0) has sideEffects "complete", and it always does');
  }
  for (const errorCode of entry.errorCodes ?? []) {
    if (!CODE.test(errorCode)) refuse(spec.name, `${field}.errorCodes`, `"${errorCode}" does not match ${CODE}`);
  }
}

function checkExitCodes(spec: CommandSpec, isWriter: boolean, builtin: boolean): void {
  const codes = Object.keys(spec.exitCodes);
  if (!Object.hasOwn(spec.exitCodes, ExitCode.SUCCESS)) {
    refuse(spec.name, 'exitCodes.0', 'every command declares SUCCESS (0)');
  }
  for (const key of codes) checkExitCodeEntry(spec, key);
  if (spec.interruption) {
    const incomplete = spec.exitCodes[ExitCode.INCOMPLETE];
    if (!incomplete) {
      refuse(spec.name, 'exitCodes.14', 'a command that declares interruption must declare INCOMPLETE (14)');
    }
    if (isWriter && (incomplete.retryable || incomplete.sideEffects !== SideEffects.Partial)) {
      refuse(spec.name, 'exitCodes.14',
        'a writing command declares INCOMPLETE with retryable: false, sideEffects: "partial"');
    }
    if (!isWriter && (!incomplete.retryable || incomplete.sideEffects !== SideEffects.None)) {
      refuse(spec.name, 'exitCodes.14',
        'a read-only command declares INCOMPLETE with retryable: true, sideEffects: "none"');
    }
  } else if (!builtin && !spec.relay && Object.hasOwn(spec.exitCodes, ExitCode.INCOMPLETE)) {
    // (The job commands and relays are the exception: they relay another's INCOMPLETE.)
    refuse(spec.name, 'exitCodes.14', 'only a command that declares interruption can exit INCOMPLETE');
  }
}

function checkInterruption(spec: CommandSpec, isWriter: boolean, acceptsKey: boolean): void {
  const interruption = spec.interruption;
  if (!interruption) return;
  if (spec.relay) refuse(spec.name, 'relay', 'a relay runs other commands; their interruption is their own');
  if (typeof interruption.detach !== 'boolean' || typeof interruption.resume !== 'boolean') {
    refuse(spec.name, 'interruption', 'detach and resume are both required booleans');
  }
  if (!interruption.detach && !interruption.resume) {
    refuse(spec.name, 'interruption', 'at least one of detach and resume must be true');
  }
  for (const field of ['idleTimeoutMs', 'maxLifetimeMs'] as const) {
    const value = interruption[field];
    if (value !== undefined && (!Number.isInteger(value) || value < INTERRUPTION_MIN_MS)) {
      refuse(spec.name, `interruption.${field}`, `must be an integer of at least ${INTERRUPTION_MIN_MS}`);
    }
  }
  if (interruption.resume && isWriter && !acceptsKey) {
    refuse(spec.name, 'interruption.resume', 'a resumable writer must accept --idempotency-key');
  }
}

/**
 * A stream cannot pause and be continued by another call (it declares no interruption), and a stream's events
 * are not one answer a key could replay to a retry: a streaming writer sets `idempotencyKey: false`.
 */
function checkStreaming(spec: CommandSpec, acceptsKey: boolean): void {
  if (spec.streaming === undefined) return;
  if (typeof spec.streaming !== 'boolean') refuse(spec.name, 'streaming', 'must be a boolean');
  if (!spec.streaming) return;
  if (spec.interruption) refuse(spec.name, 'streaming', 'a streaming command cannot declare interruption');
  if (acceptsKey) {
    refuse(spec.name, 'streaming', 'a streaming command does not accept --idempotency-key: set idempotencyKey: false');
  }
  if (spec.streamsStdout) refuse(spec.name, 'streaming', 'a streaming command\'s stdout is its stream already');
}

/** A command that asks first writes, previews with its own boolean --dry-run, and owns neither a job nor stdin. */
function checkConfirm(spec: CommandSpec, isWriter: boolean): void {
  if (spec.confirm === undefined) return;
  if (typeof spec.confirm !== 'boolean') refuse(spec.name, 'confirm', 'must be a boolean');
  if (!spec.confirm) return;
  if (!isWriter) refuse(spec.name, 'confirm', 'only a mutating or destructive command asks for confirmation');
  if (spec.flags?.[DRY_RUN_FLAG]?.type !== 'boolean') {
    refuse(spec.name, 'confirm', `a command that asks for confirmation declares a boolean --${DRY_RUN_FLAG} preview`);
  }
  // Its continuation would have to carry a person's answer; not supported (yet).
  if (spec.interruption) {
    refuse(spec.name, 'confirm', 'a command that asks for confirmation cannot declare interruption');
  }
  // The prompt reads a person's answer from stdin, which such a command would have read as its input.
  if (spec.stdin) refuse(spec.name, 'confirm', 'a command that asks for confirmation cannot declare stdin');
}

function checkFlags(spec: CommandSpec, reserved: ReadonlySet<string>): void {
  const shorts = new Set<string>(Object.values(GLOBAL_FLAGS).flatMap((flag) => (flag.short ? [flag.short] : [])));
  for (const [name, flag] of Object.entries(spec.flags ?? {})) {
    const field = `flags.${name}`;
    if (!NAME.test(name)) refuse(spec.name, field, `flag names match ${NAME}`);
    if (reserved.has(name)) refuse(spec.name, field, `--${name} is a framework flag`);
    if (!['string', 'integer', 'number', 'boolean', 'duration', 'bytes', 'enum'].includes(flag.type)) {
      refuse(spec.name, `${field}.type`, `unknown type "${String(flag.type)}"`);
    }
    if (!flag.description) refuse(spec.name, `${field}.description`, 'a description is required');
    if (flag.type === 'enum' && !(flag.enumValues && flag.enumValues.length > 0)) {
      refuse(spec.name, `${field}.enumValues`, 'an enum flag lists its values');
    }
    if (flag.short !== undefined) {
      if (!/^[a-zA-Z]$/.test(flag.short) || shorts.has(flag.short)) {
        refuse(spec.name, `${field}.short`, 'one letter, unique, not -h or -V');
      }
      shorts.add(flag.short);
    }
    if (flag.required && flag.default !== undefined) refuse(spec.name, field, 'a required flag has no default');
    const wrongDefault = flag.default === undefined ? undefined : defaultProblem(flag);
    if (wrongDefault) refuse(spec.name, `${field}.default`, wrongDefault);
  }
}

const NUMERIC_FLAGS: ReadonlySet<string> = new Set(['integer', 'number', 'duration', 'bytes']);

/**
 * What is wrong with a flag's default, if anything: the handler receives it as it is (unparsed), so it must
 * already be a value of the flag's type, within its bounds (a duration or a size in plain ms or bytes).
 */
function defaultProblem(flag: FlagSpec): string | undefined {
  const value = flag.default;
  if (NUMERIC_FLAGS.has(flag.type)) return numericDefaultProblem(flag, value);
  if (flag.type === 'boolean') {
    return typeof value === 'boolean' ? undefined : "a boolean flag's default is true or false";
  }
  if (flag.type === 'enum') {
    const listed = typeof value === 'string' && flag.enumValues?.includes(value);
    return listed ? undefined : 'the default is one of enumValues';
  }
  return typeof value === 'string' ? undefined : "a string flag's default is a string";
}

const UNIT_OF: Readonly<Record<string, string>> = { duration: ' (in ms)', bytes: ' (in bytes)' };

function numericDefaultProblem(flag: FlagSpec, value: unknown): string | undefined {
  const whole = flag.type !== 'number';
  if (typeof value !== 'number' || !Number.isFinite(value) || (whole && !Number.isInteger(value))) {
    return `a ${flag.type} flag's default is a${whole ? ' whole' : ''} number${UNIT_OF[flag.type] ?? ''}`;
  }
  if ((flag.min !== undefined && value < flag.min) || (flag.max !== undefined && value > flag.max)) {
    return `the default ${value} is outside the flag's bounds`;
  }
  return undefined;
}

function checkPositionals(spec: CommandSpec): void {
  const positionals: readonly PositionalSpec[] = spec.positionals ?? [];
  let optionalSeen = false;
  positionals.forEach((positional, index) => {
    const field = `positionals.${index}`;
    if (!/^[a-z][a-z0-9_-]*$/.test(positional.name)) {
      refuse(spec.name, `${field}.name`, 'positional names match ^[a-z][a-z0-9_-]*$');
    }
    if (positional.variadic && index !== positionals.length - 1) {
      refuse(spec.name, field, 'only the last positional may be variadic');
    }
    if (positional.type === 'enum' && !positional.enumValues?.length) {
      refuse(spec.name, `${field}.enumValues`, 'an enum positional lists its values');
    }
    const required = positional.required !== false;
    if (required && optionalSeen) refuse(spec.name, field, 'a required positional cannot follow an optional one');
    optionalSeen ||= !required;
  });
}

/**
 * Declares a command. Validates the declaration once, here at the edge, and
 * refuses contradictions with a REGISTRATION_REFUSED error naming the field.
 */
export function defineCommand<
  const F extends Readonly<Record<string, FlagSpec>>,
  const P extends readonly PositionalSpec[],
  D,
>(spec: CommandSpec<F, P, D>): CommandSpec<F, P, D> {
  registerCommand(spec as unknown as CommandSpec, false);
  return spec;
}

/** Validates and normalises a declaration (defineCommand's work, plus what the program needs). */
export function registerCommand(spec: CommandSpec, builtin: boolean): RegisteredCommand {
  const name = typeof spec.name === 'string' ? spec.name : '';
  const path = name.split(' ').filter(Boolean);
  if (path.length === 0 || !path.every((segment) => NAME.test(segment))) {
    refuse(name || '?', 'name', `each word matches ${NAME}`);
  }
  if (!spec.description) refuse(name, 'description', 'a description is required');
  if (!isMemberOf(DangerLevel, spec.dangerLevel)) refuse(name, 'dangerLevel', 'must be safe, mutating or destructive');
  if (typeof spec.run !== 'function') refuse(name, 'run', 'a handler function is required');
  if (typeof spec.exitCodes !== 'object' || spec.exitCodes === null) {
    refuse(name, 'exitCodes', 'an exit-code table is required');
  }

  const isWriter = writes(spec.dangerLevel);
  const acceptsKey = isWriter && spec.idempotencyKey !== false;
  checkInterruption(spec, isWriter, acceptsKey);
  checkStreaming(spec, acceptsKey);
  checkExitCodes(spec, isWriter, builtin);
  checkConfirm(spec, isWriter);
  const frameworkFlags = frameworkFlagsFor({
    interruptible: spec.interruption !== undefined, acceptsKey, confirm: spec.confirm === true,
    chunks: spec.interruption?.chunks,
  });
  // Built-ins such as `job wait` declare --budget themselves.
  const streamFlags = spec.streaming ? STREAM_FLAGS : {};
  checkFlags(spec, new Set([
    ...Object.keys(GLOBAL_FLAGS), ...Object.keys(streamFlags), ...(builtin ? [] : Object.values(FrameworkFlag)),
  ]));
  checkPositionals(spec);

  const exitCodes: Record<number, ExitCodeEntry> = {
    [ExitCode.GENERAL_ERROR]: STANDARD_EXIT_CODES[ExitCode.GENERAL_ERROR],
    [ExitCode.ARG_ERROR]: spec.confirm ? UNCONFIRMED_ENTRY : STANDARD_EXIT_CODES[ExitCode.ARG_ERROR],
  };
  const replaysKeys = acceptsKey && spec.keyedReplay !== false;
  // Checkpoints, job state, a stdin spool and kept answers live in the state folder.
  const usesStateFolder = spec.interruption !== undefined || spec.stdin !== undefined || replaysKeys;
  if (spec.interruption) exitCodes[ExitCode.TIMEOUT] = STANDARD_EXIT_CODES[ExitCode.TIMEOUT];
  if (usesStateFolder) {
    // That disk can be full (NO_SPACE): the work done is kept.
    exitCodes[ExitCode.UNAVAILABLE] = { ...STANDARD_EXIT_CODES[ExitCode.UNAVAILABLE], ...NO_SPACE_ENTRY(isWriter) };
  }
  // A relay passes on whatever its callee answered, a callee's own answer to a signal included.
  if (spec.relay) {
    for (const code of Object.values(SignalExitCode)) exitCodes[code] = STANDARD_EXIT_CODES[code];
  }
  // --queue: its Redis may refuse the credentials (AUTH_REQUIRED) or a command (PERMISSION_DENIED).
  const takesQueue = spec.interruption !== undefined && spec.interruption.chunks !== false;
  if (takesQueue) Object.assign(exitCodes, QUEUE_ACCESS_ENTRIES);
  if (replaysKeys) exitCodes[ExitCode.CONFLICT] = KEY_REUSED_ENTRY;
  // Reading stdin can fail before any work (INPUT_REQUIRED), and so can a state folder that refuses writes or
  // that is refused (STATE_DIR_UNUSABLE, STATE_DIR_UNSAFE).
  if (usesStateFolder) exitCodes[ExitCode.PRECONDITION] = STANDARD_EXIT_CODES[ExitCode.PRECONDITION];
  for (const [key, entry] of Object.entries(spec.exitCodes)) {
    exitCodes[Number(key)] = { ...STANDARD_EXIT_CODES[Number(key) as ExitCode], ...entry };
  }
  // --queue needs bullmq and ioredis, optional packages: without them a call answers 4 (QUEUE_CLIENT_MISSING).
  if (takesQueue) {
    const entry = exitCodes[ExitCode.PRECONDITION] ?? STANDARD_EXIT_CODES[ExitCode.PRECONDITION];
    exitCodes[ExitCode.PRECONDITION] = listing(entry, ErrorCode.QueueClientMissing);
  }
  return Object.freeze({
    spec,
    path,
    id: path.join('.'),
    flags: Object.freeze({ ...(spec.flags ?? {}), ...frameworkFlags, ...streamFlags }),
    exitCodes: Object.freeze(exitCodes),
    builtin,
    writes: isWriter,
  });
}
