import { test } from 'node:test';
import assert from 'node:assert/strict';
import { membersOf } from '../../../src/contract/vocabulary/closed-set.js';
import { JobState, IncompleteState } from '../../../src/contract/vocabulary/job-state.js';
import { StopLimit } from '../../../src/contract/vocabulary/stop-limit.js';
import { RunStatus } from '../../../src/contract/vocabulary/run-status.js';
import { Coverage } from '../../../src/contract/vocabulary/coverage.js';
import { Cause } from '../../../src/contract/vocabulary/cause.js';
import { DangerLevel } from '../../../src/contract/vocabulary/danger-level.js';
import { SideEffects } from '../../../src/contract/vocabulary/side-effects.js';
import { Phase } from '../../../src/contract/vocabulary/phase.js';
import { ErrorCode } from '../../../src/contract/error-code.js';
import { WarningCode } from '../../../src/contract/warning-code.js';

// Each closed set is pinned: adding, removing or renaming a member must be a
// deliberate change to this list, because callers branch on these strings.
const pinned: [string, Record<string, string>, string[]][] = [
  ['JobState', JobState, ['running', 'paused', 'done', 'failed', 'cancelled', 'lost', 'stalled', 'timed_out']],
  ['IncompleteState', IncompleteState, ['running', 'paused']],
  ['StopLimit', StopLimit, ['maxTurns', 'maxTokens', 'maxToolCalls', 'maxWallMs', 'maxChildren', 'maxConcurrent', 'maxDepth', 'completion', 'timeout']],
  ['RunStatus', RunStatus, ['done', 'pending', 'incomplete']],
  ['Coverage', Coverage, ['complete', 'partial', 'none']],
  ['Cause', Cause, ['budget', 'turn_cap', 'out_of_scope', 'dependency_down', 'no_progress', 'cancelled', 'timeout', 'bad_input']],
  ['DangerLevel', DangerLevel, ['safe', 'mutating', 'destructive']],
  ['SideEffects', SideEffects, ['none', 'partial', 'complete']],
  ['Phase', Phase, ['validation', 'execution', 'cleanup']],
];

for (const [name, vocabulary, members] of pinned) {
  test(`${name} is exactly its pinned members`, () => {
    assert.deepEqual([...membersOf(vocabulary)], members);
    assert.equal(new Set(members).size, members.length, 'members are distinct');
  });
}

test('the run-status set has no timeout: a run deadline is incomplete with a limit', () => {
  assert.ok(!(membersOf(RunStatus) as readonly string[]).includes('timeout'));
  assert.ok((membersOf(StopLimit) as readonly string[]).includes('timeout'), 'a deadline is a stop limit');
});

test('error and warning codes match the wire pattern', () => {
  for (const code of [...membersOf(ErrorCode), ...membersOf(WarningCode)]) assert.match(code, /^[A-Z][A-Z0-9_]+$/);
});
