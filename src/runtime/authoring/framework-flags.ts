import { OutputFormat } from '../../contract/vocabulary/output-format.js';
import { membersOf } from '../../contract/vocabulary/closed-set.js';
import type { FlagSpec } from './command-spec.js';

/** Flags every command accepts, before or after the command path. */
export const GlobalFlag = {
  Format: 'format',
  Help: 'help',
  Version: 'version',
} as const;

export const GLOBAL_FLAGS: Readonly<Record<string, FlagSpec>> = Object.freeze({
  [GlobalFlag.Format]: {
    type: 'enum',
    enumValues: membersOf(OutputFormat),
    description: 'Output format: json (one envelope on stdout; the default when stdout is not a terminal) or text',
  },
  [GlobalFlag.Help]: { type: 'boolean', short: 'h', description: 'Show help for the program or a command' },
  [GlobalFlag.Version]: { type: 'boolean', short: 'V', description: 'Show the program version' },
});

/** Flags the framework adds to the commands that need them. */
export const FrameworkFlag = {
  Budget: 'budget',
  Timeout: 'timeout',
  IdempotencyKey: 'idempotency-key',
  HeartbeatMs: 'heartbeat-ms',
  Yes: 'yes',
  NonInteractive: 'non-interactive',
  Queue: 'queue',
} as const;

/** The queue a call's chunks go to when it gives no --queue (docs/many-machines.md). */
export const QUEUE_ENV = 'STINT_QUEUE';

/** The flag a command that asks for confirmation previews with (the command declares it; the framework reads it). */
export const DRY_RUN_FLAG = 'dry-run';

/** What `--yes` and `--non-interactive` mean on a command that asks before it acts. */
const CONFIRM_FLAGS: Readonly<Record<string, FlagSpec>> = {
  [FrameworkFlag.Yes]: {
    type: 'boolean',
    description: 'Confirm: act without asking (without it the call refuses with exit 2,'
      + ' or asks a person at a terminal)',
  },
  [FrameworkFlag.NonInteractive]: {
    type: 'boolean',
    description: 'Never ask, even at a terminal: without --yes the call refuses with exit 2',
  },
};

export function frameworkFlagsFor(
  command: { interruptible: boolean; acceptsKey: boolean; confirm?: boolean; chunks?: boolean },
): Record<string, FlagSpec> {
  const flags: Record<string, FlagSpec> = command.confirm ? { ...CONFIRM_FLAGS } : {};
  if (command.interruptible) {
    flags[FrameworkFlag.Budget] = {
      type: 'duration',
      description: 'Sync call budget (250ms, 5s, 2m, 1h; 0 = none).'
        + ' Default: AGENT_CALL_BUDGET_MS, else 30s; none in a terminal',
    };
    flags[FrameworkFlag.HeartbeatMs] = {
      type: 'integer',
      min: 0,
      description: 'Print a one-line status to stderr at the first progress report and then every N ms (0 = off):'
        + ' percentage, rate and ETA, then the exact figures',
    };
    flags[FrameworkFlag.Timeout] = {
      type: 'duration',
      description: 'Wall-clock bound on the whole work across every continuation (0 = none)',
    };
  }
  if (command.interruptible && command.chunks !== false) {
    flags[FrameworkFlag.Queue] = {
      type: 'string',
      // Where the chunks run cannot change the result: the same job and checkpoint with or without it.
      identity: false,
      description: 'Run the chunks on `worker` processes through this Redis (redis://host:port) instead of'
        + ' threads here. Default: STINT_QUEUE',
    };
  }
  if (command.acceptsKey) {
    flags[FrameworkFlag.IdempotencyKey] = {
      type: 'string',
      description: 'Names the run: a repeated call with the same key continues it'
        + ' (how a finished run answers is the command\'s)',
    };
  }
  return flags;
}
