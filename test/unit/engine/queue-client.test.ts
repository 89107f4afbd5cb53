import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ExitCode } from '../../../src/contract/exit-code.js';
import { StintError } from '../../../src/contract/stint-error.js';
import { loadQueueModule, QUEUE_INSTALL, QUEUE_PACKAGES } from '../../../src/engine/queue/queue-client.js';
import { REPO_ROOT } from '../../helpers/paths.js';
import { tempWorld } from '../../helpers/temp-world.js';

// Modules in a folder outside the repository, with no node_modules above it: Node's own import errors, as a user
// without bullmq or ioredis meets them.
const world = tempWorld('queue-client');

function moduleOf(name: string, text: string): () => Promise<unknown> {
  const path = join(world.dir, `${name}.mjs`);
  writeFileSync(path, text);
  return () => import(pathToFileURL(path).href);
}

async function failure(load: () => Promise<unknown>): Promise<unknown> {
  try {
    await loadQueueModule(load);
  } catch (error) {
    return error;
  }
  return assert.fail('the load did not fail');
}

test('bullmq or ioredis not installed: QUEUE_CLIENT_MISSING (4) naming what to install', async () => {
  for (const missing of ['bullmq', 'ioredis']) {
    const error = await failure(moduleOf(`needs-${missing}`, `import '${missing}';\nexport const x = 1;\n`));
    assert.ok(error instanceof StintError, String(error));
    assert.equal(error.code, 'QUEUE_CLIENT_MISSING');
    assert.equal(error.exitCode, ExitCode.PRECONDITION);
    assert.match(error.message, /npm install bullmq ioredis/);
    assert.match(error.message, new RegExp(`${missing} is missing`));
    assert.equal(error.extras.retryable, false);
    assert.deepEqual(error.extras.context, { missing, install: 'npm install bullmq@^6.7.0 ioredis@^6.0.0' });
    assert.match(error.extras.suggestion ?? '', /npm install bullmq@\^6\.7\.0 ioredis@\^6\.0\.0/);
  }
});

test('any other failure of the load is not masked: the error itself comes out', async () => {
  const others = {
    'another package missing': moduleOf('needs-other', "import 'cron-parser-not-installed';\n"),
    'a file missing inside': moduleOf('needs-file', "import './bullmq/absent.mjs';\n"),
    'an error while it runs': moduleOf('throws', "throw new TypeError('bullmq broke');\n"),
  };
  for (const [why, load] of Object.entries(others)) {
    const direct = await load().then(() => assert.fail(`${why}: loaded`), (error: unknown) => error);
    const error = await failure(load);
    assert.ok(!(error instanceof StintError), `${why}: ${String(error)}`);
    assert.equal((error as Error).message, (direct as Error).message, why);
  }
});

test('a module that loads is answered as it is', async () => {
  const loaded = await loadQueueModule(moduleOf('fine', 'export const answer = 42;\n'));
  assert.equal((loaded as { answer: number }).answer, 42);
});

test('the ranges named are package.json\'s: optional peers, kept for the repository\'s own tests', () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  for (const name of Object.keys(QUEUE_PACKAGES)) {
    assert.equal(pkg['peerDependencies']?.[name], QUEUE_PACKAGES[name as keyof typeof QUEUE_PACKAGES], name);
    assert.deepEqual(pkg['peerDependenciesMeta']?.[name], { optional: true }, name);
    assert.equal(pkg['devDependencies']?.[name], QUEUE_PACKAGES[name as keyof typeof QUEUE_PACKAGES], name);
    assert.equal(pkg['dependencies']?.[name], undefined, `${name} is not installed with every install`);
  }
  assert.equal(QUEUE_INSTALL, 'npm install bullmq@^6.7.0 ioredis@^6.0.0');
});
