// A real S3-compatible server (s3rver, from npm) on a free loopback port, its one bucket written through the
// AWS SDK: for the tests of s3:// inputs and for the remote bench.
import { rmSync } from 'node:fs';
import { SDK_NODE_NOTICE_OFF } from '../../src/engine/worker/remote-s3.js';

export interface S3Store {
  /** What stint's S3 client needs to reach the server (endpoint, credentials, region). */
  readonly env: Record<string, string>;
  /** s3://bucket/key of an object of the bucket. */
  urlOf(key: string): string;
  put(key: string, body: Uint8Array): Promise<void>;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

const BUCKET = 'stint-bucket';

/** Starts s3rver keeping its objects in `directory`, with one empty bucket. */
export async function startS3Store(directory: string): Promise<S3Store> {
  const { default: S3rver } = await import('s3rver');
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory,
    configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  const env = {
    AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
  };
  // This process's own client: the SDK's notice of the Node versions its later releases need is not under test.
  process.env[SDK_NODE_NOTICE_OFF] ??= 'true';
  const { S3Client, PutObjectCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ endpoint: env.AWS_ENDPOINT_URL, region: env.AWS_REGION, forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY } });
  return {
    env,
    urlOf: (key) => `s3://${BUCKET}/${key}`,
    put: async (key, body) => void await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body })),
    close: async () => {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
