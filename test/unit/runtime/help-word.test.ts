import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCommandTree } from '../../../src/runtime/cli/command-tree.js';
import { helpWordAsFlag } from '../../../src/runtime/cli/help-word.js';
import { registerCommand } from '../../../src/runtime/authoring/define-command.js';
import type { CommandSpec } from '../../../src/runtime/authoring/command-spec.js';
import { DangerLevel } from '../../../src/contract/vocabulary/danger-level.js';
import { ExitCode } from '../../../src/contract/exit-code.js';
import { SideEffects } from '../../../src/contract/vocabulary/side-effects.js';

const command = (name: string): CommandSpec => ({
  name,
  description: name,
  dangerLevel: DangerLevel.Safe,
  exitCodes: { [ExitCode.SUCCESS]: { description: 'Done', retryable: false, sideEffects: SideEffects.Complete } },
  run: async () => ({ exitCode: ExitCode.SUCCESS }),
});
const treeOf = (...names: string[]) => buildCommandTree(names.map((name) => registerCommand(command(name), false)));

test('a leading help word becomes --help, after any global flags', () => {
  const root = treeOf('job wait', 'analyze');
  assert.deepEqual(helpWordAsFlag(root, ['help']), ['--help']);
  assert.deepEqual(helpWordAsFlag(root, ['help', 'job', 'wait']), ['--help', 'job', 'wait']);
  const afterFormat = helpWordAsFlag(root, ['--format', 'json', 'help', 'analyze']);
  assert.deepEqual(afterFormat, ['--format', 'json', '--help', 'analyze']);
});

test('help anywhere else is an ordinary word, and a program that has a help command keeps it', () => {
  assert.deepEqual(helpWordAsFlag(treeOf('analyze'), ['analyze', 'help']), ['analyze', 'help']);
  assert.deepEqual(helpWordAsFlag(treeOf('help', 'analyze'), ['help', 'analyze']), ['help', 'analyze']);
});
