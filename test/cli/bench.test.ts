// `stint bench` on a small generated input: the result's shape and internal
// consistency (every ratio is the quotient of the two figures it names), never a speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runJson } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('bench');
/** A guard against a hung run, not a claim about speed. */
const GUARD_MS = 280_000;

interface Figure { id: string; unit: string; value: number; spread: number; min: number; max: number; samples: number }
interface Ratio { id: string; unit: string; value: number; spread: number; numerator: string; denominator: string }
interface Report {
  machine: { cores: number; memory_bytes: number; node: string };
  input: { bytes: number; generated: boolean };
  figures: Figure[];
  ratios: Ratio[];
  resume?: { offsets: { target: number; reached: number[]; figure: string }[]; grows_with_offset: boolean };
}

/** Every figure has a unit, samples and a non-negative spread; every ratio divides two of them. */
function assertConsistent(report: { figures: Figure[]; ratios: Ratio[] }): void {
  const byId = new Map(report.figures.map((f) => [f.id, f]));
  assert.equal(byId.size, report.figures.length, 'figure ids are unique');
  for (const f of report.figures) {
    assert.ok(['MB/s', 'ms'].includes(f.unit), `${f.id} has a unit: ${f.unit}`);
    assert.ok(f.samples > 0, `${f.id} has samples`);
    assert.ok(f.spread >= 0, `${f.id} spread >= 0`);
    assert.ok(f.min <= f.value && f.value <= f.max, `${f.id}: the median lies within its samples`);
    assert.ok(f.value > 0 && Number.isFinite(f.value), `${f.id} is a positive number`);
  }
  for (const r of report.ratios) {
    const top = byId.get(r.numerator);
    const bottom = byId.get(r.denominator);
    assert.ok(top && bottom, `${r.id} names two figures of the report`);
    assert.equal(top.unit, bottom.unit, `${r.id} divides figures of one unit`);
    assert.equal(r.unit, 'x');
    assert.ok(Math.abs(r.value - top.value / bottom.value) <= 1e-9 * Math.abs(r.value), `${r.id} is their quotient`);
    assert.ok(r.spread >= 0, `${r.id} spread >= 0`);
  }
}

test('stint bench --format json: every suite, every ratio with the figures it comes from', async () => {
  const args = ['bench', '--size', '8MiB', '--samples', '2', '--workers', '2', '--format', 'json'];
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
    'checkpoint.writes_vs_run', 'resume.at_10_vs_fresh', 'resume.at_50_vs_fresh', 'resume.at_90_vs_fresh',
    'resume.at_90_vs_at_10',
  ]) assert.ok(ratios.has(id), `ratio ${id} is reported`);
  const offsets = report.resume!.offsets;
  assert.deepEqual(offsets.map((o) => o.target), [0.1, 0.5, 0.9]);
  for (const offset of offsets) {
    // A stop lands at the safe point after the offset, never before it.
    for (const at of offset.reached) assert.ok(at >= offset.target && at < 1, `${offset.figure} started at ${at}`);
  }
  assert.equal(typeof report.resume!.grows_with_offset, 'boolean');
});

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
  const cases: [string[], number, string][] = [
    [['--input', file, '--size', '2MiB'], 2, 'ARG_ERROR'],
    [['--workers', 'zero'], 2, 'ARG_ERROR'],
    [['--size', '1KiB'], 2, 'ARG_ERROR'],
    [['--suite', 'speed'], 2, 'ARG_ERROR'],
    [['--input', file], 5, 'FILE_NOT_FOUND'],
  ];
  for (const [args, exit, code] of cases) {
    const { envelope } = await runJson(['bench', ...args]);
    assert.equal(envelope.meta.exit_code, exit, `${args.join(' ')}: ${JSON.stringify(envelope.error)}`);
    assert.equal(envelope.error?.code, code);
  }
});
