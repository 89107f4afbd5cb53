// bench/README.md's figures table is written by the run, between two marker
// comments, so the figures a reader sees are the last run's, not typed by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import type { Figure } from './measure.js';
import type { Machine } from '../src/commands/bench/machine.js';

export const START = '<!-- bench:figures:start (written by npm run bench; edits here are overwritten) -->';
export const END = '<!-- bench:figures:end -->';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function valueOf(f: Figure): string {
  if (f.unit === 'x') return `${f.value.toFixed(2)}×`;
  return `${f.value.toFixed(f.value >= 100 ? 0 : 2)} ${f.unit}`;
}

/** The region's text: when, where, which suites, then one row a figure. */
export function figuresTable(figures: readonly Figure[], machine: Machine, suites: readonly string[]): string {
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  // The load says how far to trust the absolute figures: other work on the machine slows them, not the ratios.
  const load = loadavg().map((value) => value.toFixed(1)).join(' ');
  const where = `${machine.cores} cores, ${(machine.memory_bytes / 1024 ** 3).toFixed(1)} GiB, Node ${machine.node},`
    + ` load average at the end ${load}`;
  const rows = figures.map((f) =>
    `| ${f.suite} | ${cell(f.name)} | ${valueOf(f)} | ${cell(f.target ?? '')} | ${cell(f.detail ?? '')} |`);
  return [
    `${when} UTC, ${where}; suites: ${suites.join(', ')}.`,
    '',
    '| suite | figure | value | target | detail |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/** Replaces the marked region of `readme` (which must hold both markers) with the table. */
export function writeReadmeFigures(readme: string, table: string): void {
  const text = readFileSync(readme, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${readme} has no ${START} ... ${END} region`);
  writeFileSync(readme, `${text.slice(0, start + START.length)}\n${table}\n${text.slice(end)}`);
}
