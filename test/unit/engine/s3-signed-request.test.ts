// The AWS SDK signs an S3 GET and stint takes it before it is sent (s3-signed-request.ts): the real SDK's client
// and command, whose endpoint nobody listens on (nothing is sent: a request that went out would fail the test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { signedRequest, type StackedCommand } from '../../../src/engine/worker/s3-signed-request.js';

const client = new S3Client({
  endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true, maxAttempts: 1,
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
});
const signed = (Key: string, extra: Record<string, string> = {}, by = client) => signedRequest(
  new GetObjectCommand({ Bucket: 'b', Key, ...extra }) as unknown as StackedCommand, (c) => by.send(c as never));

test('a GET the SDK signed: its URL and every signed header, Host aside (the connection writes it)', async () => {
  const got = await signed('dir/a b+c.csv', { Range: 'bytes=0-9', IfMatch: '"e1"' });
  assert.ok(got, 'the request is taken');
  assert.equal(got.href, 'http://127.0.0.1:9/b/dir/a%20b%2Bc.csv?x-id=GetObject');
  assert.match(got.headers['authorization'] ?? '', /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\//);
  assert.match(got.headers['authorization'] ?? '', /SignedHeaders=[^,]*host/);
  assert.equal(got.headers['range'], 'bytes=0-9');
  assert.equal(got.headers['if-match'], '"e1"');
  assert.ok(got.headers['x-amz-date'], 'the date signed');
  assert.equal(got.headers['host'], undefined);
  assert.ok(!got.href.includes('secret') && !JSON.stringify(got.headers).includes('secret'), 'no secret key');
});

test('a path a URL would rewrite (a dot segment) is left to the SDK to send', async () => {
  assert.equal(await signed('x/../y.csv'), undefined);
});

test('a failure before the request is signed (no credentials) is the SDK\'s own, passed on', async () => {
  const unsigned = new S3Client({
    endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true, maxAttempts: 1,
    credentials: async () => {
      throw new Error('no credentials here');
    },
  });
  await assert.rejects(signed('k.csv', {}, unsigned), /no credentials here/);
});
