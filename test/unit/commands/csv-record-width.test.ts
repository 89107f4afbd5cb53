// The record width analyze sizes a file's chunks by (src/commands/csv-record-width.ts): a function of the
// records' own bytes, so a file, its gzip and its lone-CR twin give one width, and quoted line ends are inside a
// record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { readCsvHeader } from '../../../src/commands/csv-header.js';
import { meanRecordBytes, RECORD_SAMPLE_BYTES } from '../../../src/commands/csv-record-width.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('csv-record-width');
let files = 0;

/** The mean record bytes of `text` written as a file (gzip-compressed when asked). */
function widthOf(text: string, gzip = false): number {
  const path = world.path(`f${++files}.csv${gzip ? '.gz' : ''}`);
  const bytes = Buffer.from(text);
  writeFileSync(path, gzip ? gzipSync(bytes) : bytes);
  const size = gzip ? gzipSync(bytes).length : bytes.length;
  const header = readCsvHeader(path, size, 1 << 20, path, { detect: true, gzip });
  return meanRecordBytes(path, size, header, gzip);
}

test('records of one width give that width, with or without a last line end', () => {
  assert.equal(widthOf('a,b\n11,22\n33,44\n'), 6);
  assert.equal(widthOf('a,b\n11,22\n33,44'), 5.5);
  assert.equal(widthOf('a,b\n11,22\r\n33,44\r\n'), 7);
});

test('a line end inside quotes is part of its record', () => {
  assert.equal(widthOf('a,b\n"x\ny",1\n"p\nq",2\n'), 8);
});

test('a file with no record past its header has width 0', () => {
  assert.equal(widthOf('a,b\n'), 0);
  assert.equal(widthOf('a,b'), 0);
});

test('only the sample counts: records past it do not move the width', () => {
  const head = 'a,b\n';
  const short = '1,2\n'.repeat(RECORD_SAMPLE_BYTES / 4);
  assert.equal(widthOf(head + short + 'x'.repeat(100_000) + ',y\n'), 4);
});

test('a record longer than the sample gives the sample\'s length, a bound below', () => {
  assert.equal(widthOf(`a,b\n${'x'.repeat(2 * RECORD_SAMPLE_BYTES)},y\n`), RECORD_SAMPLE_BYTES);
});

test('a file, its gzip and its lone-CR twin give one width', () => {
  const records = Array.from({ length: 20_000 }, (_, k) => `${k},"name ${k % 97}",${(k * 7919) % 1000}.5\n`).join('');
  const text = `id,name,value\n${records}`;
  const plain = widthOf(text);
  assert.ok(plain > 10 && plain < 30, `a plausible width (${plain})`);
  assert.equal(widthOf(text, true), plain);
  const lone = widthOf(text.replaceAll('\n', '\r'));
  assert.equal(lone, plain);
});
