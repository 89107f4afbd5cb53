import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runChunked, type ChunkedRun } from '../../../src/engine/chunked-run.js';

test('a map module given as a relative path is refused with how to name it', async () => {
  const run = { mapModule: './my-map.js', from: { offset: 0, line: 1 } } as unknown as ChunkedRun<unknown, unknown>;
  await assert.rejects(runChunked(run), /mapModule "\.\/my-map\.js" is not a URL: pass new URL/);
});
