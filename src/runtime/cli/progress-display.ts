import type { Progress } from '../../contract/incomplete.js';
import { ProgressUnit } from '../../contract/vocabulary/progress-unit.js';
import { formatSizeFigure } from './byte-size.js';
import { formatDuration } from './duration.js';
import { countOf } from './plural.js';
import type { Host } from '../authoring/host.js';

/** Where progress shows for people: stderr only, never stdout (and the terminal's width, when it has one). */
export type ProgressSink = Pick<Host, 'writeStderr' | 'now' | 'setInterval'> & Partial<Pick<Host, 'stderrColumns'>>;

const BAR_WIDTH = 24;
const MIN_BAR_WIDTH = 8;
const REDRAW_MS = 100;
/** When the terminal does not say its width. */
const DEFAULT_COLUMNS = 80;

function amount(value: number, unit: string | undefined): string {
  if (unit === ProgressUnit.Bytes) return formatSizeFigure(value);
  return unit ? countOf(value, unit) : String(value);
}

const percentOf = (progress: Progress) =>
  progress.total ? Math.floor((100 * Math.min(progress.done, progress.total)) / progress.total) : undefined;

/** `12.0 MiB/980.0 MiB (1%)`, or with exact numbers `12582912/1027604480 bytes (1%)` */
export function describeProgress(progress: Progress, exact = false): string {
  if (exact) {
    const total = progress.total !== undefined ? `/${progress.total}` : '';
    const percent = progress.total ? ` (${Math.floor((100 * progress.done) / progress.total)}%)` : '';
    return `${progress.done}${total}${progress.unit ? ` ${progress.unit}` : ''}${percent}`;
  }
  const total = progress.total !== undefined ? `/${amount(progress.total, progress.unit)}` : '';
  const percent = progress.total ? ` (${Math.floor((100 * progress.done) / progress.total)}%)` : '';
  return `${amount(progress.done, progress.unit)}${total}${percent}`;
}

/** A progress in words: its percentage (with a total) and its figures, `1.2 MiB of 2.9 MiB, 20586 rows`. */
function wordsOf(progress: Progress): { readonly percent?: number; readonly figures: string } {
  const rows = progress.rows !== undefined && progress.unit !== ProgressUnit.Rows
    ? `, ${countOf(progress.rows, ProgressUnit.Rows)}`
    : '';
  const percent = percentOf(progress);
  if (percent === undefined) return { figures: `${amount(progress.done, progress.unit)}${rows}` };
  const figures = progress.unit === ProgressUnit.Bytes || progress.unit === undefined
    ? `${amount(progress.done, progress.unit)} of ${amount(progress.total!, progress.unit)}`
    : `${progress.done} of ${amount(progress.total!, progress.unit)}`;
  return { percent, figures: `${figures}${rows}` };
}

/**
 * What a person reads of a progress: `42% (1.2 GiB of 2.9 GiB)`, `42% (1.2 MiB of 2.9 MiB, 20586 rows)`,
 * `42% (420 of 1000 rows)`; without a total, `20586 rows`.
 */
export function humanProgress(progress: Progress): string {
  const { percent, figures } = wordsOf(progress);
  return percent === undefined ? figures : `${percent}% (${figures})`;
}

/** How far the work got, for a sentence: `82% done (2.4 GiB of 2.9 GiB)`; without a total, `20586 rows done`. */
export function progressDone(progress: Progress): string {
  const { percent, figures } = wordsOf(progress);
  return percent === undefined ? `${figures} done` : `${percent}% done (${figures})`;
}

/** How fast this call goes, from the first report it saw (a resumed job's earlier work is not its speed). */
interface Pace {
  /** `3.1 MiB/s`; none before there is a rate. */
  readonly rate?: string;
  /** `5s`; none without a total or a rate. */
  readonly eta?: string;
}

function paceOf(first: { at: number; done: number }, progress: Progress, now: number): Pace {
  const seconds = (now - first.at) / 1000;
  const perSecond = seconds > 0 ? (progress.done - first.done) / seconds : 0;
  if (perSecond <= 0) return {};
  const rate = `${amount(Math.round(perSecond), progress.unit)}/s`;
  const left = progress.total !== undefined ? progress.total - progress.done : 0;
  return left > 0 ? { rate, eta: formatDuration(Math.round((left / perSecond) * 1000)) } : { rate };
}

/** A progress view that lives as long as the work: `update` on every report, `end` once. */
export interface ProgressDisplay {
  update(progress: Progress): void;
  /** `completed`: the work reached its end (exit 0), so the last frame shows all of it done. Once ended, silent. */
  end(completed?: boolean): void;
}

/** The exact figures a heartbeat line ends with, for scripts and logs: `[12582912/30000000 bytes, 20586 rows]`. */
function exactOf(progress: Progress): string {
  const total = progress.total !== undefined ? `/${progress.total}` : '';
  const rows = progress.rows !== undefined ? `, ${countOf(progress.rows, ProgressUnit.Rows)}` : '';
  return `[${progress.done}${total}${progress.unit ? ` ${progress.unit}` : ''}${rows}]`;
}

/**
 * `--heartbeat-ms N`: one plain line on stderr at the first report and then every N ms,
 * `[2.0s] stint analyze: 42% (12.0 MiB of 28.6 MiB), 3.1 MiB/s, ETA 5s [12582912/30000000 bytes]`:
 * what a person reads first, the exact figures last.
 */
export function heartbeat(sink: ProgressSink, label: string, everyMs: number, started: number): ProgressDisplay {
  let latest: Progress | undefined;
  let first: { at: number; done: number } | undefined;
  let shown: string | undefined;
  const line = () => {
    if (!latest || !first) return;
    const now = sink.now();
    const elapsed = ((now - started) / 1000).toFixed(1);
    // The same figures at the same tenth of a second say nothing new.
    if (shown === `${elapsed} ${latest.done}`) return;
    shown = `${elapsed} ${latest.done}`;
    const { rate, eta } = paceOf(first, latest, now);
    const pace = `${rate ? `, ${rate}` : ''}${eta ? `, ETA ${eta}` : ''}`;
    sink.writeStderr(`[${elapsed}s] ${label}: ${humanProgress(latest)}${pace} ${exactOf(latest)}\n`);
  };
  const stop = sink.setInterval(line, everyMs);
  let ended = false;
  return {
    update(progress) {
      if (ended) return;
      const isFirst = latest === undefined;
      latest = progress;
      first ??= { at: sink.now(), done: progress.done };
      if (isFirst) line();
    },
    end() {
      if (ended) return;
      ended = true;
      stop();
      // The last report gets its line, so the heartbeat ends where the work did.
      if (latest && !shown?.endsWith(` ${latest.done}`)) line();
    },
  };
}

/** The bar's figures, compact: `42% 1.2/2.9 GiB`, `42% 1.2 MiB/2.9 GiB 20586 rows`, `42% 420/1000 rows`. */
function compactProgress(progress: Progress): string {
  const rows = progress.rows !== undefined && progress.unit !== ProgressUnit.Rows
    ? ` ${countOf(progress.rows, ProgressUnit.Rows)}`
    : '';
  const percent = percentOf(progress);
  if (percent === undefined) return `${amount(progress.done, progress.unit)}${rows}`;
  const total = amount(progress.total!, progress.unit);
  const done = amount(progress.done, progress.unit);
  const suffix = total.slice(total.indexOf(' '));
  // `1.2/2.9 GiB`: the unit once when both figures share it.
  const head = done.endsWith(suffix) ? done.slice(0, done.length - suffix.length) : done;
  return `${percent}% ${head}/${total}${rows}`;
}

/** A frame's text, and the width of the bar it drew (none when it had no room or no total). */
interface Frame {
  readonly text: string;
  readonly bar?: number;
}

/**
 * One frame of the bar within `width` characters, never more (a wrapped line breaks every later redraw):
 * the bar shortens first (to at most `maxBar`), then the elapsed time goes, then the rate, then the ETA,
 * then the bar itself.
 */
export function fitFrame(
  label: string, progress: Progress, pace: Pace, elapsed: string, width: number, maxBar = BAR_WIDTH,
): string {
  return frameOf(label, progress, pace, elapsed, width, maxBar).text;
}

function frameOf(
  label: string, progress: Progress, pace: Pace, elapsed: string, width: number, maxBar: number,
): Frame {
  const figures = compactProgress(progress);
  const rate = pace.rate ? ` ${pace.rate}` : '';
  const eta = pace.eta ? ` ETA ${pace.eta}` : '';
  const tails = [`${rate}${eta} (${elapsed})`, `${rate}${eta}`, eta, ''];
  const ratio = progress.total ? Math.min(1, progress.done / progress.total) : undefined;
  for (const tail of tails) {
    const text = `${figures}${tail}`;
    if (ratio === undefined) {
      if (label.length + 1 + text.length <= width) return { text: `${label} ${text}` };
      continue;
    }
    const room = Math.min(maxBar, width - label.length - text.length - 4);
    if (room >= MIN_BAR_WIDTH) {
      const filled = Math.round(ratio * room);
      return { text: `${label} [${'#'.repeat(filled)}${'-'.repeat(room - filled)}] ${text}`, bar: room };
    }
  }
  return { text: `${label} ${figures}`.slice(0, Math.max(0, width)) };
}

/**
 * A one-line bar for a person at a terminal, with rate and ETA, redrawn at most every 100 ms with a carriage
 * return, fitted to the terminal's width at each frame (so it follows a resize). `end` draws the last frame:
 * all done when the work completed, else the last true one. (Small enough that a library would bring more
 * than it saves; it knows our stderr-only rule.)
 */
export function terminalBar(sink: ProgressSink, label: string, started: number): ProgressDisplay {
  let lastDraw = -Infinity;
  let first: { at: number; done: number } | undefined;
  let latest: Progress | undefined;
  let drawn = 0;
  // The bar only shortens while the width stays (a bar that grows and shrinks with the figures flickers).
  let fitted = { width: 0, bar: BAR_WIDTH };
  const draw = (progress: Progress) => {
    const now = sink.now();
    lastDraw = now;
    // The last column stays free: writing into it makes some terminals wrap at the next character.
    const width = (sink.stderrColumns?.() || DEFAULT_COLUMNS) - 1;
    if (width !== fitted.width) fitted = { width, bar: BAR_WIDTH };
    const elapsed = formatDuration(Math.round(now - started));
    const { text, bar } = frameOf(label, progress, paceOf(first!, progress, now), elapsed, width, fitted.bar);
    if (bar !== undefined) fitted = { width, bar };
    // Spaces, not an erase-line escape: no ANSI codes at all.
    sink.writeStderr(`\r${text.padEnd(Math.min(drawn, width))}`);
    drawn = text.length;
  };
  let ended = false;
  return {
    update(progress) {
      if (ended) return;
      latest = progress;
      first ??= { at: sink.now(), done: progress.done };
      if (sink.now() - lastDraw >= REDRAW_MS) draw(progress);
    },
    end(completed = false) {
      if (ended) return;
      ended = true;
      if (!latest) return;
      draw(completed ? completedOf(latest) : latest);
      sink.writeStderr('\n');
    },
  };
}

/** The whole work done: `done` reaches the total, and a row count older than the last report is left out. */
function completedOf(progress: Progress): Progress {
  if (progress.total === undefined || progress.done >= progress.total) return progress;
  const { rows: _stale, ...rest } = progress;
  return { ...rest, done: progress.total };
}
