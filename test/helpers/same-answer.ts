// One answer, however the work was split: two runs of one invocation give the same analyze `data`, compared
// whole and byte for byte as JSON, estimates included.
import assert from 'node:assert/strict';

/** Whether two answers are the same bytes as JSON. */
export function isSameAnswer(actual: unknown, expected: unknown): boolean {
  return JSON.stringify(actual) === JSON.stringify(expected);
}

/** Fails unless `actual` is byte for byte (as JSON) the `expected` answer. */
export function assertSameAnswer(actual: unknown, expected: unknown, message: string): void {
  assert.equal(JSON.stringify(actual), JSON.stringify(expected), message);
}
