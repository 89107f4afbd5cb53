import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode } from '../../src/contract/error-code.js';
import { WarningCode } from '../../src/contract/warning-code.js';
import { StintCode, StintWarning } from '../../src/commands/stint-codes.js';
import { ExitCode } from '../../src/contract/exit-code.js';
import { REPO_ROOT } from '../helpers/paths.js';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

test('the README names every error and warning code, the framework\'s and stint\'s own', () => {
  const codes = [...Object.values(ErrorCode), ...Object.values(WarningCode), ...Object.values(StintCode), ...Object.values(StintWarning)];
  assert.ok(codes.includes(StintCode.NotCsv), 'stint\'s own codes are read too');
  const missing = codes.filter((code) => !readme.includes(`\`${code}\``));
  assert.deepEqual(missing, []);
});

test('the README lists every exit code by name', () => {
  for (const [name, code] of Object.entries(ExitCode)) assert.match(readme, new RegExp(`\\|\\s*${code}\\s*\\|\\s*\`${name}\``), name);
});
