// `stint bench` on a small generated input: the result's shape and internal
// consistency (every ratio is the quotient of the two figures it names), never a speed.
import { readFileSync, writeFileSync } from 'node:fs';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runJson } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';
import { findChromium, screenshot } from '../helpers/headless-chromium.js';
import { decodePng } from '../helpers/png.js';
import { assertConsistent, assertOffsets, type Figure, type Ratio, type Resume } from '../helpers/bench-consistency.js';

const world = tempWorld('bench');
/** A guard against a hung run, not a claim about speed. */
const GUARD_MS = 280_000;

interface Report {
  machine: { cores: number; memory_bytes: number; node: string };
  input: { bytes: number; generated: boolean };
  figures: Figure[];
  ratios: Ratio[];
  resume?: Resume;
}

test('stint bench --format json: every suite, every ratio with the figures it comes from', async (t) => {
  const svg = world.path('chart.svg');
  const args = ['bench', '--size', '8MiB', '--samples', '2', '--workers', '2', '--format', 'json', '--svg', svg];
  const { envelope } = await runJson(args, { killAfterMs: GUARD_MS });
  assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
  const report = envelope.data as unknown as Report;
  assert.ok(report.machine.cores >= 1 && report.machine.memory_bytes > 0);
  assert.equal(report.machine.node, process.version);
  assert.ok(report.input.generated && report.input.bytes >= 8 * 1024 * 1024);
  assertConsistent(report);
  const ratios = new Set(report.ratios.map((r) => r.id));
  for (const id of [
    'throughput.engine_vs_csv_parse', 'throughput.engine_vs_byte_scan', 'scaling.workers_2_vs_1',
    'scaling.chunk_262144_vs_1048576', 'scaling.chunk_4194304_vs_1048576', 'checkpoint.on_vs_off',
    'checkpoint.writes_vs_run',
  ]) assert.ok(ratios.has(id), `ratio ${id} is reported`);
  assertOffsets(report.resume!);
  assert.equal((report as { svg?: string }).svg, svg);
  await t.test('its --svg chart draws in headless Chromium', (st) => assertChartDraws(st, svg));
});

/** The chart's two plots hold the engine's series color, and the browser reported no XML error. */
function assertChartDraws(t: TestContext, svg: string): void {
  const chromium = findChromium();
  if ('why' in chromium) {
    t.skip(chromium.why);
    return;
  }
  const text = readFileSync(svg, 'utf8');
  assert.doesNotMatch(text, /<script|https?:\/\/(?!www\.w3\.org\/2000\/svg)/, 'self-contained: no script, no link out');
  const png = world.path('chart.png');
  screenshot(chromium.path, svg, png, 960, 420);
  const image = decodePng(readFileSync(png));
  assert.equal(image.width, 960);
  // Chromium shows a parse error as a pink box at the top instead of the drawing.
  assert.deepEqual(image.pixel(40, 40), [255, 255, 255], 'the background is the chart\'s white');
  const engine = [0x1f, 0x6f, 0xb4];
  const near = (p: readonly number[]) => p.every((v, k) => Math.abs(v - engine[k]!) <= 24);
  for (const [name, left] of [['throughput', 80], ['resume', 560]] as const) {
    let count = 0;
    for (let y = 50; y < 330; y++) for (let x = left; x < left + 370; x++) if (near(image.pixel(x, y))) count++;
    assert.ok(count > 100, `the ${name} plot draws its series (${count} pixels of its color)`);
  }
}

test('stint bench --format text: the machine and a table of figures and ratios', async () => {
  const args = ['bench', '--size', '2MiB', '--suite', 'checkpoint', '--samples', '1', '--format', 'text'];
  const run = await runCli(args, { killAfterMs: GUARD_MS });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^machine: \d+ cores/m);
  assert.match(run.stdout, /^figure\s+median\s+spread\s+samples$/m);
  assert.match(run.stdout, /^checkpoint at every safe point \/ none \(time\)\s+\S+x\s+± \S+\s+checkpoint\.on \/ checkpoint\.off$/m);
});

test('stint bench refuses what it cannot measure, before any work', async () => {
  const file = world.path('absent.csv');
  const malformed = world.path('malformed.csv');
  writeFileSync(malformed, 'a,b\n1,"open\n');
  const cases: [string[], number, string][] = [
    [['--input', file, '--size', '2MiB'], 2, 'ARG_ERROR'],
    [['--workers', 'zero'], 2, 'ARG_ERROR'],
    [['--size', '1KiB'], 2, 'ARG_ERROR'],
    [['--suite', 'speed'], 2, 'ARG_ERROR'],
    [['--input', file], 5, 'FILE_NOT_FOUND'],
    [['--input', malformed, '--samples', '1'], 4, 'MALFORMED_CSV'],
  ];
  for (const [args, exit, code] of cases) {
    const { envelope } = await runJson(['bench', ...args]);
    assert.equal(envelope.meta.exit_code, exit, `${args.join(' ')}: ${JSON.stringify(envelope.error)}`);
    assert.equal(envelope.error?.code, code);
  }
});
