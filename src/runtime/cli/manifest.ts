import { isDeepStrictEqual } from 'node:util';
import { createHash } from 'node:crypto';
import { JSON_SCHEMA_DRAFT } from '../../contract/data-schema.js';
import { ExitCode, SignalExitCode, STANDARD_EXIT_CODES, type ExitCodeEntry } from '../../contract/exit-code.js';
import type { FlagSpec, Interruption, PositionalSpec, StdinSpec } from '../authoring/command-spec.js';
import type { RegisteredCommand } from '../authoring/define-command.js';
import { BUDGET_ENV } from '../authoring/budget.js';
import { SIZE_PATTERN } from './byte-size.js';
import { DURATION_PATTERN } from './duration.js';
import { GLOBAL_FLAGS } from '../authoring/framework-flags.js';
import type { ProgramIdentity } from './help-text.js';
import { stateDirEnvOf } from '../storage/state-dir.js';

export const MANIFEST_SCHEMA_VERSION = '3.0';

/** Codes every command shares; a command's own map lists only additions and overrides. */
const SHARED_EXIT_CODES: Readonly<Record<number, ExitCodeEntry>> = {
  [ExitCode.GENERAL_ERROR]: STANDARD_EXIT_CODES[ExitCode.GENERAL_ERROR],
  [ExitCode.ARG_ERROR]: STANDARD_EXIT_CODES[ExitCode.ARG_ERROR],
  [SignalExitCode.SIGINT]: STANDARD_EXIT_CODES[SignalExitCode.SIGINT],
  [SignalExitCode.SIGTERM]: STANDARD_EXIT_CODES[SignalExitCode.SIGTERM],
};

/** Environment variables the framework reads for a program, for the manifest and the table in docs/cli.md. */
export function frameworkEnvVars(programName: string): readonly { name: string; description: string }[] {
  const state = `Folder for job state; default $XDG_STATE_HOME/${programName}, else ~/.local/state/${programName}`;
  return [
    {
      name: BUDGET_ENV,
      description: 'Sync call budget in ms for interruptible commands when --budget is not given (default 30000)',
    },
    { name: stateDirEnvOf(programName), description: state },
    { name: 'XDG_STATE_HOME', description: 'Base of the default job-state folder' },
    { name: 'NO_COLOR', description: 'When set and not empty, no ANSI color on any stream' },
  ];
}

function flagEntry(flag: FlagSpec): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    type: flag.type === 'duration' || flag.type === 'bytes' ? 'string' : flag.type,
    required: flag.required === true,
    description: flag.description,
  };
  if (flag.default !== undefined) entry['default'] = flag.default;
  if (flag.type === 'enum') entry['enum_values'] = [...(flag.enumValues ?? [])];
  if (flag.type === 'duration') entry['pattern'] = DURATION_PATTERN;
  if (flag.type === 'bytes') entry['pattern'] = SIZE_PATTERN;
  if (flag.short) entry['short'] = flag.short;
  return entry;
}

function positionalEntry(positional: PositionalSpec): Record<string, unknown> {
  return {
    name: positional.name,
    type: positional.type,
    required: positional.required !== false,
    description: positional.description,
    ...(positional.type === 'enum' ? { enum_values: [...(positional.enumValues ?? [])] } : {}),
    ...(positional.variadic ? { variadic: true } : {}),
  };
}

/** An exit-code row as the manifest spells it (exit-code-entry.json): the declaration's camelCase, in snake_case. */
function wireExitCode(entry: ExitCodeEntry): Record<string, unknown> {
  return {
    ...(entry.name !== undefined ? { name: entry.name } : {}),
    description: entry.description,
    retryable: entry.retryable,
    side_effects: entry.sideEffects,
    ...(entry.errorCodes ? { error_codes: [...entry.errorCodes] } : {}),
  };
}

function ownExitCodes(command: RegisteredCommand): Record<string, Record<string, unknown>> {
  const own: Record<string, Record<string, unknown>> = {};
  for (const [code, entry] of Object.entries(command.exitCodes)) {
    const shared = SHARED_EXIT_CODES[Number(code)];
    // Compared as the manifest spells them: a row that would read the same is the shared one.
    const row = wireExitCode(entry);
    if (!shared || !isDeepStrictEqual(wireExitCode(shared), row)) own[code] = row;
  }
  return own;
}

function wireInterruption(interruption: Interruption): Record<string, unknown> {
  const { detach, resume, idleTimeoutMs, maxLifetimeMs } = interruption;
  return {
    detach,
    resume,
    ...(idleTimeoutMs !== undefined ? { idle_timeout_ms: idleTimeoutMs } : {}),
    ...(maxLifetimeMs !== undefined ? { max_lifetime_ms: maxLifetimeMs } : {}),
  };
}

function wireStdin(stdin: StdinSpec): Record<string, unknown> {
  return { mode: stdin.mode, ...(stdin.maxBytes !== undefined ? { max_bytes: stdin.maxBytes } : {}) };
}

function commandEntry(command: RegisteredCommand): Record<string, unknown> {
  const spec = command.spec;
  return {
    description: spec.description,
    danger_level: spec.dangerLevel,
    required_scopes: [],
    flags: Object.fromEntries(Object.entries(command.flags).map(([name, flag]) => [name, flagEntry(flag)])),
    positionals: (spec.positionals ?? []).map(positionalEntry),
    exit_codes: ownExitCodes(command),
    ...(spec.interruption ? { interruption: wireInterruption(spec.interruption) } : {}),
    ...(spec.stdin ? { stdin: wireStdin(spec.stdin) } : {}),
    // A streaming command says so as schemas/manifest-response.json spells it; --no-stream gives the one envelope.
    ...(spec.streaming ? { streaming_default: true } : {}),
    // It may ask a person at a terminal (a `confirm` command); --yes confirms, and refusing without it is exit 2.
    ...(spec.confirm ? { interactive: true } : {}),
    ...(spec.examples?.length ? { examples: spec.examples.map((e) => ({ ...e })) } : {}),
    ...(spec.outputSchema ? { output_schema: { $schema: JSON_SCHEMA_DRAFT, ...spec.outputSchema } } : {}),
    ...(command.builtin ? { builtin: true } : {}),
  };
}

/** The ManifestResponse (manifest-response.json) of a program, with a deterministic etag. */
export function buildManifest(
  program: ProgramIdentity,
  commands: readonly RegisteredCommand[],
): Record<string, unknown> {
  const sorted = [...commands].sort((a, b) => a.id.localeCompare(b.id));
  const body = {
    schema_version: MANIFEST_SCHEMA_VERSION,
    framework_version: program.version,
    commands: Object.fromEntries(sorted.map((c) => [c.id, commandEntry(c)])),
    flags: Object.fromEntries(Object.entries(GLOBAL_FLAGS).map(([name, flag]) => [name, flagEntry(flag)])),
    exit_codes: Object.fromEntries(
      Object.entries(SHARED_EXIT_CODES).map(([code, entry]) => [code, wireExitCode(entry)]),
    ),
    env_vars: frameworkEnvVars(program.name).map((v) => ({ ...v })),
  };
  const etag = `sha256:${createHash('sha256').update(JSON.stringify(body)).digest('hex')}`;
  const { schema_version, framework_version, ...rest } = body;
  return { schema_version, framework_version, etag, ...rest };
}
