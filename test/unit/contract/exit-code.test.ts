import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExitCode, SignalExitCode, STANDARD_EXIT_CODES } from '../../../src/contract/exit-code.js';
import { ErrorCode, EXIT_CODE_OF } from '../../../src/contract/error-code.js';
import { buildEnvelope } from '../../../src/contract/envelope.js';
import { outcomeOf } from '../../../src/contract/outcome.js';

test('the table is 0-14 plus the two signal codes, with their fixed names', () => {
  assert.deepEqual(Object.values(ExitCode), [...Array(15).keys()]);
  assert.deepEqual(Object.keys(ExitCode), [
    'SUCCESS', 'GENERAL_ERROR', 'ARG_ERROR', 'PARTIAL_FAILURE', 'PRECONDITION', 'NOT_FOUND', 'CONFLICT', 'PERMISSION_DENIED',
    'AUTH_REQUIRED', 'PAYMENT_REQUIRED', 'TIMEOUT', 'RATE_LIMITED', 'UNAVAILABLE', 'REDIRECTED', 'INCOMPLETE',
  ]);
  assert.deepEqual(Object.values(SignalExitCode), [130, 143]);
  for (const [name, code] of Object.entries(ExitCode)) assert.equal(STANDARD_EXIT_CODES[code].name, name);
});

test('hard invariants of the table hold', () => {
  for (const [code, entry] of Object.entries(STANDARD_EXIT_CODES)) {
    if (entry.retryable) assert.equal(entry.sideEffects, 'none', `code ${code}`);
    assert.equal(entry.sideEffects === 'complete', Number(code) === 0, `only 0 is complete (code ${code})`);
    assert.ok(entry.description.length >= 1 && entry.description.length <= 120);
  }
  assert.equal(STANDARD_EXIT_CODES[ExitCode.ARG_ERROR].sideEffects, 'none');
  assert.equal(STANDARD_EXIT_CODES[ExitCode.PARTIAL_FAILURE].retryable, false);
});

test('every error code maps to one exit code of the table', () => {
  for (const code of Object.values(ErrorCode)) assert.ok(Object.values(ExitCode).includes(EXIT_CODE_OF[code]), code);
});

test('ok is derived from the exit code and all five keys are present', () => {
  const success = buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: 1.6, data: { a: 1 } });
  assert.deepEqual(Object.keys(success), ['ok', 'data', 'error', 'warnings', 'meta']);
  assert.equal(success.ok, true);
  assert.equal(success.meta.duration_ms, 2);
  const failure = buildEnvelope({ exitCode: ExitCode.NOT_FOUND, durationMs: 0, error: { code: 'X_Y', message: 'm' } });
  assert.equal(failure.ok, false);
  assert.equal(failure.data, null);
  assert.throws(() => buildEnvelope({ exitCode: ExitCode.SUCCESS, durationMs: 0, error: { code: 'X', message: 'm' } }));
  const bare = buildEnvelope({ exitCode: ExitCode.GENERAL_ERROR, durationMs: 0 });
  assert.equal(bare.error?.code, 'INTERNAL_ERROR', 'a failure always carries an error, under a code of the table');
});

test('coverage follows from the outcome parts', () => {
  const e = { q: 'a', a: 1, cite: {} };
  const u = { q: 'b', reason: 'missing' };
  assert.equal(outcomeOf([e], []).coverage, 'complete');
  assert.equal(outcomeOf([e], [u], 'bad_input').coverage, 'partial');
  assert.equal(outcomeOf([], [u], 'bad_input').coverage, 'none');
  assert.equal(outcomeOf([e], [], 'budget').cause, undefined, 'a complete outcome names no cause');
});
