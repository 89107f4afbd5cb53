// One GET of a remote object: over plain http:// by stint's own reader of
// HTTP/1.1 answers (plain-http-get.ts); over https://, or for an answer that
// reader leaves, by node:http or node:https, with kept-alive connections and
// the body read straight into one buffer of the length the server announced
// (fetch's web streams and its body's concatenation cost the fetch thread more
// CPU than the chunks' own parsing did).
import type { Agent, IncomingMessage, request as httpRequest } from 'node:http';
import { freshBuffer, type BodyBuffer, type HttpAnswer } from './http-answer.js';
import { plainHttpGet, UNFRAMED } from './plain-http-get.js';

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

/** The body, into one buffer when its length is announced (else gathered); rejects when the connection drops. */
function bodyOf(response: IncomingMessage, buffer: BodyBuffer): Promise<Uint8Array> {
  const announced = Number(response.headers['content-length']);
  return new Promise((resolve, reject) => {
    const pieces: Buffer[] = [];
    const into = Number.isSafeInteger(announced) ? buffer(announced) : undefined;
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
export async function httpGet(
  url: string, headers: Record<string, string>, timeoutMs: number, buffer = freshBuffer,
): Promise<HttpAnswer> {
  if (url.startsWith('http:')) {
    const answer = await plainHttpGet(url, headers, timeoutMs, buffer);
    if (answer !== UNFRAMED) return answer;
  }
  return nodeHttpGet(url, headers, timeoutMs, buffer);
}

async function nodeHttpGet(url: string, headers: Record<string, string>, timeoutMs: number, buffer: BodyBuffer):
  Promise<HttpAnswer> {
  const { request, agent } = await transport(url.startsWith('https:'));
  return new Promise((resolve, reject) => {
    const asked = request(url, { headers, agent }, (response) => {
      // Only a success's body is the caller's to keep.
      const success = (response.statusCode ?? 0) >= 200 && (response.statusCode ?? 0) < 300;
      bodyOf(response, success ? buffer : freshBuffer).then((body) => resolve({
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
