// A real HTTP/1.1 server that serves objects by byte range, as S3 or a CDN does, so tests read `http://` inputs
// over a socket: ranges, validators (ETag, Last-Modified, If-Match, If-Range), authorization, throttling and seeded
// faults. Loopback only, on a port the system picks; node:http alone, no dependency.
import { createHash } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { random } from './csv-generator.js';

export interface RangeServerOptions {
  /** Responds 200 with the whole body and no Accept-Ranges, ignoring Range (a server without range support). */
  readonly noRanges?: boolean;
  /**
   * Seeded faults: each request, with probability `rate`, is answered 503 (half of faults) or has its socket
   * destroyed mid-body (the other half). The same seed and the same sequence of requests give the same faults.
   */
  readonly faults?: { readonly seed: number; readonly rate: number };
  /** Required `Authorization` header value; a request without it gets 401, a wrong one 403. */
  readonly authorization?: string;
  /** Every Nth request (1-based count) answers 429 with Retry-After: 0. */
  readonly throttleEvery?: number;
}

export interface ServedRequest {
  readonly method: string;
  /** The request's path, as sent (still percent-encoded, without the query). */
  readonly path: string;
  /** The Range header as sent. */
  readonly range: string | undefined;
  /** The status answered; -1 when a fault destroyed the connection (mid-body, or before any answer). */
  readonly status: number;
  /** The part of the object the answer carries, both ends inclusive; absent when it carries none. */
  readonly from?: number;
  readonly to?: number;
  /** Body bytes handed to the socket (0 for HEAD); less than to - from + 1 when the transfer broke off. */
  readonly bytesSent: number;
}

export interface Coverage {
  /** The most times any one byte of the object was sent. */
  readonly maxTimesSent: number;
  readonly bytesSent: number;
  /** What each response sent, in the order they came, both ends inclusive. */
  readonly ranges: readonly (readonly [number, number])[];
}

export interface RangeServer {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  /** url + '/' + the percent-encoded name. */
  urlOf(name: string): string;
  /** Serve `bytes` (copied) under `name` with this ETag (default: a quoted hash of the bytes) and Last-Modified. */
  put(name: string, bytes: Uint8Array, etag?: string): void;
  /** Replace the object under `name` (new bytes => new ETag, new Last-Modified), as an upload over it would. */
  replace(name: string, bytes: Uint8Array): void;
  /** Serve a file from disk under `name`, streamed; its ETag and Last-Modified follow its size and mtime. */
  putFile(name: string, path: string): void;
  readonly log: readonly ServedRequest[];
  /**
   * What successful (200/206) GETs sent of the object now under `name` (a put or replace starts it again): the most
   * times a byte was sent, the total, and each response's range. From intervals, so cheap for 1 GB objects.
   */
  coverage(name: string): Coverage;
  /**
   * GETs of a range starting at or past `offset` wait (undefined: they go on), so a test can be sure that a call's
   * budget ends with work left to do.
   */
  holdFrom(offset: number | undefined): void;
  close(): Promise<void>;
}

/** The object as one request sees it. */
interface Snapshot {
  readonly size: number;
  readonly etag: string;
  readonly lastModified: Date;
  /** Bytes [from, from + length), in chunks small enough for back-pressure to act on. */
  chunks(from: number, length: number): AsyncIterable<Uint8Array>;
  /** Told when a chunk reached the socket: its memory may hold the next one. */
  release?(chunk: Uint8Array): void;
}

type ServedRecord = { -readonly [K in keyof ServedRequest]: ServedRequest[K] };

/** One put, replace or putFile: a new one starts coverage again. */
interface Stored {
  snapshot(): Promise<Snapshot | undefined>;
  /** Set for bytes put here, so that a replace gets a later Last-Modified. */
  readonly lastModified?: Date;
  /** The successful GETs of it, whose bytesSent grows while they send. */
  readonly sent: ServedRecord[];
}

interface Part {
  readonly snapshot: Snapshot;
  readonly from: number;
  readonly length: number;
}

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The part of the object a GET's body carries (a HEAD sends the same headers, no body). */
  readonly part?: Part;
}

const FaultKind = { None: 'none', Unavailable: 'unavailable', Cut: 'cut' } as const;
type FaultKind = (typeof FaultKind)[keyof typeof FaultKind];

interface Fault {
  readonly kind: FaultKind;
  /** Where in the body a cut falls, as a fraction of it. */
  readonly at: number;
}

interface Context {
  readonly options: RangeServerOptions;
  readonly objects: Map<string, Stored>;
  readonly log: ServedRecord[];
  readonly nextFault: () => Fault;
  requests: number;
  holdFrom?: number;
}

const CHUNK_BYTES = 1 << 20;
const Whole = 'whole';
const Unsatisfiable = 'unsatisfiable';
type Wanted = { readonly from: number; readonly to: number } | typeof Whole | typeof Unsatisfiable;

function checkOptions({ faults, throttleEvery }: RangeServerOptions): void {
  if (faults && !(faults.rate >= 0 && faults.rate <= 1)) {
    throw new RangeError(`faults.rate must be within [0, 1], got ${faults.rate}`);
  }
  if (faults && !Number.isInteger(faults.seed)) {
    throw new RangeError(`faults.seed must be an integer, got ${faults.seed}`);
  }
  if (throttleEvery !== undefined && !(Number.isInteger(throttleEvery) && throttleEvery >= 1)) {
    throw new RangeError(`throttleEvery must be a whole number from 1, got ${throttleEvery}`);
  }
}

/** Two draws a request whatever they decide, so a seed's faults depend only on how many requests came before. */
function faultsOf(faults: RangeServerOptions['faults']): () => Fault {
  if (!faults) return () => ({ kind: FaultKind.None, at: 0 });
  const rnd = random(faults.seed);
  return () => {
    const [roll, at] = [rnd(), rnd()];
    if (roll >= faults.rate) return { kind: FaultKind.None, at };
    return { kind: roll < faults.rate / 2 ? FaultKind.Unavailable : FaultKind.Cut, at };
  };
}

async function* slices(bytes: Uint8Array, from: number, length: number): AsyncIterable<Uint8Array> {
  const end = from + length;
  for (let at = from; at < end; at += CHUNK_BYTES) yield bytes.subarray(at, Math.min(at + CHUNK_BYTES, end));
}

/** Whole seconds (HTTP dates carry no more), and later than what it replaces even within the same second. */
function modifiedAfter(previous: Date | undefined): Date {
  const now = Math.floor(Date.now() / 1000) * 1000;
  return new Date(previous ? Math.max(now, previous.getTime() + 1000) : now);
}

const quoted = (etag: string): string => (/^(W\/)?"/.test(etag) ? etag : `"${etag}"`);

function bytesObject(bytes: Uint8Array, etag: string | undefined, previous: Stored | undefined): Stored {
  const copy = Uint8Array.from(bytes);
  const lastModified = modifiedAfter(previous?.lastModified);
  const tag = quoted(etag ?? createHash('sha256').update(copy).digest('hex').slice(0, 32));
  const chunks = (from: number, length: number) => slices(copy, from, length);
  const snapshot: Snapshot = { size: copy.byteLength, etag: tag, lastModified, chunks };
  return { snapshot: async () => snapshot, lastModified, sent: [] };
}

/** Stat on every request, as a file server does: a file rewritten on disk gets a new ETag; a removed one is 404. */
function fileObject(path: string): Stored {
  const snapshot = async (): Promise<Snapshot | undefined> => {
    const info = await stat(path, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!info) return undefined;
    return {
      size: Number(info.size),
      etag: `"${info.size.toString(16)}-${info.mtimeNs.toString(16)}"`,
      lastModified: new Date(Number(info.mtimeMs / 1000n) * 1000),
      chunks: (from, length) => fileChunks(path, from, length),
      release: (chunk) => {
        if (chunk.byteOffset === 0 && free.length < FREE_BUFFERS) free.push(chunk.buffer as ArrayBuffer);
      },
    };
  };
  return { snapshot, sent: [] };
}

/**
 * Memory a file's chunks are read into, used again once written: fresh memory for every chunk cost this server
 * a page fault per 4 KiB, more CPU than the client it serves spent reading (a server on another machine takes
 * none of the client's cores; this one shares them).
 */
const free: ArrayBuffer[] = [];
const FREE_BUFFERS = 16;

async function* fileChunks(path: string, from: number, length: number): AsyncIterable<Uint8Array> {
  const file = await open(path, 'r');
  try {
    for (let at = from; at < from + length;) {
      const into = new Uint8Array(free.pop() ?? new ArrayBuffer(CHUNK_BYTES));
      const { bytesRead } = await file.read(into, 0, Math.min(CHUNK_BYTES, from + length - at), at);
      if (bytesRead === 0) throw new Error(`${path} ended before byte ${at}`);
      at += bytesRead;
      yield into.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

const bare = (status: number, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'Content-Length': '0', ...headers },
});

const pathOf = (url: string | undefined): string => (url ?? '/').split('?')[0] ?? '/';

function nameOf(url: string | undefined): string | undefined {
  try {
    return decodeURIComponent(pathOf(url).slice(1));
  } catch {
    return undefined; // A malformed escape names no object.
  }
}

/** RFC 9110 §13.1.1: strong comparison, so a weak ETag never matches; `*` matches any current object. */
function ifMatchHolds(header: string | undefined, etag: string): boolean {
  if (header === undefined) return true;
  const tags = header.split(',').map((tag) => tag.trim());
  return tags.includes('*') || (!etag.startsWith('W/') && tags.includes(etag));
}

/** Node types a header it does not know as possibly repeated (it joins repeats with ', ' all the same). */
const oneValue = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value.join(', ') : value;

/** RFC 9110 §13.1.5: If-Range names the object the client holds (ETag or date); another one gets the whole body. */
function ifRangeHolds(header: string | undefined, snapshot: Snapshot): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (/^(W\/)?"/.test(value)) return value === snapshot.etag && !value.startsWith('W/');
  return Date.parse(value) === snapshot.lastModified.getTime();
}

/** RFC 9110 §14.1.2: a Range that does not parse is ignored (whole body); one that starts past the end is 416. */
function wantedRange(header: string | undefined, size: number): Wanted {
  if (header === undefined) return Whole;
  // One range only: several (comma-separated) would need a multipart/byteranges body, and a server may answer the
  // whole body instead (RFC 9110 §14.2), so they fail this pattern and get 200.
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return Whole;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return Whole;
  if (first === '') return suffixRange(Number(last), size);
  const from = Number(first);
  const to = last === '' ? size - 1 : Number(last);
  if (last !== '' && to < from) return Whole;
  if (from >= size) return Unsatisfiable;
  return { from, to: Math.min(to, size - 1) };
}

/** `bytes=-n`: the last n bytes, or all of them when there are fewer. */
function suffixRange(length: number, size: number): Wanted {
  if (length === 0 || size === 0) return Unsatisfiable;
  return { from: Math.max(0, size - length), to: size - 1 };
}

/**
 * A HEAD gets the headers a GET would (RFC 9110 §9.3.2), its Range included, as S3 answers a ranged HEAD 206.
 * If-Match is weighed before Range, as RFC 9110 §13.2.2 orders them.
 */
function objectAnswer(req: IncomingMessage, snapshot: Snapshot, ranges: boolean): Answer {
  const validators: Record<string, string> = {
    ETag: snapshot.etag,
    'Last-Modified': snapshot.lastModified.toUTCString(),
    ...(ranges ? { 'Accept-Ranges': 'bytes' } : {}),
  };
  if (!ifMatchHolds(req.headers['if-match'], snapshot.etag)) return bare(412, validators);
  const honoured = ranges && ifRangeHolds(oneValue(req.headers['if-range']), snapshot);
  const wanted = honoured ? wantedRange(req.headers.range, snapshot.size) : Whole;
  if (wanted === Unsatisfiable) return bare(416, { ...validators, 'Content-Range': `bytes */${snapshot.size}` });
  const headers = { ...validators, 'Content-Type': 'application/octet-stream' };
  if (wanted === Whole) {
    const part = { snapshot, from: 0, length: snapshot.size };
    return { status: 200, headers: { ...headers, 'Content-Length': String(snapshot.size) }, part };
  }
  const part = { snapshot, from: wanted.from, length: wanted.to - wanted.from + 1 };
  const range = `bytes ${wanted.from}-${wanted.to}/${snapshot.size}`;
  return { status: 206, headers: { ...headers, 'Content-Length': String(part.length), 'Content-Range': range }, part };
}

function refusal(required: string | undefined, given: string | undefined): Answer | undefined {
  if (required === undefined || given === required) return undefined;
  if (given === undefined) return bare(401, { 'WWW-Authenticate': `${required.split(' ')[0]} realm="range-server"` });
  return bare(403);
}

/** What is answered before the object is looked at: method, throttling, authorization, a 503 fault. */
function gate(ctx: Context, req: IncomingMessage, fault: Fault): Answer | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return bare(405, { Allow: 'GET, HEAD' });
  const every = ctx.options.throttleEvery;
  if (every !== undefined && ctx.requests % every === 0) return bare(429, { 'Retry-After': '0' });
  const refused = refusal(ctx.options.authorization, req.headers.authorization);
  if (refused) return refused;
  return fault.kind === FaultKind.Unavailable ? bare(503) : undefined;
}

async function decide(ctx: Context, req: IncomingMessage, fault: Fault): Promise<{ answer: Answer; stored?: Stored }> {
  const early = gate(ctx, req, fault);
  if (early) return { answer: early };
  const name = nameOf(req.url);
  const stored = name === undefined ? undefined : ctx.objects.get(name);
  const snapshot = await stored?.snapshot();
  if (!stored || !snapshot) return { answer: bare(404) };
  return { answer: objectAnswer(req, snapshot, !ctx.options.noRanges), stored };
}

function recordOf(req: IncomingMessage, answer: Answer, fault: Fault): ServedRecord {
  const part = answer.part;
  const span = part && part.length > 0 ? { from: part.from, to: part.from + part.length - 1 } : {};
  const status = fault.kind === FaultKind.Cut ? -1 : answer.status;
  return { method: req.method ?? '', path: pathOf(req.url), range: req.headers.range, status, ...span, bytesSent: 0 };
}

/** Resolves when the response can take more, or is gone (a client that went away never drains it). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

/** res.write, and when its chunk reached the socket. */
function write(res: ServerResponse, chunk: Uint8Array): { readonly more: boolean; readonly flushed: Promise<void> } {
  let reached = (): void => undefined;
  const flushed = new Promise<void>((resolve) => (reached = resolve));
  return { more: res.write(chunk, () => reached()), flushed };
}

/** Writes the part, counting each chunk as it is handed over; resolves once the last reached the socket. */
async function sendBody(res: ServerResponse, part: Part, record: ServedRecord): Promise<void> {
  const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
  let flushed = Promise.resolve();
  for await (const chunk of part.snapshot.chunks(part.from, part.length)) {
    if (res.destroyed) break;
    const written = write(res, chunk);
    record.bytesSent += chunk.byteLength;
    flushed = written.flushed;
    void flushed.then(() => part.snapshot.release?.(chunk));
    if (!written.more) await drained(res);
  }
  // A write's callback never comes once the socket is gone, so the close ends the wait too.
  await Promise.race([flushed, closed]);
}

/** A fault: the headers and part of the body go out, then the connection drops, as a reset mid-transfer does. */
async function cutShort(res: ServerResponse, answer: Answer, part: Part | undefined, at: number, record: ServedRecord) {
  const length = part?.length ?? 0;
  // No body of two bytes or more to break off inside: the connection drops before any answer.
  if (!part || length < 2) return void res.socket?.destroy();
  res.writeHead(answer.status, answer.headers);
  const cut = Math.min(length - 1, 1 + Math.floor(at * (length - 1)));
  await sendBody(res, { ...part, length: cut }, record);
  res.socket?.destroy();
}

/** While the server holds ranges from some offset on, a GET of one of them waits. */
async function heldBack(ctx: Context, req: IncomingMessage): Promise<void> {
  const from = Number(/^bytes=(\d+)-/.exec(req.headers.range ?? '')?.[1] ?? 0);
  while (req.method === 'GET' && ctx.holdFrom !== undefined && from >= ctx.holdFrom) await sleep(20);
}

async function handle(ctx: Context, req: IncomingMessage, res: ServerResponse): Promise<void> {
  await heldBack(ctx, req);
  const fault = ctx.nextFault();
  ctx.requests += 1;
  const { answer, stored } = await decide(ctx, req, fault);
  const record = recordOf(req, answer, fault);
  // Logged before the answer goes out, so a client that has its response finds it in the log.
  ctx.log.push(record);
  const body = req.method === 'GET' ? answer.part : undefined;
  if (fault.kind === FaultKind.Cut) return cutShort(res, answer, body, fault.at, record);
  if (stored && body) stored.sent.push(record);
  res.writeHead(answer.status, answer.headers);
  if (body) await sendBody(res, body, record);
  res.end();
}

/** The deepest overlap of inclusive ranges: a sweep over their ends, so its cost is the ranges', not the bytes'. */
function deepestOverlap(ranges: readonly (readonly [number, number])[]): number {
  const edges = ranges.flatMap(([from, to]) => [[from, 1], [to + 1, -1]] as const);
  // At the same offset an end goes first: [0, 4] and [5, 9] meet without overlapping.
  const sorted = [...edges].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let depth = 0;
  let deepest = 0;
  for (const [, step] of sorted) {
    depth += step;
    deepest = Math.max(deepest, depth);
  }
  return deepest;
}

function coverageOf(sent: readonly ServedRecord[]): Coverage {
  const ranges = sent.flatMap(({ from, bytesSent }) =>
    from === undefined || bytesSent === 0 ? [] : [[from, from + bytesSent - 1] as const],
  );
  const bytesSent = sent.reduce((sum, record) => sum + record.bytesSent, 0);
  return { maxTimesSent: deepestOverlap(ranges), bytesSent, ranges };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function serve(ctx: Context): Server {
  return createServer((req, res) => {
    handle(ctx, req, res).catch((error: unknown) => {
      // A fault of this helper fails the test that met it, instead of hanging it.
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`range-server: ${String(error)}`);
    });
  });
}

export async function startRangeServer(options: RangeServerOptions = {}): Promise<RangeServer> {
  checkOptions(options);
  const ctx: Context = { options, objects: new Map(), log: [], nextFault: faultsOf(options.faults), requests: 0 };
  const server = serve(ctx);
  const url = `http://127.0.0.1:${await listen(server)}`;
  const { objects } = ctx;
  const held = (name: string): Stored => {
    const stored = objects.get(name);
    if (!stored) throw new Error(`range-server: no object named ${JSON.stringify(name)}`);
    return stored;
  };
  return {
    url,
    urlOf: (name) => `${url}/${encodeURIComponent(name)}`,
    put: (name, bytes, etag) => void objects.set(name, bytesObject(bytes, etag, objects.get(name))),
    replace: (name, bytes) => void objects.set(name, bytesObject(bytes, undefined, held(name))),
    putFile: (name, path) => void objects.set(name, fileObject(path)),
    log: ctx.log,
    coverage: (name) => coverageOf(held(name).sent),
    holdFrom: (offset) => void (ctx.holdFrom = offset),
    close: () =>
      new Promise((resolve, reject) => {
        ctx.holdFrom = undefined; // Held requests go on, so that none keeps the close waiting.
        server.close((error) => (error ? reject(error) : resolve()));
        // Kept-alive connections would hold close() open for their idle timeout.
        server.closeAllConnections();
      }),
  };
}
