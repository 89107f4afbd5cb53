import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wrapText } from '../../../src/runtime/cli/wrap-text.js';

test('a table row goes on under its description; prose under its indent; short lines stay', () => {
  const row = '  --into <string>  The table: a LevelDB folder, created when absent (required)';
  assert.equal(wrapText(row, 50), [
    '  --into <string>  The table: a LevelDB folder,',
    '                   created when absent (required)',
  ].join('\n'));
  assert.equal(wrapText('When its budget runs out the work resumes from its checkpoint', 30), [
    'When its budget runs out the',
    'work resumes from its',
    'checkpoint',
  ].join('\n'));
  assert.equal(wrapText('short\n  a  b', 30), 'short\n  a  b');
});

test('a row whose name leaves too little room folds under it; a word longer than a line stays whole', () => {
  const row = '  --a-very-long-flag-name <string>  takes the rest of the line here';
  assert.equal(wrapText(row, 40), [
    '  --a-very-long-flag-name <string>',
    '      takes the rest of the line here',
  ].join('\n'));
  const long = 'see https://example.com/a/very/long/path/that/cannot/be/broken for more';
  assert.equal(wrapText(long, 20), ['see', 'https://example.com/a/very/long/path/that/cannot/be/broken', 'for more'].join('\n'));
});
