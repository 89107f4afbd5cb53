// An http:// or https:// object read by byte range (remote-object.ts says which store a URL names): what the
// object is (size and ETag, from a one-byte range), then each range asked for, with If-Match so that bytes of
// another version are never read as this one's.
import { ErrorCode } from '../../contract/error-code.js';
import { SecretEnv } from '../../contract/vocabulary/secret-env.js';
import { failure, lostFailure, RemoteFailure, statusFailure } from './remote-failure.js';
import type { RemoteIdentity } from './remote-identity.js';
import { shownUrl } from './remote-url.js';
import { httpGet } from './http-get.js';
import type { BodyBuffer, HttpAnswer } from './http-answer.js';

/** A server that sends nothing for this long is taken as gone (and retried). */
export const REQUEST_TIMEOUT_MS = 60_000;

/** GET with `headers`, a user and password in the URL moved into Basic authorization; a lost request retries. */
async function get(url: string, headers: Record<string, string>, buffer?: BodyBuffer): Promise<HttpAnswer> {
  const parsed = new URL(url);
  const all: Record<string, string> = { ...headers };
  if (parsed.username || parsed.password) {
    // A continued call's URL has no password (argv-secrets.ts): the caller's environment holds it.
    const password = parsed.password ? decodeURIComponent(parsed.password) : process.env[SecretEnv.Http] ?? '';
    const user = `${decodeURIComponent(parsed.username)}:${password}`;
    all['authorization'] = `Basic ${Buffer.from(user).toString('base64')}`;
    parsed.username = '';
    parsed.password = '';
  }
  try {
    return await httpGet(parsed.href, all, REQUEST_TIMEOUT_MS, buffer);
  } catch (error) {
    throw lostFailure(error, url);
  }
}

/** The object's total size from a Content-Range header: the number after its slash. */
function totalOf(contentRange: string | undefined): number | undefined {
  const match = /\/(\d+)\s*$/.exec(contentRange ?? '');
  return match ? Number(match[1]) : undefined;
}

const rangesUnsupported = (url: string) => new RemoteFailure(failure(ErrorCode.RangesUnsupported,
  `the server of ${shownUrl(url)} does not answer byte ranges, which stint reads its chunks by`,
  { url: shownUrl(url) }), false);

/** What the object is, by asking for its first byte: this also proves the server answers ranges. */
export async function httpProbe(url: string): Promise<RemoteIdentity> {
  const response = await get(url, { range: 'bytes=0-0' });
  const size = totalOf(response.header('content-range'));
  // An empty object has no first byte: 416, with its size (0) in Content-Range.
  if ((response.status !== 206 && response.status !== 416) || size === undefined) {
    if (response.status >= 200 && response.status < 300) throw rangesUnsupported(url);
    throw statusFailure(response.status, url, response.header('retry-after') ?? null);
  }
  const tag = response.header('etag');
  const lastModified = response.header('last-modified');
  return { size, ...(tag ? { tag } : {}), ...(lastModified ? { lastModified } : {}) };
}

/**
 * Bytes [from, to) of the version named `identity` (read into `buffer`'s memory); a server that ignores If-Match
 * is caught by the ETag it sends.
 */
export async function httpRange(
  url: string, identity: RemoteIdentity, from: number, to: number, buffer?: BodyBuffer,
): Promise<Uint8Array> {
  const headers: Record<string, string> = { range: `bytes=${from}-${to - 1}` };
  if (identity.tag) headers['if-match'] = identity.tag;
  else if (identity.lastModified) headers['if-unmodified-since'] = identity.lastModified;
  const response = await get(url, headers, buffer);
  if (response.status === 200) throw rangesUnsupported(url);
  if (response.status !== 206) throw statusFailure(response.status, url, response.header('retry-after') ?? null);
  const tag = response.header('etag');
  if (identity.tag && tag && tag !== identity.tag) throw statusFailure(412, url, null);
  if (response.body.length !== to - from) {
    const message = `${shownUrl(url)} sent ${response.body.length} bytes for a range of ${to - from}`;
    throw new RemoteFailure(failure(ErrorCode.RemoteUnavailable, message, { url: shownUrl(url) }), true);
  }
  return response.body;
}

