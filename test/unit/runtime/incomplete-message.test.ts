import { test } from 'node:test';
import assert from 'node:assert/strict';
import { incompleteEnvelope } from '../../../src/runtime/jobs/incomplete-response.js';
import type { JobRecord } from '../../../src/runtime/jobs/job-record.js';
import { IncompleteState } from '../../../src/contract/vocabulary/job-state.js';

const job = {
  id: 'import-0000abcd', argv: ['import', 'a.csv'], programWords: ['stint'], writes: false,
} as unknown as JobRecord;
const progress = { done: 5, total: 10, unit: 'rows' };
const messageOf = (state: IncompleteState, budgetMs: number | undefined) =>
  incompleteEnvelope({ job, state, progress, retryable: true, budgetMs, durationMs: 0 }).error!.message;

test('an answer within a budget names it; one about a job (job status) says where the job stands', () => {
  const paused = 'Call budget of 700ms reached after 5 of 10 rows; state is saved';
  assert.equal(messageOf(IncompleteState.Paused, 700), paused);
  const running = 'Call budget of 700ms reached at 50%; the work continues in the background';
  assert.equal(messageOf(IncompleteState.Running, 700), running);
  assert.equal(messageOf(IncompleteState.Paused, undefined), 'Paused after 5 of 10 rows; state is saved');
  assert.equal(messageOf(IncompleteState.Running, undefined), 'Running at 50%; the work continues in the background');
});
