// What every `stint bench` and `stint bench resume` result keeps: figures with units, samples and spreads,
// and ratios that are the quotients of the two figures they name.
import assert from 'node:assert/strict';

export interface Figure {
  id: string; unit: string; value: number; spread: number; min: number; max: number; samples: number;
}
export interface Ratio { id: string; unit: string; value: number; spread: number; numerator: string; denominator: string }
export interface Resume {
  offsets: { target: number; reached: number[]; figure: string }[];
  grows_with_offset: boolean;
  figures: Figure[];
  ratios: Ratio[];
}

/** Every figure has a unit, samples and a non-negative spread; every ratio divides two of them. */
export function assertConsistent(report: { figures: Figure[]; ratios: Ratio[] }): void {
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

/** Three offsets, each with continuations that started near it (a stop is asked for early by the overshoot before). */
export function assertOffsets(resume: Resume): void {
  assert.deepEqual(resume.offsets.map((o) => o.target), [0.1, 0.5, 0.9]);
  const ids = new Set(resume.ratios.map((r) => r.id));
  for (const id of ['resume.at_10_vs_fresh', 'resume.at_50_vs_fresh', 'resume.at_90_vs_fresh', 'resume.at_90_vs_at_10']) {
    assert.ok(ids.has(id), `ratio ${id} is reported`);
  }
  for (const offset of resume.offsets) {
    assert.ok(offset.reached.length > 0, `${offset.figure} has samples`);
    for (const at of offset.reached) {
      assert.ok(at >= offset.target - 0.2 && at < 1, `${offset.figure} started at ${at}`);
    }
  }
  assert.equal(typeof resume.grows_with_offset, 'boolean');
}
