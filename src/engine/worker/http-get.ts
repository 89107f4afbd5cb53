// One GET over node:http or node:https, kept-alive connections, its body read
// straight into one buffer (shared memory) of the length the server
// announced: fetch's web streams and its body's concatenation cost the fetch
// thread more CPU than the chunks' own parsing did.
import type { Agent, IncomingMessage, request as httpRequest } from 'node:http';

/** A scheme's client with its kept-alive connections, loaded on first use (node:https costs a start 11 ms). */
interface Transport {
  readonly request: typeof httpRequest;
  readonly agent: Agent;
}
const transports = new Map<string, Promise<Transport>>();

function transport(secure: boolean): Promise<Transport> {
  const scheme = secure ? 'node:https' : 'node:http';
  let loaded = transports.get(scheme);
  if (!loaded) {
    loaded = import(scheme).then((module: typeof import('node:http')) =>
      ({ request: module.request, agent: new module.Agent({ keepAlive: true }) }));
    transports.set(scheme, loaded);
  }
  return loaded;
}

export interface HttpAnswer {
  readonly status: number;
  header(name: string): string | undefined;
  readonly body: Uint8Array;
}

/** The body, into one buffer when its length is announced (else gathered); rejects when the connection drops. */
function bodyOf(response: IncomingMessage): Promise<Uint8Array> {
  const announced = Number(response.headers['content-length']);
  return new Promise((resolve, reject) => {
    const pieces: Buffer[] = [];
    // Shared memory: the fetch thread keeps it and hands it to the reading thread without a copy.
    const into = Number.isSafeInteger(announced) ? new Uint8Array(new SharedArrayBuffer(announced)) : undefined;
    let length = 0;
    response.on('data', (piece: Buffer) => {
      if (into && length + piece.length <= into.length) into.set(piece, length);
      else pieces.push(piece);
      length += piece.length;
    });
    const cut = () => reject(new Error('the connection closed before the body ended'));
    response.on('end', () => {
      if (!response.complete) cut();
      else resolve(into && pieces.length === 0 ? into.subarray(0, length) : Buffer.concat(pieces));
    });
    response.on('error', reject);
    // A connection cut mid-body may end the response with neither: it closes (a settled promise ignores this).
    response.on('close', () => {
      if (!response.complete) cut();
    });
  });
}

/** GET `url` with `headers`; a server that sends nothing for `timeoutMs` is dropped (a rejection). */
export async function httpGet(url: string, headers: Record<string, string>, timeoutMs: number): Promise<HttpAnswer> {
  const { request, agent } = await transport(url.startsWith('https:'));
  return new Promise((resolve, reject) => {
    const asked = request(url, { headers, agent }, (response) => {
      bodyOf(response).then((body) => resolve({
        status: response.statusCode ?? 0,
        header: (name) => [response.headers[name]].flat()[0],
        body,
      }), reject);
    });
    asked.setTimeout(timeoutMs, () => asked.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    asked.on('error', reject);
    asked.end();
  });
}
