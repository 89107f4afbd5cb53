import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration, formatDuration } from '../../../src/runtime/cli/duration.js';
import { nearest } from '../../../src/runtime/cli/suggest.js';
import { resolveBudget } from '../../../src/runtime/authoring/budget.js';

test('durations', () => {
  assert.equal(parseDuration('250'), 250);
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration('5s'), 5000);
  assert.equal(parseDuration('2m'), 120000);
  assert.equal(parseDuration('1h'), 3600000);
  assert.equal(parseDuration('0'), 0);
  for (const bad of ['', 's', '-5s', '1.5s', '5d', '5 s', '99999999999999999999h']) assert.equal(parseDuration(bad), undefined, bad);
  assert.equal(formatDuration(90000), '1m30s');
});

test('suggestions only for near misses', () => {
  assert.equal(nearest('manfest', ['manifest', 'analyze']), 'manifest');
  assert.equal(nearest('analyse', ['manifest', 'analyze']), 'analyze');
  assert.equal(nearest('zzzzzz', ['manifest', 'analyze']), undefined);
});

test('budget resolution: flag > env > 30000; none in a terminal; 0 stays 0', () => {
  assert.deepEqual(resolveBudget({ flagMs: 5000, env: { AGENT_CALL_BUDGET_MS: '2000' }, interactive: false }), { ok: true, budgetMs: 5000 });
  assert.deepEqual(resolveBudget({ flagMs: undefined, env: { AGENT_CALL_BUDGET_MS: '2000' }, interactive: false }), { ok: true, budgetMs: 2000 });
  assert.deepEqual(resolveBudget({ flagMs: undefined, env: {}, interactive: false }), { ok: true, budgetMs: 30000 });
  assert.deepEqual(resolveBudget({ flagMs: undefined, env: { AGENT_CALL_BUDGET_MS: '2000' }, interactive: true }), { ok: true, budgetMs: undefined });
  assert.deepEqual(resolveBudget({ flagMs: 0, env: {}, interactive: true }), { ok: true, budgetMs: 0 });
  assert.equal(resolveBudget({ flagMs: undefined, env: { AGENT_CALL_BUDGET_MS: 'x' }, interactive: false }).ok, false);
});
