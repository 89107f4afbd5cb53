import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode, STANDARD_EXIT_CODES, type ExitCodeEntry } from '../../contract/exit-code.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import { defineCommand } from '../../runtime/authoring/define-command.js';
import { StintCode } from '../stint-codes.js';
import { describedOnly } from '../../contract/data-schema.js';

/** Every exit the followed command can end with is relayed as it is; these say what follow adds. */
const OWN: Readonly<Partial<Record<ExitCode, ExitCodeEntry>>> = {
  [ExitCode.SUCCESS]: {
    description: 'The followed command completed: its final response, relayed', retryable: false,
    sideEffects: SideEffects.Complete,
  },
  [ExitCode.GENERAL_ERROR]: {
    description: 'The command answered something other than an envelope (NOT_AN_ENVELOPE), or failed so',
    retryable: false, sideEffects: SideEffects.Partial, errorCodes: [StintCode.NotAnEnvelope],
  },
  [ExitCode.ARG_ERROR]: {
    description: "Arguments failed validation, follow's or the followed command's; nothing was changed",
    retryable: false, sideEffects: SideEffects.None,
  },
  [ExitCode.TIMEOUT]: {
    description: 'Progress did not grow over three continuations: cancelled (STALLED), or the command timed out',
    retryable: false, sideEffects: SideEffects.Partial, errorCodes: [ErrorCode.Stalled],
  },
  [ExitCode.INCOMPLETE]: {
    description: 'Stopped waiting (--max-continuations, --deadline); the work goes on: run its continue_command',
    retryable: true, sideEffects: SideEffects.None,
  },
};

const RELAYED: Readonly<Partial<Record<ExitCode, ExitCodeEntry>>> = Object.fromEntries(
  Object.values(ExitCode).map((code) => [code, OWN[code] ?? relayed(STANDARD_EXIT_CODES[code])]),
);

function relayed(entry: ExitCodeEntry): ExitCodeEntry {
  return { ...entry, description: `${entry.description} (the followed command's own exit)`.slice(0, 120) };
}

export const followCommand = defineCommand({
  name: 'follow',
  outputSchema: describedOnly('The final answer of the command followed, as it gave it: its meta.command names'
    + ' the command whose output_schema it follows, and meta.continuations says how many continue_commands ran'),
  description: 'Run a command of this contract and its continue_command until the exit is not 14;'
    + ' cancel it when progress stops growing',
  // It changes what the command it runs changes, and it may run that command's cancel_command. Its
  // --idempotency-key goes to the first call, so a repeated follow of a writer continues the same run.
  dangerLevel: DangerLevel.Mutating,
  // Its key is the followed command's (given to the first call), which answers repeats itself.
  keyedReplay: false,
  relay: true,
  positionals: [{
    name: 'command',
    type: 'string',
    variadic: true,
    afterTerminator: true,
    description: 'The command and its arguments, after -- (run without a shell; it gets stdin)',
  }],
  flags: {
    'max-continuations': {
      type: 'integer',
      min: 0,
      description: 'Stop waiting after this many continuations (exit 14, the work goes on)',
    },
    deadline: {
      type: 'duration',
      min: 1,
      description: 'Stop waiting after this long (250ms, 5s, 2m; exit 14, the work goes on);'
        + ' each call gets the time left as its budget',
    },
  },
  exitCodes: RELAYED,
  examples: [
    {
      description: 'Analyze a big file to the end, in calls of 30 s',
      command: 'stint follow -- stint analyze big.csv',
    },
    {
      description: 'Import for at most ten minutes; the answer says how to go on',
      command: 'stint follow --deadline 10m -- stint import rows.csv --into rows.db',
    },
  ],
  async run({ flags, positionals, options }, ctx) {
    const { runFollow, withKey } = await import('./follow-run.js');
    const maxContinuations = flags['max-continuations'];
    const key = options.idempotencyKeyGiven ? options.idempotencyKey : undefined;
    const words = key === undefined ? positionals.command : withKey(positionals.command, key);
    return runFollow({ words, maxContinuations, deadlineMs: flags.deadline }, ctx);
  },
});
