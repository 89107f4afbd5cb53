// The remote bench's S3-compatible server: s3rver in the bench's process (test/helpers/s3-store.ts), holding the
// big file as one object uploaded through the AWS SDK.
import { readFileSync } from 'node:fs';
import { startS3Store } from '../test/helpers/s3-store.js';
import { home } from './suites.js';

export interface S3Object {
  /** s3://bucket/key */
  readonly url: string;
  /** What stint's S3 client needs to reach the server. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/** Starts s3rver and uploads `path` as `key`. */
export async function s3Object(path: string, key: string): Promise<S3Object> {
  const store = await startS3Store(home('s3rver'));
  try {
    await store.put(key, readFileSync(path));
  } catch (error) {
    await store.close();
    throw error;
  }
  return { url: store.urlOf(key), env: store.env, close: () => store.close() };
}
