import { test } from 'node:test';
import assert from 'node:assert/strict';
import { displayWidth, escapeControls, renderTable } from '../../../src/runtime/cli/text-table.js';

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

test('columns align by display width, wide characters included', () => {
  const table = renderTable(
    [{ header: 'city' }, { header: 'pop', align: 'right' }],
    [['東京', '14'], ['Oslo', '1']],
  );
  const widths = table.trimEnd().split('\n').map(displayWidth);
  assert.deepEqual(new Set(widths).size, 1, table);
  assert.match(table, /^city {2}pop\n東京 {3}14\nOslo {4}1\n$/);
});

test('a table that fits its width is one row a record; without a width nothing changes', () => {
  const columns = [{ header: 'id' }, { header: 'state' }];
  const rows = [['job-1', 'running'], ['job-2', 'paused']];
  assert.equal(renderTable(columns, rows, 40), renderTable(columns, rows));
  const long = 'y'.repeat(200);
  assert.match(renderTable([{ header: 'v' }], [[long]]), new RegExp(long));
});

test('a table wider than its width is shown a record at a time, every value whole, wrapped at spaces', () => {
  const long = 'a value of many words that runs on well past the width of the terminal';
  const table = renderTable(
    [{ header: 'column' }, { header: 'type' }, { header: 'max', align: 'right' }, { header: 'note' }],
    [['name', 'string', '9999999999', long], ['id', 'integer', '', 'short']],
    40,
  );
  for (const line of table.trimEnd().split('\n')) assert.ok(displayWidth(line) <= 40, line);
  assert.equal(table.split('\n')[0], 'column: name');
  assert.match(table, /\n {2}max {3}9999999999\n/);
  assert.equal(table.replace(/\s+/g, ' ').includes(long), true, 'the long value is all there');
  assert.match(table, /\n\ncolumn: id\n {2}type {2}integer\n {2}note {2}short\n$/, 'an empty field is left out');
});
