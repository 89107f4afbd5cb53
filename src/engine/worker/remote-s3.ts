// An s3://bucket/key object read by byte range through the AWS SDK (loaded
// only when an s3:// input is read), with its standard resolution of
// credentials, region and endpoint: AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3)
// names an S3-compatible store, which is then addressed by path
// (http://host/bucket/key), as such stores expect.
import { createRequire } from 'node:module';
import { ErrorCode } from '../../contract/error-code.js';
import { failure, lostFailure, RemoteFailure, statusFailure } from './remote-failure.js';
import type { RemoteIdentity } from './remote-identity.js';
import { freshBuffer, type BodyBuffer, type HttpAnswer } from './http-answer.js';
import { httpGet } from './http-get.js';
import { REQUEST_TIMEOUT_MS } from './remote-http.js';
import { signedRequest, type SignedGet, type StackedCommand } from './s3-signed-request.js';

const CLIENT = '@aws-sdk/client-s3';

/** What stint uses of the SDK (its types are not a dependency). */
interface S3Sdk {
  S3Client: new (config: Record<string, unknown>) => { send(command: unknown): Promise<S3Output> };
  HeadObjectCommand: new (input: Record<string, unknown>) => unknown;
  GetObjectCommand: new (input: Record<string, unknown>) => unknown;
}
interface S3Output {
  readonly ContentLength?: number;
  readonly ETag?: string;
  readonly LastModified?: Date;
  /** In Node.js, the answer's body as it arrives, a piece at a time. */
  readonly Body?: AsyncIterable<Uint8Array>;
}

/** The SDK's own switch for its notice of the Node versions its later releases need. */
export const SDK_NODE_NOTICE_OFF = 'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED';

let client: { readonly sdk: S3Sdk; readonly s3: { send(command: unknown): Promise<S3Output> } } | undefined;

function s3Client(url: string): NonNullable<typeof client> {
  if (client) return client;
  let sdk: S3Sdk;
  try {
    sdk = createRequire(import.meta.url)(CLIENT) as S3Sdk;
  } catch {
    const message = `${url}: s3:// inputs need the package ${CLIENT}, which is not installed`
      + ` (npm install ${CLIENT} beside stint)`;
    throw new RemoteFailure(failure(ErrorCode.RemoteClientMissing, message, { package: CLIENT }), false);
  }
  const env = process.env;
  // Which Node versions stint runs on is stint's to say (package.json's engines); on Node 20 the SDK would print
  // its notice of what its later releases need on every call's stderr, among stint's own lines.
  env[SDK_NODE_NOTICE_OFF] ??= 'true';
  const endpoint = env['AWS_ENDPOINT_URL_S3'] ?? env['AWS_ENDPOINT_URL'];
  // stint retries itself (remote-failure.ts), as for http://.
  const s3 = new sdk.S3Client({ maxAttempts: 1, ...(endpoint ? { forcePathStyle: true } : {}) });
  client = { sdk, s3 };
  return client;
}

/** The bucket and key of s3://bucket/key. */
function location(url: string): { readonly Bucket: string; readonly Key: string } {
  const match = /^s3:\/\/([^/]+)\/(.+)$/i.exec(url);
  if (!match) {
    const message = `${url} is not an S3 object: name it s3://bucket/key`;
    throw new RemoteFailure(failure(ErrorCode.FileNotFound, message, { url }), false);
  }
  return { Bucket: match[1]!, Key: decodeURIComponent(match[2]!) };
}

/** An SDK error as a coded failure: by its HTTP status, SlowDown as throttling, no status as a lost request. */
function s3Failure(error: unknown, url: string): RemoteFailure {
  if (error instanceof RemoteFailure) return error;
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  // S3 answers 503 when it throttles (SlowDown, or ServiceUnavailable: "reduce your request rate").
  if (name === 'SlowDown' || $metadata?.httpStatusCode === 503) return statusFailure(429, url, null);
  if (/Credential|Signature|InvalidAccessKeyId/i.test(name ?? '')) return statusFailure(401, url, null);
  const status = $metadata?.httpStatusCode;
  return status ? statusFailure(status, url, null) : lostFailure(error, url);
}

async function send(url: string, command: (sdk: S3Sdk) => unknown): Promise<S3Output> {
  const { sdk, s3 } = s3Client(url);
  try {
    return await s3.send(command(sdk));
  } catch (error) {
    throw s3Failure(error, url);
  }
}

export async function s3Probe(url: string): Promise<RemoteIdentity> {
  const head = await send(url, (sdk) => new sdk.HeadObjectCommand(location(url)));
  const lastModified = head.LastModified?.toUTCString();
  const tag = head.ETag ? { tag: head.ETag } : {};
  return { size: head.ContentLength ?? 0, ...tag, ...(lastModified ? { lastModified } : {}) };
}

/** A body too long or too short for its range: the store is taken as failing, and the range is read again. */
function wrongLength(url: string, sent: number, length: number): RemoteFailure {
  const message = `${url} sent ${sent} bytes for a range of ${length}`;
  return new RemoteFailure(failure(ErrorCode.RemoteUnavailable, message, { url }), true);
}

/**
 * The body's pieces copied into `into` as they arrive: the SDK's own way (transformToByteArray) gathers them in
 * fresh memory first, a page fault per 4 KiB, and its result sits at no word offset (word-offset.ts).
 */
async function readBody(url: string, body: AsyncIterable<Uint8Array> | undefined, into: Uint8Array): Promise<void> {
  let filled = 0;
  try {
    for await (const piece of body ?? []) {
      if (filled + piece.length > into.length) throw wrongLength(url, filled + piece.length, into.length);
      into.set(piece, filled);
      filled += piece.length;
    }
  } catch (error) {
    throw error instanceof RemoteFailure ? error : lostFailure(error, url);
  }
  if (filled !== into.length) throw wrongLength(url, filled, into.length);
}

/** What a GET the SDK signed answered, through stint's own connection: a range of `length` bytes, or a failure. */
async function sentItself(url: string, signed: SignedGet, buffer: BodyBuffer, length: number): Promise<HttpAnswer> {
  let answer: HttpAnswer;
  try {
    answer = await httpGet(signed.href, signed.headers, REQUEST_TIMEOUT_MS, buffer);
  } catch (error) {
    throw lostFailure(error, url);
  }
  if (answer.status === 503) throw statusFailure(429, url, answer.header('retry-after') ?? null);
  if (answer.status !== 206) throw statusFailure(answer.status, url, answer.header('retry-after') ?? null);
  if (answer.body.length !== length) throw wrongLength(url, answer.body.length, length);
  return answer;
}

/** The range through the SDK's own client: a request stint could not send as the SDK signed it. */
async function sdkRange(url: string, command: unknown, buffer: BodyBuffer, length: number) {
  const got = await send(url, () => command);
  const bytes = buffer(length);
  await readBody(url, got.Body, bytes);
  return { tag: got.ETag, bytes };
}

/**
 * Bytes [from, to) of the version `identity` names, read into `buffer`'s memory; a store that ignores If-Match is
 * caught by the ETag it sends.
 */
export async function s3Range(url: string, identity: RemoteIdentity, from: number, to: number,
  buffer: BodyBuffer = freshBuffer): Promise<Uint8Array> {
  const ifMatch = identity.tag ? { IfMatch: identity.tag } : {};
  const input = { ...location(url), Range: `bytes=${from}-${to - 1}`, ...ifMatch };
  const { sdk, s3 } = s3Client(url);
  let signed: SignedGet | undefined;
  try {
    signed = await signedRequest(new sdk.GetObjectCommand(input) as StackedCommand, (command) => s3.send(command));
  } catch (error) {
    throw s3Failure(error, url);
  }
  const got = signed
    ? await sentItself(url, signed, buffer, to - from).then((sent) => ({ tag: sent.header('etag'), bytes: sent.body }))
    : await sdkRange(url, new sdk.GetObjectCommand(input), buffer, to - from);
  if (identity.tag && got.tag && got.tag !== identity.tag) throw statusFailure(412, url, null);
  return got.bytes;
}
