import type { CodeTable } from '../../contract/code-table.js';
import type { RegisteredCommand } from '../authoring/define-command.js';
import type { FrameworkOptions } from '../authoring/command-spec.js';
import type { CommandNode } from '../cli/command-tree.js';
import type { ProgramIdentity } from '../cli/help-text.js';
import type { Host } from '../authoring/host.js';
import type { Respond } from '../cli/respond.js';

/** The program as its calls see it: who it is, what commands it has, and which codes it may emit. */
export interface ProgramContext {
  readonly identity: ProgramIdentity;
  readonly tree: CommandNode;
  readonly commands: readonly RegisteredCommand[];
  readonly codes: CodeTable;
}

/** One validated call, ready to run: nothing has been executed yet. */
export interface Invocation {
  readonly program: ProgramContext;
  readonly host: Host;
  readonly command: RegisteredCommand;
  readonly flags: Readonly<Record<string, unknown>>;
  readonly positionals: Readonly<Record<string, unknown>>;
  readonly options: FrameworkOptions;
  /** Identity of the invocation (command, arguments, cwd, version, idempotency key). */
  readonly key: string;
  /** The spooled stdin of a command that declares it. */
  readonly stdinPath: string | undefined;
  /** The identity without the idempotency key. */
  readonly argumentsDigest: string;
  readonly started: number;
  readonly heartbeatMs: number | undefined;
  readonly respond: Respond;
  /** The program's state folder (jobs, checkpoints, spool), resolved once for the call. */
  readonly stateRoot: string;
  /** On a command that asks first (`confirm`): `--yes` and `--non-interactive` as the caller gave them. */
  readonly confirmation?: { readonly yes: boolean; readonly nonInteractive: boolean };
  /** Set once the call is confirmed (`--yes`, or y at the prompt): the answer says `meta.confirmed: true`. */
  readonly confirmed?: boolean;
}

/** Whether this call's data streams to stdout (the command's `streamsStdout`): its envelope then goes to stderr. */
export function streamsStdout(inv: Pick<Invocation, 'command' | 'flags'>): boolean {
  return inv.command.spec.streamsStdout?.(inv.flags as never) === true;
}
