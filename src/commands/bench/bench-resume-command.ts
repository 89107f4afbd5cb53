import { ExitCode } from '../../contract/exit-code.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import { defineCommand } from '../../runtime/authoring/define-command.js';
import { renderResumeText } from './bench-text.js';
import type { ResumeReport } from './bench-resume-run.js';
import { RESUME_REPORT_SCHEMA } from './bench-schema.js';

const none = SideEffects.None;

export const benchResumeCommand = defineCommand({
  name: 'bench resume',
  outputSchema: RESUME_REPORT_SCHEMA,
  // How: bench/README.md. The command gets --budget 0 --heartbeat-ms 1; SIGINT stops it past each offset (a
  // budget would hand a detaching command to a background job); its identical invocation continues it.
  description: 'Resume cost of any command that speaks the contract: a continuation\'s time to new progress at'
    + ' 10, 50, 90 % vs a fresh start',
  dangerLevel: DangerLevel.Safe,
  positionals: [{
    name: 'command', type: 'string', variadic: true, afterTerminator: true,
    description: 'The command to measure and its arguments, after --',
  }],
  flags: {
    samples: { type: 'integer', min: 1, max: 100, default: 3, description: 'Continuations timed at each offset' },
    'state-dir': {
      type: 'string',
      description: 'The state folder the command keeps its jobs in (its <NAME>_HOME): each continuation at an'
        + ' offset then starts from the same checkpoint, copied back before it',
    },
    svg: { type: 'string', description: 'Also write a self-contained SVG chart of resume cost against offset here' },
  },
  exitCodes: {
    [ExitCode.SUCCESS]: {
      description: 'Resume cost was measured at every offset', retryable: false, sideEffects: SideEffects.Complete,
    },
    [ExitCode.PRECONDITION]: {
      description: 'The command failed, or does not report progress, stop on SIGINT or continue as the contract says',
      retryable: false, sideEffects: none,
    },
  },
  examples: [
    { description: 'Resume cost of stint analyze', command: 'stint bench resume -- stint analyze big.csv' },
    { description: 'Of a program built on stint', command: 'stint bench resume -- node wc.js count big.txt' },
  ],
  async run(input, ctx) {
    const { runBenchResume } = await import('./bench-resume-run.js');
    return runBenchResume(input, ctx);
  },
  text: (data) => renderResumeText(data as ResumeReport),
});
