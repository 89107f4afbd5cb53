import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withKey } from '../../../src/commands/follow/follow-run.js';

test("follow's --idempotency-key goes among the command's flags, before a -- that ends them", () => {
  assert.deepEqual(withKey(['stint', 'import', 'a.csv', '--into', 'db'], 'k1'),
    ['stint', 'import', 'a.csv', '--into', 'db', '--idempotency-key', 'k1']);
  assert.deepEqual(withKey(['stint', 'import', '--into', 'db', '--', '-x.csv'], 'k2'),
    ['stint', 'import', '--into', 'db', '--idempotency-key', 'k2', '--', '-x.csv']);
});
