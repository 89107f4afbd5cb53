// A small SVG plot: points with error bars joined by a line, and labelled
// horizontal reference lines. Plain SVG 1.1, generic font families, no script.

export interface PlotPoint {
  readonly x: number;
  readonly y: number;
  readonly spread: number;
}

export interface PlotSeries {
  readonly label: string;
  readonly color: string;
  readonly points: readonly PlotPoint[];
}

/** A level to compare with (the floor, the baseline): a dashed line across the plot. */
export interface PlotLevel {
  readonly label: string;
  readonly color: string;
  readonly y: number;
}

export interface Plot {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xTicks: readonly { readonly x: number; readonly label: string }[];
  readonly series: readonly PlotSeries[];
  readonly levels: readonly PlotLevel[];
  /** A logarithmic y axis: for figures an order of magnitude apart (csv-parse, the engine, a byte scan). */
  readonly logScale?: boolean;
}

/** Where a plot goes in the picture. */
export interface Frame {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

const FONT = 'font-family="sans-serif"';

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const text = (x: number, y: number, body: string, extra = '', size = 12) =>
  `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${FONT} font-size="${size}" ${extra}>${escapeXml(body)}</text>`;

/** Round values from 0 to past `max`: about five ticks. */
function linearTicks(max: number): number[] {
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((candidate) => candidate >= raw) ?? raw;
  const top = Math.ceil(max / step) * step;
  return Array.from({ length: Math.round(top / step) + 1 }, (_, k) => k * step);
}

/** 1, 2 and 5 times each power of ten from below `min` to past `max`. */
function logTicks(min: number, max: number): number[] {
  const ticks: number[] = [];
  for (let power = Math.floor(Math.log10(min)); power <= Math.ceil(Math.log10(max)); power++) {
    for (const m of [1, 2, 5]) ticks.push(m * 10 ** power);
  }
  const first = ticks.findLastIndex((tick) => tick <= min);
  const last = ticks.findIndex((tick) => tick >= max);
  return ticks.slice(Math.max(0, first), last + 1);
}

function scales(plot: Plot, frame: Frame) {
  const points = plot.series.flatMap((series) => series.points);
  const highs = [...points.map((p) => p.y + p.spread), ...plot.levels.map((l) => l.y)];
  const lows = [...points.map((p) => p.y), ...plot.levels.map((l) => l.y)].filter((v) => v > 0);
  const max = Math.max(...highs, 1e-9) * 1.05;
  const ticks = plot.logScale ? logTicks(Math.min(...lows, max) / 1.05, max) : linearTicks(max);
  const [yMin, yMax] = [ticks[0]!, ticks.at(-1)!];
  const position = plot.logScale
    ? (v: number) => (Math.log10(Math.max(v, yMin)) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))
    : (v: number) => v / yMax;
  const xs = plot.xTicks.map((t) => t.x);
  const [xMin, xMax] = [Math.min(...xs), Math.max(...xs)];
  const pad = 24;
  const x = (v: number) => frame.left + pad + ((v - xMin) / (xMax - xMin || 1)) * (frame.width - 2 * pad);
  const y = (v: number) => frame.top + frame.height - Math.min(1, Math.max(0, position(v))) * frame.height;
  return { x, y, ticks };
}

function axes(plot: Plot, frame: Frame, s: ReturnType<typeof scales>): string[] {
  const { left, top, width, height } = frame;
  const bottom = top + height;
  const parts = [`<rect x="${left}" y="${top}" width="${width}" height="${height}" fill="#fafafa" stroke="#888"/>`];
  for (const v of s.ticks) {
    const y = s.y(v);
    parts.push(`<line x1="${left}" y1="${y.toFixed(1)}" x2="${left + width}" y2="${y.toFixed(1)}" stroke="#e2e2e2"/>`);
    parts.push(text(left - 6, y + 4, String(Number(v.toPrecision(6))), 'text-anchor="end"'));
  }
  for (const tick of plot.xTicks) parts.push(text(s.x(tick.x), bottom + 16, tick.label, 'text-anchor="middle"'));
  parts.push(text(left + width / 2, top - 12, plot.title, 'text-anchor="middle" font-weight="bold"', 14));
  parts.push(text(left + width / 2, bottom + 34, plot.xLabel, 'text-anchor="middle"'));
  const yLabelAt = `transform="rotate(-90 ${left - 46} ${top + height / 2})" text-anchor="middle"`;
  parts.push(text(left - 46, top + height / 2, plot.yLabel, yLabelAt));
  return parts;
}

function seriesParts(series: PlotSeries, s: ReturnType<typeof scales>): string[] {
  const path = series.points.map((p, k) => `${k ? 'L' : 'M'}${s.x(p.x).toFixed(1)},${s.y(p.y).toFixed(1)}`).join(' ');
  const parts = [`<path d="${path}" fill="none" stroke="${series.color}" stroke-width="2.5"/>`];
  for (const p of series.points) {
    const [cx, top, bottom] = [s.x(p.x), s.y(p.y + p.spread), s.y(Math.max(0, p.y - p.spread))];
    parts.push(`<line x1="${cx.toFixed(1)}" y1="${top.toFixed(1)}" x2="${cx.toFixed(1)}" y2="${bottom.toFixed(1)}"`
      + ` stroke="${series.color}" stroke-width="1.5"/>`);
    parts.push(`<circle cx="${cx.toFixed(1)}" cy="${s.y(p.y).toFixed(1)}" r="5" fill="${series.color}"/>`);
  }
  return parts;
}

function levelParts(level: PlotLevel, frame: Frame, s: ReturnType<typeof scales>): string[] {
  const y = s.y(level.y).toFixed(1);
  return [
    `<line x1="${frame.left}" y1="${y}" x2="${frame.left + frame.width}" y2="${y}" stroke="${level.color}"`
      + ' stroke-width="2" stroke-dasharray="6 4"/>',
    // Above its line, unless that would run into the plot's top edge.
    text(frame.left + frame.width - 4, Number(y) - frame.top < 18 ? Number(y) + 15 : Number(y) - 5, level.label,
      `text-anchor="end" fill="${level.color}"`),
  ];
}

/** Below the axis label, one entry a series. */
function legend(plot: Plot, frame: Frame): string[] {
  const y = frame.top + frame.height + 54;
  return plot.series.flatMap((series, k) => {
    const x = frame.left + k * 180;
    const swatch = `<rect x="${x}" y="${y - 9}" width="12" height="10" fill="${series.color}"/>`;
    return [swatch, text(x + 18, y, series.label)];
  });
}

/** The plot's SVG elements inside `frame` (axes, grid, levels, series, legend). */
export function plotSvg(plot: Plot, frame: Frame): string {
  const s = scales(plot, frame);
  return [
    ...axes(plot, frame, s),
    ...plot.levels.flatMap((level) => levelParts(level, frame, s)),
    ...plot.series.flatMap((series) => seriesParts(series, s)),
    ...legend(plot, frame),
  ].join('\n');
}

/** A placeholder where a suite was not run. */
export function emptyPlotSvg(title: string, why: string, frame: Frame): string {
  const { left, top, width, height } = frame;
  return [
    `<rect x="${left}" y="${top}" width="${width}" height="${height}" fill="#fafafa" stroke="#888"/>`,
    text(left + width / 2, top - 12, title, 'text-anchor="middle" font-weight="bold"', 14),
    text(left + width / 2, top + height / 2, why, 'text-anchor="middle" fill="#666"'),
  ].join('\n');
}
