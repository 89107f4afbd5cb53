import type { BenchReport } from './bench-report.js';
import { FigureUnit, type Figure, type Ratio } from './figure.js';
import type { Machine } from './machine.js';
import type { ResumeCost } from './resume-cost.js';

const GiB = 1024 ** 3;

/** A number with the digits that matter at its size. */
function shown(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 100 || abs === 0) return value.toFixed(0);
  return abs >= 10 ? value.toFixed(1) : abs >= 1 ? value.toFixed(2) : value.toPrecision(3);
}

/** Columns padded to their widest cell; the last one left as it is. */
function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, k) => Math.max(...rows.map((row) => row[k]!.length)));
  const line = (row: readonly string[]) =>
    row.map((cell, k) => (k === row.length - 1 ? cell : cell.padEnd(widths[k]!))).join('  ').trimEnd();
  return rows.map(line).join('\n');
}

const figureRow = (f: Figure) => [f.label, `${shown(f.value)} ${f.unit}`, `± ${shown(f.spread)}`, String(f.samples)];
const ratioRow = (r: Ratio) => [r.label, `${shown(r.value)}${FigureUnit.Ratio}`, `± ${shown(r.spread)}`,
  `${r.numerator} / ${r.denominator}`];

/** The figures and ratios as two tables. */
function figureTables(figures: readonly Figure[], ratios: readonly Ratio[]): string[] {
  return [
    table([['figure', 'median', 'spread', 'samples'], ...figures.map(figureRow)]),
    '',
    table([['ratio', 'value', 'spread', 'of'], ...ratios.map(ratioRow)]),
  ];
}

function machineLine(m: Machine): string {
  return `machine: ${m.cores} cores, ${(m.memory_bytes / GiB).toFixed(1)} GiB, Node ${m.node}, ${m.platform} ${m.arch},`
    + ` ${m.cpu}`;
}

function resumeLines(resume: ResumeCost): string[] {
  const where = resume.offsets.map((o) => `${Math.round(o.target * 100)} % from ${o.reached.map(percent).join(', ')}`);
  return [`continuations started at: ${where.join('; ')}`,
    `resume cost grows with the offset: ${resume.grows_with_offset ? 'yes' : 'no'}`];
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;

/** `stint bench --format text`: the machine, then figures and ratios as tables. */
export function renderBenchText(report: BenchReport): string {
  const { input } = report;
  const lines = [
    machineLine(report.machine),
    `input: ${input.path ?? 'generated CSV'}, ${input.bytes} bytes; ${report.settings.workers} workers at most,`
      + ` ${report.settings.samples} samples a figure (medians; ± is the standard deviation)`,
    '',
    ...figureTables(report.figures, report.ratios),
  ];
  if (report.resume) lines.push('', ...resumeLines(report.resume));
  return `${lines.join('\n')}\n`;
}

/** `stint bench resume --format text`. */
export function renderResumeText(report: ResumeCost & { readonly machine: Machine }): string {
  const lines = [
    machineLine(report.machine),
    `command: ${report.command.join(' ')} (medians; ± is the standard deviation)`,
    '',
    ...figureTables(report.figures, report.ratios),
    '',
    ...resumeLines(report),
  ];
  return `${lines.join('\n')}\n`;
}
