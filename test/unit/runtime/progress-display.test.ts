import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  fitFrame, heartbeat, humanProgress, progressDone, terminalBar,
} from '../../../src/runtime/cli/progress-display.js';
import { countOf, plural } from '../../../src/runtime/cli/plural.js';
import { renderImportText } from '../../../src/commands/import/import-text.js';
import { FakeClock, fakeHost, type FakeHost } from '../../helpers/fake-host.js';

const MiB = 1024 * 1024;

/** A host whose stderr is a terminal `columns` wide (undefined: one that does not say). */
function terminal(columns: number | undefined): FakeHost & { stderrColumns: () => number | undefined } {
  return { ...fakeHost([], {}, '/', new FakeClock()), stderrColumns: () => columns };
}

/** The frames written so far, each piece after a \r, without the padding that erases a longer one. */
const framesOf = (host: FakeHost) =>
  host.err.join('').split(/[\r\n]/).filter((frame) => frame.length > 0).map((frame) => frame.trimEnd());

test('the bar fits its width at every size: the bar shortens, then the elapsed time, rate and ETA go', () => {
  const progress = { done: 12 * MiB, total: 40 * MiB, unit: 'bytes', rows: 123456 };
  const pace = { rate: '8.0 MiB/s', eta: '4s' };
  for (let width = 10; width <= 140; width++) {
    const frame = fitFrame('stint import', progress, pace, '1.5s', width);
    assert.ok(frame.length <= width, `${width}: ${frame}`);
  }
  const wide = fitFrame('stint import', progress, pace, '1.5s', 120);
  assert.equal(wide, 'stint import [#######-----------------] 30% 12.0/40.0 MiB 123456 rows 8.0 MiB/s ETA 4s (1.5s)');
  const narrow = fitFrame('stint import', progress, pace, '1.5s', 60);
  assert.match(narrow, /^stint import \[#*-*\] 30% 12\.0\/40\.0 MiB 123456 rows/);
  assert.doesNotMatch(narrow, /\(1\.5s\)/, 'the elapsed time went first');
  assert.equal(fitFrame('stint import', progress, pace, '1.5s', 20), 'stint import 30% 12.');
});

test('the bar redraws within the terminal width and ends on the whole work done when it completed', () => {
  const host = terminal(50);
  const bar = terminalBar(host, 'stint analyze', host.clock.now);
  bar.update({ done: 0, total: 100 * MiB, unit: 'bytes' });
  host.clock.now += 1000;
  bar.update({ done: 50 * MiB, total: 100 * MiB, unit: 'bytes' });
  host.clock.now += 50;
  bar.update({ done: 91 * MiB, total: 100 * MiB, unit: 'bytes' });
  bar.end(true);
  const frames = framesOf(host);
  assert.ok(frames.every((frame) => frame.length <= 49), frames.join('\n'));
  assert.match(frames[1]!, / 50% /);
  assert.match(frames.at(-1)!, /^stint analyze \[#+\] 100% /);
  assert.ok(host.err.join('').endsWith('\n'));
  const pieces = host.err.join('').split('\r').map((piece) => piece.replace(/\n$/, ''));
  assert.ok(pieces.every((piece) => piece.length <= 49), 'the padding fits too');
});

test('a bar that did not complete ends on its last true frame, throttled or not', () => {
  const host = terminal(undefined);
  const bar = terminalBar(host, 'stint import', host.clock.now);
  bar.update({ done: 10 * MiB, total: 100 * MiB, unit: 'bytes', rows: 10 });
  host.clock.now += 10;
  bar.update({ done: 42 * MiB, total: 100 * MiB, unit: 'bytes', rows: 4200 });
  bar.end(false);
  const frames = framesOf(host);
  assert.equal(frames.length, 2, 'the throttled report is drawn by end');
  assert.match(frames.at(-1)!, /^stint import \[#+-+\] 42% 42\.0\/100\.0 MiB 4200 rows/);
});

test('a completed bar leaves out a row count older than its last report', () => {
  const host = terminal(100);
  const bar = terminalBar(host, 'stint import', host.clock.now);
  bar.update({ done: 90, total: 100, unit: 'bytes', rows: 9 });
  bar.end(true);
  assert.match(framesOf(host).at(-1)!, /100% 100\/100 B(?! 9 rows)/);
  const nothing = terminal(80);
  terminalBar(nothing, 'x', nothing.clock.now).end(true);
  assert.deepEqual(nothing.err, [], 'no report, no bar');
});

test('the rate and ETA come from this call\'s own reports', () => {
  const host = terminal(200);
  const bar = terminalBar(host, 'stint analyze', host.clock.now);
  bar.update({ done: 20 * MiB, total: 100 * MiB, unit: 'bytes' });
  host.clock.now += 2000;
  bar.update({ done: 40 * MiB, total: 100 * MiB, unit: 'bytes' });
  // 20 MiB in 2 s: 10 MiB/s, 60 MiB left: 6 s.
  assert.match(framesOf(host).at(-1)!, / 10\.0 MiB\/s ETA 6s \(2s\)$/);
});

test('heartbeat lines: the percentage, rate and ETA in human units first, the exact figures last', () => {
  const host = terminal(undefined);
  const beat = heartbeat(host, 'stint import', 1000, host.clock.now);
  beat.update({ done: 0, total: 4 * MiB, unit: 'bytes', rows: 0 });
  host.clock.now += 500;
  beat.update({ done: 1 * MiB, total: 4 * MiB, unit: 'bytes', rows: 1 });
  host.clock.fireNext();
  beat.end();
  assert.deepEqual(host.err, [
    '[0.0s] stint import: 0% (0 B of 4.0 MiB, 0 rows) [0/4194304 bytes, 0 rows]\n',
    '[1.0s] stint import: 25% (1.0 MiB of 4.0 MiB, 1 row), 1.0 MiB/s, ETA 3s [1048576/4194304 bytes, 1 row]\n',
  ]);
  assert.equal(host.clock.fireNext(), false, 'end stops the interval');
});

test('counts are pluralised', () => {
  assert.equal(plural(1, 'row'), '1 row');
  assert.equal(plural(0, 'row'), '0 rows');
  assert.equal(plural(2, 'file'), '2 files');
  assert.equal(countOf(1, 'steps'), '1 step');
  assert.equal(countOf(3, 'steps'), '3 steps');
  assert.equal(humanProgress({ done: 1, unit: 'rows' }), '1 row');
  assert.equal(humanProgress({ done: 1, total: 3, unit: 'rows' }), '33% (1 of 3 rows)');
  assert.equal(progressDone({ done: 1, total: 2, unit: 'bytes', rows: 1 }), '50% done (1 B of 2 B, 1 row)');
  assert.equal(progressDone({ done: 7, unit: 'items' }), '7 items done');
});

test("import's text says what a dry run would do, with plural counts", () => {
  const data = { rows_imported: 1, into: 't', unresolved: [], unresolved_total: 0, coverage: 'complete' };
  const dry = 'would import 1 row into t (a dry run: nothing was written)\ncoverage: complete\n';
  assert.equal(renderImportText({ ...data, effect: 'none' }), dry);
  assert.match(renderImportText({ ...data, rows_imported: 3, effect: 'written' }), /^imported 3 rows into t\n/);
  const gaps = { unresolved: [{ q: 'line 4', reason: 'bad' }], unresolved_total: 3, coverage: 'partial' };
  const text = renderImportText({ ...data, ...gaps, effect: 'written' });
  assert.match(text, /\n {2}line 4: bad\n {2}and 2 more rows not named here\n/);
});

test('at one width the bar never grows back: it does not flicker with the figures', () => {
  const host = terminal(60);
  const bar = terminalBar(host, 'stint analyze', host.clock.now);
  for (const [done, step] of [[1, 0], [5, 1000], [40, 1000], [99, 1000]] as const) {
    host.clock.now += step;
    bar.update({ done: done * MiB, total: 100 * MiB, unit: 'bytes' });
  }
  bar.end(true);
  const widths = framesOf(host).map((frame) => /\[([#-]+)\]/.exec(frame)?.[1]?.length ?? 0);
  assert.ok(widths.every((width) => width >= 8), widths.join());
  assert.ok(widths.every((width, k) => k === 0 || width <= widths[k - 1]!), widths.join());
  assert.ok(widths[0]! > widths.at(-1)!, 'the first frame, without rate and ETA, had room for a longer bar');
});

test('an ended display is silent: its line ended once, and a report after the answer draws nothing', () => {
  const host = terminal(80);
  const bar = terminalBar(host, 'stint analyze', host.clock.now);
  bar.update({ done: 0, total: 100 * MiB, unit: 'bytes' });
  bar.end(false);
  const ended = host.err.join('');
  assert.ok(ended.endsWith('\n'), 'the bar\'s line is ended before anything else is written');
  host.clock.now += 500;
  bar.update({ done: 42 * MiB, total: 100 * MiB, unit: 'bytes' });
  bar.end(true);
  assert.equal(host.err.join(''), ended, 'nothing after the end');
  const beat = heartbeat(host, 'stint analyze', 100, host.clock.now);
  beat.update({ done: 1, total: 2, unit: 'steps' });
  beat.end();
  const said = host.err.join('');
  beat.update({ done: 2, total: 2, unit: 'steps' });
  beat.end();
  assert.equal(host.err.join(''), said);
});
