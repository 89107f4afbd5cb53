import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode } from '../../src/contract/error-code.js';
import { WarningCode } from '../../src/contract/warning-code.js';
import { StintCode, StintWarning } from '../../src/commands/stint-codes.js';
import { ExitCode } from '../../src/contract/exit-code.js';
import { REPO_ROOT } from '../helpers/paths.js';

// The codes' reference moved out of the README into docs/output-contract.md: the tables there must stay whole.
const doc = readFileSync(join(REPO_ROOT, 'docs', 'output-contract.md'), 'utf8');

test('the output contract names every error and warning code, the framework\'s and stint\'s own', () => {
  const codes = [...Object.values(ErrorCode), ...Object.values(WarningCode), ...Object.values(StintCode), ...Object.values(StintWarning)];
  assert.ok(codes.includes(StintCode.NotCsv), 'stint\'s own codes are read too');
  const missing = codes.filter((code) => !doc.includes(`\`${code}\``));
  assert.deepEqual(missing, []);
});

test('the output contract lists every exit code by name', () => {
  for (const [name, code] of Object.entries(ExitCode)) assert.match(doc, new RegExp(`\\|\\s*${code}\\s*\\|\\s*\`${name}\``), name);
});
