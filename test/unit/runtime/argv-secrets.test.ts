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

test('no password, no variable; the first URL of a kind counts; a malformed escape is kept as written', () => {
  assert.deepEqual(secretEnvOf(['analyze', 'https://ann@host/a.csv', 'http://host/b.csv', '--queue', 'redis://h']), {});
  assert.deepEqual(secretEnvOf(['analyze', 'http://a:first@h/x.csv', 'http://b:second@h/y.csv']),
    { [SecretEnv.Http]: 'first' });
  assert.deepEqual(secretEnvOf(['analyze', 'http://a:%zz@h/x.csv']), { [SecretEnv.Http]: '%zz' });
  assert.deepEqual(secretEnvOf(['analyze', 'rediss://u:tls@h:6380/0']), { [SecretEnv.Queue]: 'tls' });
});
