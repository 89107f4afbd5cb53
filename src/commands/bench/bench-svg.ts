import { writeFileSync } from 'node:fs';
import type { Figure } from './figure.js';
import type { Machine } from './machine.js';
import type { ResumeCost } from './resume-cost.js';
import { emptyPlotSvg, escapeXml, plotSvg, type Frame, type Plot } from './svg-plot.js';

/** What the chart shows: any of the throughput figures and the resume cost, with the machine they came from. */
export interface ChartData {
  readonly machine: Machine;
  readonly figures: readonly Figure[];
  readonly resume?: ResumeCost | undefined;
  /** The top worker count, where throughput alone (without scaling) is drawn. */
  readonly workers?: number;
}

const WIDTH = 960;
const HEIGHT = 420;
const LEFT: Frame = { left: 80, top: 50, width: 370, height: 280 };
const RIGHT: Frame = { left: 560, top: 50, width: 370, height: 280 };
const ENGINE = '#1f6fb4';
const BASELINE = '#c0392b';
const FLOOR = '#27864a';

const point = (x: number, figure: Figure) => ({ x, y: figure.value, spread: figure.spread });

function throughputPlot(data: ChartData): Plot | undefined {
  const find = (id: string) => data.figures.find((f) => f.id === id);
  const byWorkers = data.figures.flatMap((f) => {
    const match = /^scaling\.workers_(\d+)$/.exec(f.id);
    return match ? [point(Number(match[1]), f)] : [];
  });
  const engine = find('throughput.engine');
  const points = byWorkers.length > 0 ? byWorkers : engine ? [point(data.workers ?? 1, engine)] : [];
  if (points.length === 0) return undefined;
  const level = (id: string, label: string, color: string) => {
    const figure = find(id);
    return figure ? [{ label, color, y: figure.value }] : [];
  };
  const levels = [
    ...level('throughput.byte_scan', 'byte scan (floor)', FLOOR),
    ...level('throughput.csv_parse', 'csv-parse loop, 1 thread', BASELINE),
  ];
  return {
    title: 'Throughput against workers',
    xLabel: 'worker threads',
    yLabel: 'MB/s, log scale (median, ± sd)',
    logScale: true,
    xTicks: points.map((p) => ({ x: p.x, label: String(p.x) })),
    series: [{ label: 'stint analyze engine', color: ENGINE, points }],
    levels,
  };
}

function resumePlot(resume: ResumeCost): Plot {
  const figure = (id: string) => resume.figures.find((f) => f.id === id)!;
  const points = resume.offsets.map((o) => point(o.target * 100, figure(o.figure)));
  return {
    title: 'Resume cost against offset',
    xLabel: 'offset of the continuation (% of the work)',
    yLabel: 'ms to first new progress (median, ± sd)',
    xTicks: points.map((p) => ({ x: p.x, label: `${p.x} %` })),
    series: [{ label: 'continuation', color: ENGINE, points }],
    levels: [{ label: 'fresh start', color: BASELINE, y: figure('resume.fresh').value }],
  };
}

/** The chart as one self-contained SVG document: no script, no external font or image. */
export function renderBenchSvg(data: ChartData): string {
  const throughput = throughputPlot(data);
  const m = data.machine;
  const footer = `${m.cores} cores, ${(m.memory_bytes / 1024 ** 3).toFixed(1)} GiB, Node ${m.node}, ${m.cpu}`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">`,
    '<title>stint bench</title>',
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    throughput ? plotSvg(throughput, LEFT) : emptyPlotSvg('Throughput against workers', 'not measured', LEFT),
    data.resume ? plotSvg(resumePlot(data.resume), RIGHT)
      : emptyPlotSvg('Resume cost against offset', 'not measured', RIGHT),
    `<text x="${WIDTH / 2}" y="${HEIGHT - 12}" font-family="sans-serif" font-size="11" fill="#555"`
      + ` text-anchor="middle">${escapeXml(footer)}</text>`,
    '</svg>',
    '',
  ].join('\n');
}

export function writeBenchSvg(path: string, data: ChartData): void {
  writeFileSync(path, renderBenchSvg(data));
}
