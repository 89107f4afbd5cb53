// Cutting a stream into chunks of whole records (src/engine/record-cutter.ts), as a gzip file is cut.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode } from '../../../src/contract/error-code.js';
import { cutRecords } from '../../../src/engine/record-cutter.js';
import { generateCsv, random } from '../../helpers/csv-generator.js';

async function* piecesOf(bytes: Buffer, sizes: () => number): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length;) {
    const n = Math.min(bytes.length - at, sizes());
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

/** Whether `end` in `bytes` is a record end: after a LF outside quotes, or the end. */
function isRecordEnd(bytes: Buffer, end: number): boolean {
  if (end === bytes.length) return true;
  let quotes = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === 0x22) quotes++;
  return bytes[end - 1] === 0x0a && quotes % 2 === 0;
}

test('chunks are whole records, in order, and together the whole input, at any piece and chunk size', async () => {
  const bytes = Buffer.from(generateCsv(3, { rows: 3000, columns: 5, newlines: 0.2 }));
  const rnd = random(11);
  for (const chunkSize of [1, 100, 4096, 65536]) {
    const chunks = [];
    for await (const chunk of cutRecords(piecesOf(bytes, () => 1 + Math.floor(rnd() * 5000)), 0, chunkSize, 1 << 20)) {
      chunks.push(chunk);
    }
    let at = 0;
    for (const chunk of chunks) {
      assert.equal(chunk.start, at);
      at += chunk.bytes.length;
      assert.ok(isRecordEnd(bytes, at), `a chunk ends inside a record at ${at} (chunk size ${chunkSize})`);
    }
    assert.equal(at, bytes.length);
    assert.ok(Buffer.concat(chunks.map((c) => c.bytes)).equals(bytes));
    if (chunkSize >= 4096) assert.ok(chunks.length < bytes.length / chunkSize + 2, 'chunks are about chunkSize');
  }
});

test('offsets start at the given start (a resume); a record longer than the limit throws RECORD_TOO_LONG', async () => {
  const first = await cutRecords(piecesOf(Buffer.from('a,b\n1,2\n'), () => 3), 1000, 1, 100).next();
  assert.equal(first.done, false);
  assert.equal(first.value!.start, 1000);
  const unclosed = Buffer.from(`"${'x'.repeat(10_000)}\n`.repeat(3));
  await assert.rejects(async () => {
    for await (const _ of cutRecords(piecesOf(unclosed, () => 512), 0, 1024, 4096)) void _;
  }, { code: ErrorCode.RecordTooLong });
});
