import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ErrorCode } from '../../contract/error-code.js';
import { ExitCode } from '../../contract/exit-code.js';
import { ArgProblem } from '../../contract/vocabulary/arg-problem.js';
import { Phase } from '../../contract/vocabulary/phase.js';
import { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import type { CommandContext, CommandResult } from '../../runtime/authoring/command-spec.js';
import { benchInput, type BenchInput } from './bench-input.js';
import type { BenchReport } from './bench-report.js';
import { writeBenchSvg } from './bench-svg.js';
import { checkpointSuite } from './checkpoint-suite.js';
import { thisMachine } from './machine.js';
import { resumeSuite } from './resume-suite.js';
import { scalingSuite } from './scaling-suite.js';
import { ALL_SUITES, type BenchSetup, type Suite, type SuiteResult } from './suite.js';
import { throughputSuite } from './throughput-suite.js';

/** In the order they run: the cheap and most asked-for first. */
const SUITES: readonly Suite[] = [throughputSuite, scalingSuite, checkpointSuite, resumeSuite];
export const STINT_BIN = fileURLToPath(new URL('../../bin/stint.js', import.meta.url));

/** What `stint bench` takes (bench-command.ts declares it). */
export interface BenchInputFlags {
  readonly flags: {
    readonly input: string | undefined;
    readonly size: number | undefined;
    readonly workers: string;
    readonly suite: string;
    readonly samples: number;
    readonly svg: string | undefined;
  };
}

/** Generated input unless --input: small enough that a default run takes about a minute on 2 cores. */
export const DEFAULT_BENCH_SIZE = 32 * 1024 * 1024;

function argError(field: string, reason: ArgProblem, message: string): CommandResult {
  const error = { code: ErrorCode.ArgError, message, retryable: false, phase: Phase.Validation };
  return { exitCode: ExitCode.ARG_ERROR, error: { ...error, errors: [{ field, reason, message }] } };
}

/** `--workers N|all`: the top worker count, or an argument error. */
function workersOf(text: string): number | CommandResult {
  if (text === 'all') return availableParallelism();
  if (/^[1-9]\d{0,2}$/.test(text)) return Number(text);
  return argError('--workers', ArgProblem.MalformedValue, `--workers: "${text}" is not a count (1-999) or all`);
}

async function runSuites(suites: readonly Suite[], setup: BenchSetup, ctx: CommandContext): Promise<SuiteResult[]> {
  const total = suites.reduce((sum, suite) => sum + suite.steps(setup), 0);
  let done = 0;
  ctx.progress(0, total, ProgressUnit.Steps);
  const step = () => ctx.progress(Math.min(total, ++done), total, ProgressUnit.Steps);
  const results: SuiteResult[] = [];
  for (const suite of suites) results.push(await suite.run({ ...setup, step }));
  ctx.progress(total, total, ProgressUnit.Steps);
  return results;
}

function reportOf(input: BenchInput, settings: BenchReport['settings'], results: SuiteResult[]): BenchReport {
  const resume = results.find((result) => result.resume)?.resume;
  return {
    machine: thisMachine(),
    input: { path: input.generated ? null : input.path, bytes: input.bytes, generated: input.generated },
    settings,
    figures: results.flatMap((result) => result.figures),
    ratios: results.flatMap((result) => result.ratios),
    ...(resume ? { resume } : {}),
  };
}

/** Runs the chosen suites on the caller's file or a generated one; every figure with its spread and samples. */
export async function runBench({ flags }: BenchInputFlags, ctx: CommandContext): Promise<CommandResult> {
  if (flags.input !== undefined && flags.size !== undefined) {
    return argError('--size', ArgProblem.ConflictingValue, '--input and --size exclude each other: --size generates');
  }
  const workers = workersOf(flags.workers);
  if (typeof workers !== 'number') return workers;
  const suites = SUITES.filter((suite) => flags.suite === ALL_SUITES || suite.name === flags.suite);
  const input = benchInput(ctx.cwd, flags.input, flags.size ?? DEFAULT_BENCH_SIZE);
  try {
    const setup = {
      path: input.path, bytes: input.bytes, workers, samples: flags.samples,
      stateRoot: join(input.scratch, 'state'), stintBin: STINT_BIN, step: () => {},
    };
    const results = await runSuites(suites, setup, ctx);
    const settings = { workers, samples: flags.samples, suites: suites.map((suite) => suite.name) };
    const report = reportOf(input, settings, results);
    if (flags.svg === undefined) return { exitCode: ExitCode.SUCCESS, data: report };
    const svg = resolve(ctx.cwd, flags.svg);
    writeBenchSvg(svg, { ...report, workers });
    return { exitCode: ExitCode.SUCCESS, data: { ...report, svg } };
  } finally {
    input.remove();
  }
}
