import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { plainHttpGet, UNFRAMED } from '../../../src/engine/worker/plain-http-get.js';
import { httpGet } from '../../../src/engine/worker/http-get.js';
import { freshBuffer } from '../../../src/engine/worker/http-answer.js';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A server answering with `handler`, closed when the test ends; answers its URL and the requests it had. */
async function serve(t: TestContext, handler: Handler): Promise<{ url: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((request, response) => {
    requests.push(request);
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/o`, requests };
}

const body = randomBytes(3 * 1024 * 1024 + 17);

const ranged: Handler = (request, response) => {
  const [, from, to] = /bytes=(\d+)-(\d+)/.exec(request.headers.range ?? '')!.map(Number);
  response.writeHead(206, { 'content-length': to! - from! + 1, etag: '"v1"', 'x-twice': ['a', 'b'] });
  response.end(body.subarray(from!, to! + 1));
};

test('a range comes whole into the buffer given, with its status and first header values', async (t) => {
  const { url, requests } = await serve(t, ranged);
  let given: Uint8Array | undefined;
  const answer = await plainHttpGet(url, { range: 'bytes=5-2097156', 'if-match': '"v1"' }, 10_000, (length) =>
    (given = new Uint8Array(length)));
  assert.ok(answer !== UNFRAMED);
  assert.equal(answer.status, 206);
  assert.equal(answer.body, given, 'read into the buffer given');
  assert.ok(Buffer.from(answer.body).equals(body.subarray(5, 2097157)), 'the bytes asked for');
  assert.equal(answer.header('etag'), '"v1"');
  assert.equal(answer.header('x-twice'), 'a', 'a repeated header: its first value');
  assert.equal(requests[0]!.headers['if-match'], '"v1"', 'the headers were sent');
});

test('one connection carries request after request, and one the server closed meanwhile is replaced', async (t) => {
  const { url, requests } = await serve(t, ranged);
  for (let k = 0; k < 3; k++) await plainHttpGet(url, { range: `bytes=${k}-${k + 9}` }, 10_000, freshBuffer);
  assert.equal(new Set(requests.map((r) => r.socket)).size, 1, 'three requests, one connection');
  requests[0]!.socket.destroy();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const answer = await plainHttpGet(url, { range: 'bytes=0-9' }, 10_000, freshBuffer);
  assert.ok(answer !== UNFRAMED && Buffer.from(answer.body).equals(body.subarray(0, 10)), 'answered on a new one');
});

test('a kept connection the server drops as the next request comes: the request goes again, on another', async (t) => {
  const served = new WeakSet<object>();
  const { url, requests } = await serve(t, (request, response) => {
    if (served.has(request.socket)) return void request.socket.destroy();
    served.add(request.socket);
    ranged(request, response);
  });
  await plainHttpGet(url, { range: 'bytes=0-9' }, 10_000, freshBuffer);
  const answer = await plainHttpGet(url, { range: 'bytes=10-19' }, 10_000, freshBuffer);
  assert.ok(answer !== UNFRAMED && Buffer.from(answer.body).equals(body.subarray(10, 20)), 'the bytes asked for');
  assert.equal(requests.length, 3, 'the second request went twice');
  assert.equal(new Set(requests.map((r) => r.socket)).size, 2, 'the second time on a new connection');
});

test('an interim answer (103 Early Hints) is passed over for the answer that follows it', async (t) => {
  const { url } = await serve(t, (request, response) => {
    response.writeEarlyHints({ link: '</style.css>; rel=preload' });
    ranged(request, response);
  });
  const answer = await plainHttpGet(url, { range: 'bytes=0-99' }, 10_000, freshBuffer);
  assert.ok(answer !== UNFRAMED);
  assert.equal(answer.status, 206);
  assert.ok(Buffer.from(answer.body).equals(body.subarray(0, 100)));
});

test('a connection that sends more than its answer announced is not used again', async (t) => {
  const sockets: Socket[] = [];
  const server = createNetServer((socket) => {
    sockets.push(socket);
    socket.on('data', () => {
      socket.write('HTTP/1.1 206 Partial Content\r\nContent-Length: 3\r\n\r\nabc');
      setTimeout(() => socket.write('junk'), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    server.close();
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/o`;
  const first = await plainHttpGet(url, {}, 10_000, freshBuffer);
  assert.ok(first !== UNFRAMED && Buffer.from(first.body).toString() === 'abc');
  await new Promise((resolve) => setTimeout(resolve, 100));
  const second = await plainHttpGet(url, {}, 10_000, freshBuffer);
  assert.ok(second !== UNFRAMED && Buffer.from(second.body).toString() === 'abc', 'answered whole');
  assert.equal(sockets.length, 2, 'on a new connection');
});

test('a failure answers its status and headers without its body, and the connection is not kept', async (t) => {
  const { url, requests } = await serve(t, (_request, response) => {
    response.writeHead(503, { 'retry-after': '2', 'content-length': 5 });
    response.end('busy!');
  });
  const answer = await plainHttpGet(url, {}, 10_000, () => assert.fail('no buffer for a failure\'s body'));
  assert.ok(answer !== UNFRAMED);
  assert.deepEqual([answer.status, answer.header('retry-after'), answer.body.length], [503, '2', 0]);
  await plainHttpGet(url, {}, 10_000, freshBuffer);
  assert.equal(new Set(requests.map((r) => r.socket)).size, 2, 'a new connection for the next request');
});

test('a success without a Content-Length is left to node:http, which httpGet then uses', async (t) => {
  const { url } = await serve(t, (_request, response) => {
    response.writeHead(200, { 'transfer-encoding': 'chunked' });
    response.write(body.subarray(0, 1000));
    response.end(body.subarray(1000, 5000));
  });
  assert.equal(await plainHttpGet(url, {}, 10_000, freshBuffer), UNFRAMED);
  const answer = await httpGet(url, {}, 10_000);
  assert.ok(Buffer.from(answer.body).equals(body.subarray(0, 5000)), 'read by node:http');
});

test('a body cut short, a server that says nothing, and a header holding a line break are refused', async (t) => {
  const { url: cut } = await serve(t, (_request, response) => {
    response.writeHead(206, { 'content-length': 1000 });
    response.write(body.subarray(0, 100), () => response.socket!.destroy());
  });
  await assert.rejects(plainHttpGet(cut, {}, 10_000, freshBuffer), /closed before the answer ended/);
  const { url: silent } = await serve(t, () => undefined);
  await assert.rejects(plainHttpGet(silent, {}, 200, freshBuffer), /no answer in 200 ms/);
  await assert.rejects(plainHttpGet(cut, { 'if-match': '"a"\r\nx: y' }, 10_000, freshBuffer), /line break/);
});
