// An s3://bucket/key object read by byte range through the AWS SDK (loaded
// only when an s3:// input is read), with its standard resolution of
// credentials, region and endpoint: AWS_ENDPOINT_URL (or AWS_ENDPOINT_URL_S3)
// names an S3-compatible store, which is then addressed by path
// (http://host/bucket/key), as such stores expect.
import { createRequire } from 'node:module';
import { ErrorCode } from '../../contract/error-code.js';
import { failure, lostFailure, RemoteFailure, statusFailure } from './remote-failure.js';
import type { RemoteIdentity } from './remote-identity.js';

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
  readonly Body?: { transformToByteArray(): Promise<Uint8Array> };
}

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
  if (name === 'SlowDown') return statusFailure(429, url, null);
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

/** Bytes [from, to) of the version `identity` names; a store that ignores If-Match is caught by the ETag it sends. */
export async function s3Range(url: string, identity: RemoteIdentity, from: number, to: number): Promise<Uint8Array> {
  const ifMatch = identity.tag ? { IfMatch: identity.tag } : {};
  const input = { ...location(url), Range: `bytes=${from}-${to - 1}`, ...ifMatch };
  const got = await send(url, (sdk) => new sdk.GetObjectCommand(input));
  if (identity.tag && got.ETag && got.ETag !== identity.tag) throw statusFailure(412, url, null);
  let bytes: Uint8Array;
  try {
    bytes = (await got.Body?.transformToByteArray()) ?? new Uint8Array(0);
  } catch (error) {
    throw lostFailure(error, url);
  }
  if (bytes.length !== to - from) {
    const message = `${url} sent ${bytes.length} bytes for a range of ${to - from}`;
    throw new RemoteFailure(failure(ErrorCode.RemoteUnavailable, message, { url }), true);
  }
  return bytes;
}
