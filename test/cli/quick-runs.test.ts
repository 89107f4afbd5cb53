import { test } from 'node:test';
import assert from 'node:assert/strict';
import { soak } from '../../bench/soak-quick-runs.js';
import { fixturePath } from '../helpers/paths.js';

// Once in about a thousand quick calls, a pool closed while a thread still
// started aborted the process (no answer, exit 134). A hundred calls two at a
// time would rarely catch that alone; they do catch anything more common.
test('a hundred quick analyze calls, two at a time, each answer one envelope and an exit from the table', async () => {
  const report = await soak({ runs: 100, parallel: 2, file: fixturePath('csv', 'cities.csv') });
  assert.deepEqual(
    { no_answer: report.no_answer, exit_outside_table: report.exit_outside_table, bad_envelope: report.bad_envelope },
    { no_answer: 0, exit_outside_table: 0, bad_envelope: 0 },
    JSON.stringify(report.samples),
  );
  assert.deepEqual(report.nonzero, {}, 'cities.csv analyzes with exit 0 every time');
});
