// A remote input: an object of an http:// or https:// server, or of S3 or a
// store that speaks its API (s3://bucket/key), read by byte range. What it is
// (its identity), and its reads, whichever store holds it.
import { answer, type Answer } from './remote-failure.js';
import { httpProbe, httpRange } from './remote-http.js';
import { s3Probe, s3Range } from './remote-s3.js';
import { isS3Url as isS3 } from './remote-url.js';
import type { RemoteIdentity } from './remote-identity.js';
import type { BodyBuffer } from './http-answer.js';


/** What the object is now, asked of its store (retried while another attempt may pass). */
export const probeObject = (url: string): Promise<Answer<RemoteIdentity>> =>
  answer(() => (isS3(url) ? s3Probe(url) : httpProbe(url)));

/**
 * Bytes [from, to) of the object's version `identity` (retried while another attempt may pass), read into memory
 * `buffer` gives.
 */
export const readObjectRange = (url: string, identity: RemoteIdentity, from: number, to: number, buffer?: BodyBuffer) =>
  answer(() => (isS3(url) ? s3Range(url, identity, from, to, buffer) : httpRange(url, identity, from, to, buffer)));
