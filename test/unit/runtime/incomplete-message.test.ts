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
  const paused = "Paused at the call's 700ms budget with 50% done (5 of 10 rows); the state is saved";
  assert.equal(messageOf(IncompleteState.Paused, 700), paused);
  const running = "Stopped at the call's 700ms budget with 50% done (5 of 10 rows); the work goes on in the background";
  assert.equal(messageOf(IncompleteState.Running, 700), running);
  assert.equal(messageOf(IncompleteState.Paused, undefined), 'Paused with 50% done (5 of 10 rows); the state is saved');
  const stands = 'Running with 50% done (5 of 10 rows); the work goes on in the background';
  assert.equal(messageOf(IncompleteState.Running, undefined), stands);
});

test('an import measured in bytes says the rows beside; a budget in seconds reads as such', () => {
  const bytes = { done: 1536 * 1024, total: 3 * 1024 * 1024, unit: 'bytes', rows: 1 };
  const message = incompleteEnvelope({
    job, state: IncompleteState.Paused, progress: bytes, retryable: false, budgetMs: 30_000, durationMs: 0,
  }).error!.message;
  const said = "Paused at the call's 30s budget with 50% done (1.5 MiB of 3.0 MiB, 1 row); the state is saved";
  assert.equal(message, said);
});

test('a budget that ran out before the first safe point says what the next call does', () => {
  const none = (state: IncompleteState) => incompleteEnvelope({
    job, state, progress: undefined, retryable: true, budgetMs: 700, durationMs: 0,
  }).error!.message;
  assert.equal(none(IncompleteState.Paused),
    "The call's 700ms budget ran out before the first safe point; the next call starts from the beginning");
  assert.equal(none(IncompleteState.Running),
    "The call's 700ms budget ran out before the first safe point; the work goes on in the background");
});

test('a call that commits its first piece after answering says so', () => {
  const message = incompleteEnvelope({
    job, state: IncompleteState.Paused, progress: undefined, retryable: true, budgetMs: 100, durationMs: 0,
    finishing: true,
  }).error!.message;
  assert.equal(message, "The call's 100ms budget ran out before the first safe point; this process commits its "
    + 'first piece before it exits, and the next call continues from there');
});
