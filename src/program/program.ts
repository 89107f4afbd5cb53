import { codeTable } from '../contract/code-table.js';
import type { DeclaredCodeSet } from '../contract/declared-codes.js';
import { ErrorCode } from '../contract/error-code.js';
import type { ProcessExitCode } from '../contract/exit-code.js';
import { StintError } from '../contract/stint-error.js';
import { jobCommands } from './builtins/job/job-commands.js';
import { manifestCommand } from './builtins/manifest-command.js';
import type { CommandSpec } from '../runtime/authoring/command-spec.js';
import { buildCommandTree } from '../runtime/cli/command-tree.js';
import { registerCommand, type RegisteredCommand } from '../runtime/authoring/define-command.js';
import type { ProgramIdentity } from '../runtime/cli/help-text.js';
import type { Host } from '../runtime/authoring/host.js';
import type { ProgramContext } from '../runtime/call/invocation.js';
import { buildManifest } from '../runtime/cli/manifest.js';
import { checkListedCodes } from './listed-codes.js';
import { runCall } from './run-call.js';

/** What `createProgram` takes: the program's identity and its commands (each declared with `defineCommand`). */
export interface ProgramSpec extends ProgramIdentity {
  // Commands of any flag and positional shape; each was checked by defineCommand.
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
    // The built-ins a program gets unless it declares its own (`worker`: program-with-worker.ts).
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
    // A supervisor process alone runs a job from its record: no call needs that code.
    supervise: async (host, jobId) => (await import('./supervise-job.js')).superviseJob(program, host, jobId),
  };
}
