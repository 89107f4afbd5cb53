import { resolve } from 'node:path';
import { ExitCode } from '../../contract/exit-code.js';
import { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import type { CommandContext, CommandResult } from '../../runtime/authoring/command-spec.js';
import { writeBenchSvg } from './bench-svg.js';
import { thisMachine, type Machine } from './machine.js';
import { measureResume, resumeSteps, type ResumeCost } from './resume-cost.js';

/** `stint bench resume`'s data: the machine, and the resume cost of the command. */
export type ResumeReport = ResumeCost & { readonly machine: Machine };

export interface BenchResumeInput {
  readonly positionals: { readonly command: readonly string[] };
  readonly flags: {
    readonly samples: number;
    readonly 'state-dir': string | undefined;
    readonly svg: string | undefined;
  };
}

/** Runs the caller's command as whole processes, in the caller's folder and environment. */
export async function runBenchResume({ positionals, flags }: BenchResumeInput, ctx: CommandContext):
  Promise<CommandResult> {
  const total = resumeSteps(flags.samples);
  let done = 0;
  ctx.progress(0, total, ProgressUnit.Steps);
  const step = () => ctx.progress(Math.min(total, ++done), total, ProgressUnit.Steps);
  const stateDir = flags['state-dir'] === undefined ? undefined : resolve(ctx.cwd, flags['state-dir']);
  const target = { argv: positionals.command, cwd: ctx.cwd, env: ctx.env };
  const cost = await measureResume(target, { samples: flags.samples, step, ...(stateDir ? { stateDir } : {}) });
  const report = { machine: thisMachine(), ...cost };
  if (flags.svg === undefined) return { exitCode: ExitCode.SUCCESS, data: report };
  const svg = resolve(ctx.cwd, flags.svg);
  writeBenchSvg(svg, { machine: report.machine, figures: [], resume: cost });
  return { exitCode: ExitCode.SUCCESS, data: { ...report, svg } };
}
