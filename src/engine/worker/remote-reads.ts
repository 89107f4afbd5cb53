// Synchronous reads of remote inputs (http://, https://, s3://), for code that reads
// files synchronously (the chunk reader in the pool's threads, the header
// and sample on the main thread). The fetch thread (remote-fetch-thread.ts)
// does the requests; the asking thread sleeps until the answer is posted.
// A pool's task brings a port to its process's fetch thread; a thread with
// none (the main thread) connects to one it starts itself.
import { MessageChannel, receiveMessageOnPort, threadId, Worker, type MessagePort } from 'node:worker_threads';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import type { Answer } from './remote-failure.js';
import type { RemoteIdentity } from './remote-identity.js';
import type { RemoteAsk } from './remote-protocol.js';

const FETCH_START = new URL('./remote-fetch-start.cjs', import.meta.url);
/** Longer than every retry of a request takes: past it the fetch thread is taken as lost. */
const ANSWER_WAIT_MS = 10 * 60_000;

/** The port the fetch thread started here takes new connections on. */
let service: MessagePort | undefined;
/** This thread's own connection, and the one the running task brought (used first). */
let own: MessagePort | undefined;
let lent: MessagePort | undefined;
const signal = new SharedArrayBuffer(4);
const word = new Int32Array(signal);

/** A new connection to the fetch thread this thread started (it never keeps the process alive). */
export function remotePort(): MessagePort {
  if (!service) {
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(FETCH_START, { workerData: { connect: port2 }, transferList: [port2] });
    worker.unref();
    service = port1;
    service.unref();
  }
  const { port1, port2 } = new MessageChannel();
  service.postMessage(port2, [port2]);
  return port1;
}

/** The port the running task brought (undefined once it ends). */
export function useRemotePort(port: MessagePort | undefined): void {
  lent = port;
}

function ask<T>(request: RemoteAsk): T {
  const port = lent ?? (own ??= remotePort());
  Atomics.store(word, 0, 0);
  port.postMessage({ ...request, signal });
  const woke = Atomics.wait(word, 0, 0, ANSWER_WAIT_MS);
  const received = receiveMessageOnPort(port)?.message as Answer<T> | undefined;
  if (woke === 'timed-out' || !received) {
    throw new StintError(ErrorCode.RemoteUnavailable, `no answer for ${request.url} in ${ANSWER_WAIT_MS} ms`,
      { context: { url: request.url } });
  }
  if (!received.ok) {
    throw new StintError(received.error.code as ErrorCode, received.error.message,
      { context: received.error.context ?? {} });
  }
  return received.value;
}

/** What the object at `url` is (size, version). */
export const probeRemote = (url: string): RemoteIdentity => ask({ kind: 'probe', url });

/** A range to read: bytes [from, to); `readsOn` when the reader will go on to read where it ends. */
export interface RangeToRead {
  readonly from: number;
  readonly to: number;
  readonly readsOn: boolean;
}

/**
 * The range's bytes of the object's version `identity`, into `buffer` at `offset`; answers how many. Shared
 * memory is written by the fetch thread itself; other memory gets a copy.
 */
export function readRemote(url: string, identity: RemoteIdentity, buffer: Uint8Array, offset: number,
  { from, to, readsOn }: RangeToRead): number {
  const end = Math.min(to, identity.size);
  if (end <= from) return 0;
  const range = { kind: 'range', url, identity, from, to: end, ...(readsOn ? { reader: threadId } : {}) } as const;
  if (buffer.buffer instanceof SharedArrayBuffer) {
    return ask<number>({ ...range, into: buffer.buffer, at: buffer.byteOffset + offset });
  }
  const bytes = ask<Uint8Array>(range);
  buffer.set(bytes, offset);
  return bytes.length;
}
