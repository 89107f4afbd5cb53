import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cutToWidth, displayWidth, escapeControls, renderTable } from '../../../src/runtime/cli/text-table.js';

test('wide characters count two cells, combining marks none', () => {
  assert.equal(displayWidth('東京'), 4);
  assert.equal(displayWidth('e\u0301'), 1);
  assert.equal(displayWidth('abc'), 3);
});

test('a value holding a newline stays on its row, escaped', () => {
  assert.equal(escapeControls('a\nb\tc\u0001'), 'a\\nb\\tc\\u0001');
  const table = renderTable([{ header: 'name' }, { header: 'note' }], [['x', 'line one\nline two']]);
  assert.equal(table.split('\n').length, 3, table);
  assert.match(table, /line one\\nline two/);
});

test('a cut value ends in an ellipsis and keeps within its cells', () => {
  assert.equal(cutToWidth('abcdefghij', 5), 'abcd…');
  assert.equal(cutToWidth('abc', 5), 'abc');
  const cut = cutToWidth('東京都渋谷区', 7);
  assert.ok(displayWidth(cut) <= 7, cut);
  assert.ok(cut.endsWith('…'));
});

test('columns align by display width, wide characters included', () => {
  const table = renderTable(
    [{ header: 'city' }, { header: 'pop', align: 'right' }],
    [['東京', '14'], ['Oslo', '1']],
  );
  const widths = table.trimEnd().split('\n').map(displayWidth);
  assert.deepEqual(new Set(widths).size, 1, table);
  assert.match(table, /^city {2}pop\n東京 {3}14\nOslo {4}1\n$/);
});

test('given a width, only shrinkable columns are cut, widest first, and every line fits', () => {
  const long = 'x'.repeat(60);
  const table = renderTable(
    [{ header: 'id' }, { header: 'command', shrink: true }, { header: 'state' }],
    [['job-1', long, 'running'], ['job-2', 'short', 'paused']],
    40,
  );
  for (const line of table.trimEnd().split('\n')) assert.ok(displayWidth(line) <= 40, line);
  assert.match(table, /job-1 {2}x+… {2}running/);
  assert.match(table, /job-2 {2}short +paused/);
});

test('without a width nothing is cut', () => {
  const long = 'y'.repeat(200);
  assert.match(renderTable([{ header: 'v', shrink: true }], [[long]]), new RegExp(long));
});

test('numbers are never cut, even in a shrinkable column; strings beside them are', () => {
  const table = renderTable(
    [{ header: 'name', shrink: true }, { header: 'max', shrink: true }],
    [['a rather long column name', '9999999'], ['b', 'a long string value here']],
    24,
  );
  assert.match(table, /9999999/);
  assert.match(table, /…/);
  assert.doesNotMatch(table, /9+…/);
});
