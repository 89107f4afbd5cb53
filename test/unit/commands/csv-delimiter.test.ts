// The delimiter rule (src/commands/csv-delimiter.ts, docs/cli.md, "The files analyze reads").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectDelimiter, parseDelimiter } from '../../../src/commands/csv-delimiter.js';

const detect = (text: string) => String.fromCharCode(detectDelimiter(Buffer.from(text)));

test('each of the four is found from a header and its records', () => {
  assert.equal(detect('a,b,c\n1,2,3\n'), ',');
  assert.equal(detect('a\tb\tc\n1\t2\t3\n'), '\t');
  assert.equal(detect('a;b;c\r\n1,5;2,5;3\r\n'), ';');
  assert.equal(detect('a|b\n1|2\n'), '|');
});

test('a header with none of them is one column, whatever its rows hold', () => {
  assert.equal(detect('name\nhello, world\nfoo;bar\n'), ',');
  assert.equal(detect('name'), ',');
  assert.equal(detect(''), ',');
});

test('delimiters inside quotes do not count', () => {
  assert.equal(detect('"a,b,c";d\n"1,2,3";4\n'), ';');
  assert.equal(detect('"x;y";"z;w"\n"1;2";"3;4"\n'), ';');
  assert.equal(detect('"a\tb",c\n"new\nline, more",2\n'), ',');
});

test('the candidate that splits every sampled record as the header does wins over a more frequent one', () => {
  // Commas are more frequent in the header, but only semicolons split every record alike.
  assert.equal(detect('a,x;b,y,z;c\n1;2;3\n4;5;6\n'), ';');
});

test('among consistent candidates the one with more header fields wins; a tie goes to comma, tab, semicolon, pipe', () => {
  assert.equal(detect('a;b,c;d\n1;2,3;4\n'), ';');
  assert.equal(detect('a;b,c\n1;2,3\n'), ',');
  assert.equal(detect('a|b\tc\n1|2\t3\n'), '\t');
});

test('lone-CR line ends separate records for the rule too, and empty lines are left out', () => {
  assert.equal(detect('a;b\r1;2\r3;4\r'), ';');
  assert.equal(detect('a\tb\n\n1\t2\n\n'), '\t');
});

test('--delimiter values: the four by character or name, a tab also as \\t', () => {
  assert.equal(parseDelimiter(','), 0x2c);
  assert.equal(parseDelimiter('tab'), 0x09);
  assert.equal(parseDelimiter('\\t'), 0x09);
  assert.equal(parseDelimiter('\t'), 0x09);
  assert.equal(parseDelimiter('semicolon'), 0x3b);
  assert.equal(parseDelimiter('|'), 0x7c);
  assert.equal(parseDelimiter('x'), undefined);
  assert.equal(parseDelimiter(',,'), undefined);
});
