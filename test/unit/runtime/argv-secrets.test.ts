import { test } from 'node:test';
import assert from 'node:assert/strict';
import { argvWithoutSecrets, secretEnvOf } from '../../../src/runtime/jobs/argv-secrets.js';
import { SecretEnv } from '../../../src/contract/vocabulary/secret-env.js';

test('a job keeps its argv without passwords; the passwords go to the environment of the run it hands on', () => {
  const argv = ['analyze', 'https://ann:p%40ss@host/big.csv', '--queue=redis://:r3d1s@127.0.0.1:6379',
    '--budget', '1s'];
  assert.deepEqual(argvWithoutSecrets(argv),
    ['analyze', 'https://ann@host/big.csv', '--queue=redis://127.0.0.1:6379', '--budget', '1s']);
  assert.deepEqual(secretEnvOf(argv), { [SecretEnv.Http]: 'p@ss', [SecretEnv.Queue]: 'r3d1s' });
});

test('credentials are read as a URL parser reads them: the last @ of the host part ends them, any case', () => {
  const argv = ['analyze', 'http://u:p@ss@host/a@b.csv', 'HTTPS://U:Pw@Host/x.csv?v=1@2', 'rediss://u:tls@h:6380/0'];
  assert.deepEqual(argvWithoutSecrets(argv),
    ['analyze', 'http://u@host/a@b.csv', 'HTTPS://U@Host/x.csv?v=1@2', 'rediss://u@h:6380/0']);
  assert.equal(new URL('http://u:p@ss@host/a@b.csv').host, 'host', 'what a parser takes for the host');
  assert.deepEqual(secretEnvOf(['analyze', 'http://u:p@ss@host/a@b.csv']), { [SecretEnv.Http]: 'p@ss' });
  assert.deepEqual(secretEnvOf(['analyze', 'rediss://u:tls@h:6380/0']), { [SecretEnv.Queue]: 'tls' });
});

test('no variable unless every URL of its kind naming credentials has the same user, host and password', () => {
  assert.deepEqual(secretEnvOf(['analyze', 'https://ann@host/a.csv', 'http://host/b.csv', '--queue', 'redis://h']), {});
  assert.deepEqual(secretEnvOf(['analyze', 'http://a:one@h/x.csv', 'http://a:two@h/y.csv']), {});
  assert.deepEqual(secretEnvOf(['analyze', 'http://a:one@h/x.csv', 'http://b@other/y.csv']), {},
    'the password never goes to a host the call did not send it to');
  assert.deepEqual(secretEnvOf(['analyze', 'http://a:one@h/x.csv', 'http://a:one@H/y.csv', 'http://h/z.csv']),
    { [SecretEnv.Http]: 'one' });
  assert.deepEqual(secretEnvOf(['analyze', 'http://a:%zz@h/x.csv']), { [SecretEnv.Http]: '%zz' });
});
