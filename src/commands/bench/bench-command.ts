import { ExitCode } from '../../contract/exit-code.js';
import { DangerLevel } from '../../contract/vocabulary/danger-level.js';
import { SideEffects } from '../../contract/vocabulary/side-effects.js';
import { defineCommand } from '../../runtime/authoring/define-command.js';
import type { BenchReport } from './bench-report.js';
import { renderBenchText } from './bench-text.js';
import { ALL_SUITES, SuiteName } from './suite.js';
import { membersOf } from '../../contract/vocabulary/closed-set.js';
import { BENCH_REPORT_SCHEMA } from './bench-schema.js';

const none = SideEffects.None;

export const benchCommand = defineCommand({
  name: 'bench',
  outputSchema: BENCH_REPORT_SCHEMA,
  description: 'Measure the engine against baselines run beside it (csv-parse, a byte scan, a fresh start);'
    + ' not interruptible (one cut short measures nothing): no --budget',
  dangerLevel: DangerLevel.Safe,
  flags: {
    input: { type: 'string', description: 'Measure on this CSV file instead of a generated one' },
    size: {
      type: 'bytes', min: 1024 * 1024, max: 64 * 1024 ** 3,
      description: 'Size of the generated CSV (default 32MiB; not with --input)',
    },
    workers: {
      type: 'string', default: 'all', identity: false,
      description: 'Top worker count: N or all (one per core); scaling tries 1 to it',
    },
    suite: {
      type: 'enum', enumValues: [ALL_SUITES, ...membersOf(SuiteName)], default: ALL_SUITES,
      description: 'Which figures: throughput (vs csv-parse, byte scan), scaling (workers, chunk size),'
        + ' checkpoint (on/off, one write), resume (10/50/90 % vs fresh), or all',
    },
    samples: { type: 'integer', min: 1, max: 100, default: 5, description: 'Timed runs a figure (medians)' },
    svg: {
      type: 'string',
      description: 'Also write a self-contained SVG chart here (throughput against workers with the floor and the'
        + ' baseline; resume cost against offset)',
    },
  },
  exitCodes: {
    [ExitCode.SUCCESS]: {
      description: 'Every figure was measured', retryable: false, sideEffects: SideEffects.Complete,
    },
    [ExitCode.PRECONDITION]: {
      description: 'The --input is not CSV, or a measured run failed', retryable: false, sideEffects: none,
    },
    [ExitCode.NOT_FOUND]: { description: 'The --input does not exist', retryable: false, sideEffects: none },
    [ExitCode.PERMISSION_DENIED]: { description: 'The --input cannot be read', retryable: false, sideEffects: none },
  },
  examples: [
    { description: 'Every suite on a generated 32 MiB CSV', command: 'stint bench --format text' },
    { description: 'Throughput on your own file, 2 workers', command: 'stint bench --input big.csv --workers 2' },
  ],
  async run(input, ctx) {
    const { runBench } = await import('./bench-run.js');
    return runBench(input, ctx);
  },
  text: (data) => renderBenchText(data as BenchReport),
});
