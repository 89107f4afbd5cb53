import type { BenchReport } from './bench-report.js';
import { FigureUnit, type Figure, type Ratio } from './figure.js';

const GiB = 1024 ** 3;

/** A number with the digits that matter at its size. */
function shown(value: number): string {
  const abs = Math.abs(value);
  return abs >= 100 ? value.toFixed(0) : abs >= 10 ? value.toFixed(1) : abs >= 1 ? value.toFixed(2) : value.toFixed(3);
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

/** `stint bench --format text`: the machine, then figures and ratios as tables. */
export function renderBenchText(report: BenchReport): string {
  const { machine: m, input } = report;
  const lines = [
    `machine: ${m.cores} cores, ${(m.memory_bytes / GiB).toFixed(1)} GiB, Node ${m.node}, ${m.platform} ${m.arch},`
      + ` ${m.cpu}`,
    `input: ${input.path ?? 'generated CSV'}, ${input.bytes} bytes; ${report.settings.workers} workers at most,`
      + ` ${report.settings.samples} samples a figure (medians; ± is the standard deviation)`,
    '',
    table([['figure', 'median', 'spread', 'samples'], ...report.figures.map(figureRow)]),
    '',
    table([['ratio', 'value', 'spread', 'of'], ...report.ratios.map(ratioRow)]),
  ];
  if (report.resume) {
    const grows = report.resume.grows_with_offset ? 'yes' : 'no';
    lines.push('', `resume cost grows with the offset: ${grows}`);
  }
  return `${lines.join('\n')}\n`;
}
