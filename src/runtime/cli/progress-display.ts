import type { Progress } from '../../contract/incomplete.js';
import { formatDuration } from './duration.js';
import type { Host } from '../host.js';

/** Where progress shows for people: stderr only, never stdout. */
export type ProgressSink = Pick<Host, 'writeStderr' | 'now' | 'setInterval'>;

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

function amount(value: number, unit: string | undefined): string {
  if (unit === 'bytes') {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
    let v = value;
    let k = 0;
    while (v >= 1024 && k < units.length - 1) { v /= 1024; k++; }
    return `${v.toFixed(k ? 1 : 0)} ${units[k]}`;
  }
  return `${value}${unit ? ` ${unit}` : ''}`;
}

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

/** A progress view that lives as long as the work: `update` on every report, `end` once. */
export interface ProgressDisplay {
  update(progress: Progress): void;
  end(): void;
}

/**
 * `--heartbeat-ms N`: one plain line on stderr at the first report and then
 * every N ms, `[elapsed] command: done/total unit (pct%)` with exact numbers.
 */
export function heartbeat(sink: ProgressSink, label: string, everyMs: number, started: number): ProgressDisplay {
  let latest: Progress | undefined;
  const line = () => {
    if (!latest) return;
    const elapsed = ((sink.now() - started) / 1000).toFixed(1);
    sink.writeStderr(`[${elapsed}s] ${label}: ${describeProgress(latest, true)}\n`);
  };
  const stop = sink.setInterval(line, everyMs);
  return {
    update(progress) {
      const first = latest === undefined;
      latest = progress;
      if (first) line();
    },
    end() {
      stop();
    },
  };
}

/**
 * A one-line bar for a person at a terminal, with rate and ETA, redrawn at
 * most every 100 ms with a carriage return. (Small enough that a library
 * would bring more than it saves; it knows our stderr-only rule.)
 */
export function terminalBar(sink: ProgressSink, label: string, started: number): ProgressDisplay {
  let lastDraw = -Infinity;
  let first: { at: number; done: number } | undefined;
  let drawn = 0;
  return {
    update(progress) {
      const now = sink.now();
      first ??= { at: now, done: progress.done };
      if (now - lastDraw < REDRAW_MS) return;
      lastDraw = now;
      const ratio = progress.total ? Math.min(1, progress.done / progress.total) : 0;
      const filled = Math.round(ratio * BAR_WIDTH);
      const seconds = (now - first.at) / 1000;
      const rate = seconds > 0 ? (progress.done - first.done) / seconds : 0;
      const eta = rate > 0 && progress.total
        ? ` ETA ${formatDuration(Math.round(((progress.total - progress.done) / rate) * 1000))}`
        : '';
      const speed = rate > 0 ? ` ${amount(Math.round(rate), progress.unit)}/s` : '';
      const bar = `${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}`;
      const elapsed = formatDuration(Math.round(now - started));
      const text = `${label} [${bar}] ${describeProgress(progress)}${speed}${eta} (${elapsed})`;
      // Spaces, not an erase-line escape: no ANSI codes at all.
      sink.writeStderr(`\r${text.padEnd(drawn)}`);
      drawn = Math.max(drawn, text.length);
    },
    end() {
      if (drawn > 0) sink.writeStderr('\n');
    },
  };
}
