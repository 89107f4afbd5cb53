// The range server the http:// input tests read from (test/helpers/range-server.ts) answers as S3 or a CDN does:
// checked here over real sockets with Node's own fetch (undici), the client the tests' code under test uses.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import { startRangeServer, type RangeServer, type RangeServerOptions } from '../../helpers/range-server.js';
import { tempWorld } from '../../helpers/temp-world.js';

const SIZE = 1000;
const pattern = (size: number, salt = 0) => Uint8Array.from({ length: size }, (_, i) => (i * 7 + salt) % 251);
const object = pattern(SIZE);

interface Got {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}

async function get(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  const response = await fetch(url, { method, headers });
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** A server with `object` under 'data.bin', closed when the test ends. */
async function serving(t: TestContext, options?: RangeServerOptions): Promise<RangeServer> {
  const server = await startRangeServer(options);
  t.after(() => server.close());
  server.put('data.bin', object);
  return server;
}

const slice = (from: number, to: number) => Buffer.from(object.subarray(from, to + 1));

test('the three range forms answer 206 with the bytes, Content-Range and validators', async (t) => {
  const server = await serving(t);
  const url = server.urlOf('data.bin');
  const cases: [string, number, number][] = [
    ['bytes=10-19', 10, 19], ['bytes=990-', 990, 999], ['bytes=-5', 995, 999],
    ['bytes=5-99999', 5, 999], ['bytes=-5000', 0, 999],
  ];
  for (const [range, from, to] of cases) {
    const got = await get(url, { range });
    assert.equal(got.status, 206, range);
    assert.equal(got.headers.get('content-range'), `bytes ${from}-${to}/${SIZE}`, range);
    assert.equal(got.headers.get('content-length'), String(to - from + 1), range);
    assert.equal(got.headers.get('accept-ranges'), 'bytes');
    assert.match(got.headers.get('etag') ?? '', /^"[0-9a-f]{32}"$/);
    assert.ok(got.headers.get('last-modified'));
    assert.deepEqual(got.body, slice(from, to), range);
  }
  assert.deepEqual(server.log.at(-1), {
    method: 'GET', path: '/data.bin', range: 'bytes=-5000', status: 206, from: 0, to: 999, bytesSent: 1000,
  });
});

test('a range at or past the end is 416 with bytes */size; a bad or multiple Range gets the whole body', async (t) => {
  const server = await serving(t);
  const url = server.urlOf('data.bin');
  for (const range of ['bytes=1000-', 'bytes=5000-5001', 'bytes=-0']) {
    const got = await get(url, { range });
    assert.equal(got.status, 416, range);
    assert.equal(got.headers.get('content-range'), `bytes */${SIZE}`);
  }
  for (const range of ['bytes=0-1, 5-6', 'bytes=9-3', 'items=0-1']) {
    const got = await get(url, { range });
    assert.equal(got.status, 200, range);
    assert.deepEqual(got.body, Buffer.from(object));
  }
});

test('GET without Range is 200 whole; HEAD has the headers and no body; unknown names are 404', async (t) => {
  const server = await serving(t);
  const whole = await get(server.urlOf('data.bin'));
  assert.equal(whole.status, 200);
  assert.deepEqual(whole.body, Buffer.from(object));
  assert.equal(whole.headers.get('connection'), 'keep-alive');
  const head = await get(server.urlOf('data.bin'), {}, 'HEAD');
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('content-length'), String(SIZE));
  assert.equal(head.headers.get('accept-ranges'), 'bytes');
  assert.equal(head.headers.get('etag'), whole.headers.get('etag'));
  assert.equal(head.headers.get('last-modified'), whole.headers.get('last-modified'));
  assert.equal(head.body.length, 0);
  assert.equal(server.log.at(-1)?.bytesSent, 0);
  assert.equal((await get(server.urlOf('nothing.bin'))).status, 404);
  assert.equal((await get(server.urlOf('nothing.bin'), {}, 'HEAD')).status, 404);
  server.put('dir/a b.csv', object, 'v1');
  const named = await get(server.urlOf('dir/a b.csv'), { range: 'bytes=0-0' });
  assert.equal(named.headers.get('etag'), '"v1"');
  assert.equal(server.log.at(-1)?.path, '/dir%2Fa%20b.csv');
});

test('If-Match with another ETag is 412; If-Range with another one gets the whole body', async (t) => {
  const server = await serving(t);
  const url = server.urlOf('data.bin');
  const { headers } = await get(url, {}, 'HEAD');
  const etag = headers.get('etag') ?? '';
  assert.equal((await get(url, { range: 'bytes=0-9', 'if-match': '"other"' })).status, 412);
  assert.equal((await get(url, { range: 'bytes=0-9', 'if-match': etag })).status, 206);
  assert.equal((await get(url, { 'if-match': '*' })).status, 200);
  const stale = await get(url, { range: 'bytes=0-9', 'if-range': '"other"' });
  assert.equal(stale.status, 200);
  assert.deepEqual(stale.body, Buffer.from(object));
  assert.equal((await get(url, { range: 'bytes=0-9', 'if-range': etag })).status, 206);
  const date = headers.get('last-modified') ?? '';
  assert.equal((await get(url, { range: 'bytes=0-9', 'if-range': date })).status, 206);
});

test('replace gives a new ETag and Last-Modified, and the old ETag no longer matches', async (t) => {
  const server = await serving(t);
  const url = server.urlOf('data.bin');
  const before = (await get(url, {}, 'HEAD')).headers;
  const newer = pattern(SIZE, 3);
  server.replace('data.bin', newer);
  const after = await get(url);
  assert.notEqual(after.headers.get('etag'), before.get('etag'));
  const [was, now] = [before.get('last-modified') ?? '', after.headers.get('last-modified') ?? ''];
  assert.ok(Date.parse(now) > Date.parse(was), `${now} after ${was}`);
  assert.deepEqual(after.body, Buffer.from(newer));
  assert.equal((await get(url, { range: 'bytes=0-9', 'if-match': before.get('etag') ?? '' })).status, 412);
  assert.equal((await get(url, { range: 'bytes=0-9', 'if-range': before.get('etag') ?? '' })).status, 200);
  assert.throws(() => server.replace('absent.bin', newer), /no object named "absent.bin"/);
});

test('authorization: none is 401, a wrong one 403, the right one served', async (t) => {
  const server = await serving(t, { authorization: 'Bearer s3cret' });
  const url = server.urlOf('data.bin');
  const missing = await get(url);
  assert.equal(missing.status, 401);
  assert.match(missing.headers.get('www-authenticate') ?? '', /^Bearer /);
  assert.equal((await get(url, { authorization: 'Bearer wrong' })).status, 403);
  assert.equal((await get(url, { authorization: 'Bearer s3cret', range: 'bytes=0-3' })).status, 206);
});

test('throttleEvery answers every Nth request 429 with Retry-After: 0', async (t) => {
  const server = await serving(t, { throttleEvery: 3 });
  const statuses: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const got = await get(server.urlOf('data.bin'), { range: 'bytes=0-3' });
    statuses.push(got.status);
    if (got.status === 429) assert.equal(got.headers.get('retry-after'), '0');
  }
  assert.deepEqual(statuses, [206, 206, 429, 206, 206, 429, 206]);
});

test('noRanges ignores Range: 200, the whole body, no Accept-Ranges', async (t) => {
  const server = await serving(t, { noRanges: true });
  for (const range of ['bytes=10-19', 'bytes=5000-']) {
    const got = await get(server.urlOf('data.bin'), { range });
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('accept-ranges'), null);
    assert.deepEqual(got.body, Buffer.from(object));
  }
});

/** The status the client saw, or -1 when the connection dropped; with the body bytes that arrived. */
async function outcome(url: string): Promise<{ status: number; received: number }> {
  let received = 0;
  try {
    const response = await fetch(url);
    if (response.body) for await (const chunk of response.body) received += chunk.byteLength;
    return { status: response.status, received };
  } catch {
    return { status: -1, received };
  }
}

async function faultRun(seed: number): Promise<{ seen: number[]; logged: number[] }> {
  const server = await startRangeServer({ faults: { seed, rate: 0.5 } });
  try {
    server.put('big.bin', pattern(256 * 1024));
    const seen: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const { status, received } = await outcome(server.urlOf('big.bin'));
      seen.push(status);
      const record = server.log[i];
      if (status === -1) assert.equal(record?.bytesSent, received, 'the log counts the bytes that did arrive');
      if (status === -1) assert.ok(received > 0 && received < 256 * 1024, `a cut mid-body sent ${received}`);
    }
    return { seen, logged: server.log.map((record) => record.status) };
  } finally {
    await server.close();
  }
}

test('seeded faults: 503s and connections cut mid-body, the same sequence for the same seed', async () => {
  const first = await faultRun(7);
  const second = await faultRun(7);
  assert.deepEqual(second.seen, first.seen);
  assert.deepEqual(first.logged, first.seen);
  for (const status of [200, 503, -1]) assert.ok(first.seen.includes(status), `${status} in ${first.seen}`);
  assert.notDeepEqual((await faultRun(8)).seen, first.seen, 'another seed, other faults');
});

test('coverage counts a byte sent twice, from successful GETs only, and starts again on replace', async (t) => {
  const server = await serving(t);
  const url = server.urlOf('data.bin');
  await get(url, { range: 'bytes=0-9' });
  await get(url, { range: 'bytes=5-14' });
  await get(url, { range: 'bytes=20-29' });
  await get(url, {}, 'HEAD');
  await get(url, { range: 'bytes=5000-' });
  const ranges = [[0, 9], [5, 14], [20, 29]];
  assert.deepEqual(server.coverage('data.bin'), { maxTimesSent: 2, bytesSent: 30, ranges });
  await get(url, { range: 'bytes=15-19' });
  assert.equal(server.coverage('data.bin').maxTimesSent, 2, 'ranges that only meet do not overlap');
  server.replace('data.bin', pattern(SIZE, 1));
  assert.deepEqual(server.coverage('data.bin'), { maxTimesSent: 0, bytesSent: 0, ranges: [] });
});

test('putFile serves a file of a few MB by range, byte-exact, its ETag from size and mtime', async (t) => {
  const server = await serving(t);
  const file = tempWorld('range-server').path('input.bin');
  const bytes = randomBytes(5 * 1024 * 1024 + 17);
  writeFileSync(file, bytes);
  server.putFile('input.bin', file);
  const url = server.urlOf('input.bin');
  const size = bytes.length;
  for (const [range, from, to] of [
    ['bytes=0-1048575', 0, 1048575], ['bytes=1048576-3999999', 1048576, 3999999], ['bytes=4000000-', 4000000, size - 1],
    ['bytes=-100', size - 100, size - 1],
  ] as const) {
    const got = await get(url, { range });
    assert.equal(got.status, 206);
    assert.equal(got.headers.get('content-range'), `bytes ${from}-${to}/${size}`);
    assert.ok(got.body.equals(bytes.subarray(from, to + 1)), range);
  }
  const whole = await get(url);
  assert.ok(whole.body.equals(bytes));
  assert.match(whole.headers.get('etag') ?? '', /^"[0-9a-f]+-[0-9a-f]+"$/);
  const mtime = Math.floor(statSync(file).mtimeMs / 1000) * 1000;
  assert.equal(Date.parse(whole.headers.get('last-modified') ?? ''), mtime);
  const coverage = server.coverage('input.bin');
  assert.equal(coverage.maxTimesSent, 3, 'the last 100 bytes: by bytes=4000000-, bytes=-100 and the whole GET');
  assert.equal(coverage.bytesSent, 2 * size + 100);
});
