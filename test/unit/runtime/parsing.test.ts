import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatSize, formatSizeFigure, parseSize, SIZE_PATTERN } from '../../../src/runtime/cli/byte-size.js';
import { parseDuration, formatDuration } from '../../../src/runtime/cli/duration.js';
import { didYouMean, likelyMeant, nearest } from '../../../src/runtime/cli/suggest.js';
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

test('sizes in SI and binary units, any case, fractions rounded to whole bytes; the manifest pattern agrees', () => {
  const sizes: [string, number][] = [
    ['65536', 65536], ['512B', 512], ['64kB', 64_000], ['64KB', 64_000], ['64MB', 64_000_000], ['2GB', 2e9],
    ['1TB', 1e12], ['64KiB', 65536], ['64kib', 65536], ['64MiB', 64 * 2 ** 20], ['2GiB', 2 ** 31], ['64K', 65536],
    ['64M', 64 * 2 ** 20], ['1.5GB', 1.5e9], ['1.5KiB', 1536], ['0.5B', 1], ['64 MB', 64e6], [' 1MiB ', 2 ** 20],
  ];
  const pattern = new RegExp(SIZE_PATTERN);
  for (const [text, bytes] of sizes) {
    assert.equal(parseSize(text), bytes, text);
    assert.ok(pattern.test(text.trim()), `the manifest's pattern takes ${text}`);
  }
  for (const bad of ['', 'MB', '-5MB', '5XB', '5 MB MB', '1e3', '.5MB', '5PB', '99999999999TB']) {
    assert.equal(parseSize(bad), undefined, bad);
  }
  for (const bad of ['', 'MB', '-5MB', '5XB', '1e3', '.5MB', '5PB']) assert.ok(!pattern.test(bad), bad);
  assert.equal(formatSize(4 * 2 ** 20), '4MiB');
  assert.equal(formatSize(1e6), '1000000');
  assert.equal(formatSizeFigure(1.5 * 2 ** 20), '1.5 MiB');
  assert.equal(formatSizeFigure(512), '512 B');
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

test('a mistyped column name: the names it likely meant, said once as "did you mean"', () => {
  const header = ['population', 'name', 'popular', 'Score', 'region'];
  assert.deepEqual(likelyMeant('popu', header), ['population', 'popular'], 'the names that begin with it');
  assert.deepEqual(likelyMeant('score', header), ['Score'], 'the same name in another case');
  assert.deepEqual(likelyMeant('gion', header), ['region'], 'a name that holds it');
  assert.deepEqual(likelyMeant('nmae', header), ['name'], 'a near typo');
  assert.deepEqual(likelyMeant('zzz', header), [], 'nothing near');
  assert.equal(didYouMean(['population', 'popular']), 'did you mean population or popular?');
  assert.equal(didYouMean(['a', 'b', 'c']), 'did you mean a, b or c?');
  assert.equal(didYouMean(['score']), 'did you mean score?');
});
