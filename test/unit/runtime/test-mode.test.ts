import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TEST_MODE_ENV, testModeOn } from '../../../src/runtime/authoring/test-mode.js';

test('test mode is on only for a true value: 1 or true', () => {
  for (const value of ['1', 'true', 'TRUE', ' true ']) assert.equal(testModeOn({ [TEST_MODE_ENV]: value }), true, value);
  for (const value of ['0', 'false', '', 'no', 'off', '2', 'yes']) {
    assert.equal(testModeOn({ [TEST_MODE_ENV]: value }), false, JSON.stringify(value));
  }
  assert.equal(testModeOn({}), false);
});
