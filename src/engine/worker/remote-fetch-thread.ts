// The process's one thread for remote reads (remote-reads.ts): a thread that
// reads posts a request on its port and sleeps on a shared word; this one
// answers from the ranges it read lately or fetches the rest, posts the answer
// and wakes it. Reads stay synchronous for their callers (the chunk reader,
// the header's reader), many are in flight at once, bytes that two chunks
// both read (a record across their cut, a chunk mapped again from its true
// start) come over the network once, and the next chunk's range is read
// ahead (fetched-ranges.ts).
import { workerData, type MessagePort } from 'node:worker_threads';
import type { Answer } from './remote-failure.js';
import { probeObject } from './remote-object.js';
import type { RemoteRequest } from './remote-protocol.js';
import { FetchedRanges } from './fetched-ranges.js';

const ranges = new FetchedRanges();

function reply(port: MessagePort, signal: SharedArrayBuffer, answer: Answer<unknown>): void {
  // A buffer of the answer's own moves to the asking thread (no copy).
  const value = answer.ok ? answer.value : undefined;
  const transfer = value instanceof Uint8Array && value.buffer instanceof ArrayBuffer ? [value.buffer] : [];
  port.postMessage(answer, transfer);
  const word = new Int32Array(signal);
  Atomics.store(word, 0, 1);
  Atomics.notify(word, 0);
}

/** Bytes [from, to), written into the asker's shared memory (answering their count) or a buffer of their own. */
async function range(asked: RemoteRequest & { kind: 'range' }): Promise<Answer<Uint8Array | number>> {
  const { url, identity, from, to } = asked;
  const into = asked.into ? new Uint8Array(asked.into, asked.at, to - from) : new Uint8Array(to - from);
  const read = await ranges.read(url, identity, from, into, asked.reader);
  return !read.ok || asked.into ? read : { ok: true, value: into };
}

function serve(port: MessagePort): void {
  port.on('message', (asked: RemoteRequest) => {
    const answering = asked.kind === 'probe' ? probeObject(asked.url) : range(asked);
    void answering.then((answer) => reply(port, asked.signal, answer));
  });
}

// Each reading thread connects with a port of its own.
(workerData as { readonly connect: MessagePort }).connect.on('message', (port: MessagePort) => serve(port));
