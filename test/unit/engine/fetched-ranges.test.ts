import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { FetchedRanges } from '../../../src/engine/worker/fetched-ranges.js';
import { probeObject } from '../../../src/engine/worker/remote-object.js';
import type { RemoteIdentity } from '../../../src/engine/worker/remote-identity.js';
import { startRangeServer, type RangeServer } from '../../helpers/range-server.js';

const KIB = 1024;
const object = randomBytes(1024 * KIB);

async function serving(t: TestContext): Promise<{ server: RangeServer; url: string; identity: RemoteIdentity }> {
  const server = await startRangeServer();
  t.after(() => server.close());
  server.put('o', object);
  const url = server.urlOf('o');
  const probed = await probeObject(url);
  assert.ok(probed.ok);
  return { server, url, identity: probed.value };
}

/** Reads [from, from + length) through `ranges` and checks the bytes are the object's; `reader`: one that reads on. */
async function readChecked(ranges: FetchedRanges, url: string, identity: RemoteIdentity, from: number, length: number,
  reader: number | undefined): Promise<void> {
  const into = new Uint8Array(length);
  const read = await ranges.read(url, identity, from, into, reader);
  assert.deepEqual(read, { ok: true, value: length });
  assert.ok(Buffer.from(into).equals(object.subarray(from, from + length)), `bytes ${from}..${from + length}`);
}

/** The ranges GETs asked for after the probe, as [first, last] byte, in order of their first. */
const asked = (server: RangeServer) => server.log.slice(1).map((r) => [r.from, r.to]).sort((a, b) => a[0]! - b[0]!);

/** Waits (bounded) until the server has had `count` GETs after the probe: a range read ahead is on its own time. */
async function askedCount(server: RangeServer, count: number): Promise<void> {
  for (let waited = 0; server.log.length - 1 < count && waited < 30_000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('a reader that reads on has the range after its asks read ahead, not asked for again', async (t) => {
  const { server, url, identity } = await serving(t);
  const ranges = new FetchedRanges();
  // Chunks of 100 KiB whose reads overlap by 4 KiB, as a chunk reader's lookahead does.
  await readChecked(ranges, url, identity, 0, 100 * KIB, 0);
  await readChecked(ranges, url, identity, 96 * KIB, 100 * KIB, 0);
  // Asked at once, while the range read ahead may still be on its way: it is waited for, not asked again.
  await readChecked(ranges, url, identity, 192 * KIB, 100 * KIB, 0);
  await askedCount(server, 4);
  assert.deepEqual(asked(server), [[0, 100 * KIB - 1], [100 * KIB, 196 * KIB - 1], [196 * KIB, 296 * KIB - 1],
    [296 * KIB, 392 * KIB - 1]], 'the second ask\'s next range read ahead, then the third\'s; nothing else');
  assert.equal(server.coverage('o').bytesSent, 1 + 392 * KIB, 'the probe\'s byte, then every byte once');
});

test('two readers that read on have a range each read ahead: as two workers, each finds its next chunk coming',
  async (t) => {
    const { server, url, identity } = await serving(t);
    const ranges = new FetchedRanges();
    // As two workers start: the second chunk asked first, then the first; then each asks for its next.
    await Promise.all([readChecked(ranges, url, identity, 100 * KIB, 100 * KIB, 0),
      readChecked(ranges, url, identity, 0, 100 * KIB, 1)]);
    await readChecked(ranges, url, identity, 200 * KIB, 100 * KIB, 0);
    await readChecked(ranges, url, identity, 300 * KIB, 100 * KIB, 1);
    await askedCount(server, 6);
    const chunks = [0, 1, 2, 3, 4, 5].map((k) => [k * 100 * KIB, (k + 1) * 100 * KIB - 1]);
    assert.deepEqual(asked(server), chunks, 'two ranges past the last ask on their way; nothing asked twice');
    assert.equal(server.coverage('o').bytesSent, 1 + 600 * KIB, 'the probe\'s byte, then every byte once');
  });

test('asks far apart, or of a reader that does not read on, are not read ahead of', async (t) => {
  const { server, url, identity } = await serving(t);
  const ranges = new FetchedRanges();
  await readChecked(ranges, url, identity, 0, 100 * KIB, 0);
  await readChecked(ranges, url, identity, 600 * KIB, 100 * KIB, 0);
  await readChecked(ranges, url, identity, 100 * KIB, 100 * KIB, undefined);
  assert.deepEqual(asked(server),
    [[0, 100 * KIB - 1], [100 * KIB, 200 * KIB - 1], [600 * KIB, 700 * KIB - 1]], 'only what was asked for');
});

test('a range read ahead stops at the object\'s end', async (t) => {
  const { server, url, identity } = await serving(t);
  const ranges = new FetchedRanges();
  await readChecked(ranges, url, identity, 700 * KIB, 200 * KIB, 0);
  await readChecked(ranges, url, identity, 900 * KIB, 124 * KIB, 0);
  assert.deepEqual(asked(server), [[700 * KIB, 900 * KIB - 1], [900 * KIB, 1024 * KIB - 1]]);
});
