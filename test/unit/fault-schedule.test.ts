import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CI_SEEDS, describeSchedule, Fault, generateSchedule, Workload } from '../helpers/fault-schedule.js';

test('the same seed gives the same schedule, step by step', () => {
  for (let seed = 1; seed <= 200; seed++) assert.deepEqual(generateSchedule(seed), generateSchedule(seed));
});

test('different seeds give different schedules', () => {
  const seen = new Set(Array.from({ length: 200 }, (_, k) => JSON.stringify({ ...generateSchedule(k + 1), seed: 0 })));
  assert.equal(seen.size, 200);
});

test('a schedule fits its workload: supervisor kills only for analyze, exports only beside imports', () => {
  for (let seed = 1; seed <= 500; seed++) {
    const s = generateSchedule(seed);
    for (const step of s.steps) {
      if (step.fault === Fault.KillSupervisor) assert.equal(s.workload, Workload.Analyze);
      if (step.fault === Fault.Export) assert.notEqual(s.workload, Workload.Analyze);
      assert.equal(step.export !== undefined, step.fault === Fault.Export);
      const stopping: readonly string[] = [Fault.Sigint, Fault.Sigterm, Fault.KillFront, Fault.Cancel];
      if (step.budgetMs === 0) assert.ok(stopping.includes(step.fault), 'only a stopping fault runs unbounded');
    }
    if (s.workload === Workload.Upsert) assert.ok(s.csv.keys < s.csv.rows, 'keys repeat');
    else assert.equal(s.csv.keys, s.csv.rows);
  }
});

test('the seeds CI run cover every workload and fault, and forced stops (slow saves at large and small chunks)', () => {
  const schedules = CI_SEEDS.map(generateSchedule);
  assert.deepEqual(new Set(schedules.map((s) => s.workload)), new Set(Object.values(Workload)));
  assert.deepEqual(new Set(schedules.flatMap((s) => s.steps.map((step) => step.fault))), new Set(Object.values(Fault)));
  const slow = schedules.filter((s) => s.slowSave !== undefined).map((s) => s.chunkSize);
  assert.ok(slow.includes('64KiB') && slow.some((size) => size !== '64KiB'), `slow saves at ${slow.join(', ')}`);
});

test('slow saves only on analyze, on about half of its schedules', () => {
  const schedules = Array.from({ length: 400 }, (_, k) => generateSchedule(k + 1));
  for (const s of schedules) if (s.slowSave) assert.equal(s.workload, Workload.Analyze);
  const analyze = schedules.filter((s) => s.workload === Workload.Analyze);
  const share = analyze.filter((s) => s.slowSave).length / analyze.length;
  assert.ok(share > 0.3 && share < 0.7, `${share} of ${analyze.length} analyze schedules`);
});

test('a described schedule names its seed, every step, and the line that replays it', () => {
  const s = generateSchedule(1234);
  const text = describeSchedule(s);
  assert.match(text, /^seed 1234: /);
  assert.equal(text.split('\n').filter((line) => /^ {2}\d+\. /.test(line)).length, s.steps.length);
  assert.match(text, /STINT_FAULT_SEED=1234 node --test/);
});
