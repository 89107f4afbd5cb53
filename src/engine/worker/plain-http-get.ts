// A GET over plain http:// on a socket of our own: a body is read straight
// into the memory it goes to, the head into one buffer per connection that
// every read reuses. node:http hands over each 64 KiB read in fresh memory: for a
// 1 GB object that was a page fault every few KiB and most of the fetch
// thread's CPU (five times what this costs). Answers that are not framed by
// a Content-Length (chunked ones) are left to node:http (http-get.ts).
import { connect, type Socket } from 'node:net';
import type { BodyBuffer, HttpAnswer } from './http-answer.js';

/** A connection's read buffer. */
const READ_BYTES = 256 * 1024;
/** An answer's status line and headers longer than this are refused. */
const HEAD_LIMIT = 64 * 1024;
const HEAD_END = '\r\n\r\n';

/** An answer node:http must read instead: a success without a Content-Length. */
export const UNFRAMED = Symbol('unframed');

/** What a connection is receiving: told each read's bytes (valid only during the call), or its end. */
interface Receiver {
  /** Where the next read may land as it is (a body's part not yet filled): no copy is made of it. */
  room(): Uint8Array | undefined;
  /** `length` bytes landed in the room given. */
  landed(length: number): void;
  read(bytes: Buffer, length: number): void;
  lost(error: Error): void;
}

/** A request that failed before any byte of its answer came, on a connection kept from an earlier answer. */
class KeptConnectionLost extends Error {}

class Connection {
  readonly socket: Socket;
  receiver: Receiver | undefined;
  /** Whether it has carried an answer (a kept connection the server closed meanwhile fails with none). */
  used = false;

  constructor(host: string, port: number) {
    const own = Buffer.allocUnsafe(READ_BYTES);
    // Asked before each read: a body's bytes are read straight to where they go, the rest into our own buffer.
    const buffer = () => this.receiver?.room() ?? own;
    const callback = (n: number, into: Uint8Array) => {
      // Bytes while no request waits (more than an answer announced): the connection cannot be trusted again.
      if (!this.receiver) this.socket.destroy();
      else if (into === own) this.receiver.read(own, n);
      else this.receiver.landed(n);
      return true;
    };
    this.socket = connect({ host, port, onread: { buffer, callback } });
    this.socket.setNoDelay(true);
    this.socket.on('error', (error) => this.receiver?.lost(error));
    this.socket.on('close', () => this.receiver?.lost(new Error('the connection closed before the answer ended')));
    this.socket.on('timeout', () => this.socket.destroy(new Error(`no answer in ${this.socket.timeout} ms`)));
  }
}

/** Kept-alive connections, by host and port, waiting for a request. */
const idle = new Map<string, Connection[]>();

function take(origin: URL): Connection {
  const waiting = idle.get(origin.host) ?? [];
  for (let kept = waiting.pop(); kept; kept = waiting.pop()) {
    if (!kept.socket.destroyed) return kept;
  }
  return new Connection(origin.hostname.replace(/^\[|\]$/g, ''), Number(origin.port || 80));
}

function putBack(origin: URL, connection: Connection): void {
  connection.receiver = undefined;
  connection.socket.setTimeout(0);
  connection.socket.unref();
  const waiting = idle.get(origin.host) ?? [];
  waiting.push(connection);
  idle.set(origin.host, waiting);
}

interface Head {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  /** Whether the connection may carry another request. */
  readonly keepAlive: boolean;
}

function parseHead(text: string): Head {
  const lines = text.split('\r\n');
  const statusLine = /^HTTP\/1\.([01]) (\d{3})/.exec(lines[0]!);
  if (!statusLine) throw new Error(`not an HTTP/1 answer: ${JSON.stringify(lines[0]!.slice(0, 80))}`);
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon > 0 && !headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  const keepAlive = statusLine[1] === '1' && headers.get('connection')?.toLowerCase() !== 'close';
  return { status: Number(statusLine[2]), headers, keepAlive };
}

/** The request's bytes; a header value that would break its framing (a CR or LF) is refused. */
function requestText(url: URL, headers: Record<string, string>): string {
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, 'Connection: keep-alive'];
  for (const [name, value] of Object.entries(headers)) {
    if (/[\r\n]/.test(value)) throw new Error(`the ${name} header would hold a line break`);
    lines.push(`${name}: ${value}`);
  }
  return `${lines.join('\r\n')}${HEAD_END}`;
}

/** One request and its answer on `connection`: the head, then a success's body into `buffer`'s memory. */
function exchange(connection: Connection, request: string, buffer: BodyBuffer):
  Promise<{ head: Head; body: Uint8Array } | typeof UNFRAMED> {
  return new Promise((resolve, reject) => {
    let headText = '';
    let head: Head | undefined;
    let body: Uint8Array = new Uint8Array(0);
    let filled = 0;
    const finish = (answer: { head: Head; body: Uint8Array } | typeof UNFRAMED) => {
      connection.receiver = undefined;
      resolve(answer);
    };
    const received = (bytes: Buffer, length: number): void => {
      let at = 0;
      if (!head) {
        const before = headText.length;
        headText += bytes.toString('latin1', 0, Math.min(length, HEAD_LIMIT));
        const end = headText.indexOf(HEAD_END);
        if (end < 0) {
          if (headText.length >= HEAD_LIMIT) throw new Error('the answer\'s head is too long');
          return;
        }
        head = parseHead(headText.slice(0, end));
        at = end + HEAD_END.length - before;
        if (head.status >= 100 && head.status < 200) {
          // An interim answer (103 Early Hints, say): the answer proper follows it.
          head = undefined;
          headText = '';
          return received(bytes.subarray(at), length - at);
        }
        const announced = Number(head.headers.get('content-length'));
        // Only a success's body is read: the status and headers say what went wrong otherwise.
        if (head.status < 200 || head.status >= 300) return finish({ head: { ...head, keepAlive: false }, body });
        if (head.headers.has('transfer-encoding') || !Number.isSafeInteger(announced)) return finish(UNFRAMED);
        body = buffer(announced);
      }
      const take = Math.min(length - at, body.length - filled);
      body.set(bytes.subarray(at, at + take), filled);
      filled += take;
      // Bytes past the body (a server that sent more than it announced): the connection is not used again.
      if (filled === body.length) {
        finish({ head: { ...head, keepAlive: head.keepAlive && at + take === length }, body });
      }
    };
    connection.receiver = {
      room: () => (head && filled < body.length ? body.subarray(filled) : undefined),
      landed(length) {
        filled += length;
        if (filled === body.length) finish({ head: head!, body });
      },
      lost: (error) => {
        connection.receiver = undefined;
        reject(connection.used && headText === '' ? new KeptConnectionLost(error.message) : error);
      },
      read(bytes, length) {
        try {
          received(bytes, length);
        } catch (error) {
          // An answer that is not HTTP, or a body too big to hold: the connection goes, the request fails.
          connection.socket.destroy(error as Error);
        }
      },
    };
    connection.socket.ref();
    connection.socket.write(request);
  });
}

/**
 * GET `url` (http://) with `headers`; a server that sends nothing for `timeoutMs` is dropped (a rejection).
 * UNFRAMED: the answer is a success without a Content-Length, for node:http to read.
 */
export async function plainHttpGet(url: string, headers: Record<string, string>, timeoutMs: number,
  buffer: BodyBuffer): Promise<HttpAnswer | typeof UNFRAMED> {
  const origin = new URL(url);
  const request = requestText(origin, headers);
  for (;;) {
    const connection = take(origin);
    connection.socket.setTimeout(timeoutMs);
    let answer: Awaited<ReturnType<typeof exchange>>;
    try {
      answer = await exchange(connection, request, buffer);
    } catch (error) {
      connection.socket.destroy();
      // A kept connection the server closed while it waited: the request goes again, on another.
      if (error instanceof KeptConnectionLost) continue;
      throw error;
    } finally {
      connection.used = true;
    }
    if (answer === UNFRAMED || !answer.head.keepAlive) connection.socket.destroy();
    else putBack(origin, connection);
    if (answer === UNFRAMED) return UNFRAMED;
    const { head, body } = answer;
    return { status: head.status, header: (name) => head.headers.get(name), body };
  }
}
