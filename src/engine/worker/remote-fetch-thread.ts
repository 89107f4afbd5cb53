// The process's one thread for remote reads (remote-reads.ts): a thread that
// reads posts a request on its port and sleeps on a shared word; this one
// answers from the ranges it read lately or fetches the rest, posts the answer
// and wakes it. Reads stay synchronous for their callers (the chunk reader,
// the header's reader), many are in flight at once, and bytes that two chunks
// both read (a record across their cut, a chunk mapped again from its true
// start) come over the network once.
import { workerData, type MessagePort } from 'node:worker_threads';
import type { Answer } from './remote-failure.js';
import { probeObject, readObjectRange } from './remote-object.js';
import type { RemoteRequest } from './remote-protocol.js';
import { RangeCache } from './range-cache.js';

const cache = new RangeCache();

function reply(port: MessagePort, signal: SharedArrayBuffer, answer: Answer<unknown>): void {
  // A fresh buffer moves to the asking thread; the cache's shared ones are passed as they are (no copy either way).
  const value = answer.ok ? answer.value : undefined;
  const transfer = value instanceof Uint8Array && value.buffer instanceof ArrayBuffer ? [value.buffer] : [];
  port.postMessage(answer, transfer);
  const word = new Int32Array(signal);
  Atomics.store(word, 0, 1);
  Atomics.notify(word, 0);
}

/** Bytes [from, to): the part the cache holds from `from` on, then the rest fetched (and kept). */
async function range(asked: RemoteRequest & { kind: 'range' }): Promise<Answer<Uint8Array>> {
  const { url, identity, from, to } = asked;
  const version = `${url}\0${identity.tag ?? identity.lastModified ?? ''}`;
  const held = cache.from(version, from, to);
  if (held.length === to - from) return { ok: true, value: held };
  const fetched = await readObjectRange(url, identity, from + held.length, to);
  if (!fetched.ok) return fetched;
  cache.keep(version, from + held.length, fetched.value);
  // The cache keeps what it was given: only shared memory may be handed on as it is (moving it would empty it).
  if (held.length === 0) {
    return fetched.value.buffer instanceof SharedArrayBuffer ? fetched : { ok: true, value: fetched.value.slice() };
  }
  const whole = new Uint8Array(to - from);
  whole.set(held);
  whole.set(fetched.value, held.length);
  return { ok: true, value: whole };
}

function serve(port: MessagePort): void {
  port.on('message', (asked: RemoteRequest) => {
    const answering = asked.kind === 'probe' ? probeObject(asked.url) : range(asked);
    void answering.then((answer) => reply(port, asked.signal, answer));
  });
}

// Each reading thread connects with a port of its own.
(workerData as { readonly connect: MessagePort }).connect.on('message', (port: MessagePort) => serve(port));
