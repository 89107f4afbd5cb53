import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TOOL_VERSION } from '../../src/bin/version.js';
import { REPO_ROOT } from '../helpers/paths.js';

test('the compiled-in version equals package.json', () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  assert.equal(TOOL_VERSION, pkg.version);
});
