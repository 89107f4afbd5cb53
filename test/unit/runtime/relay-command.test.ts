import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineCommand, registerCommand } from '../../../src/runtime/authoring/define-command.js';
import { ExitCode, SignalExitCode } from '../../../src/contract/exit-code.js';
import type { CommandSpec } from '../../../src/runtime/authoring/command-spec.js';

const ok = { description: 'Done', retryable: false, sideEffects: 'complete' } as const;
const pending = { description: 'Not done', retryable: true, sideEffects: 'none' } as const;
const relay = (over: Partial<CommandSpec> = {}): CommandSpec => ({
  name: 'relay', description: 'x', dangerLevel: 'safe', relay: true, exitCodes: { 0: ok, 14: pending },
  run: async () => ({ exitCode: ExitCode.SUCCESS }), ...over,
});

test('a relay may exit 14 without interruption, and passes on its callee\'s 130/143', () => {
  const registered = registerCommand(relay(), false);
  assert.ok(Object.hasOwn(registered.exitCodes, ExitCode.INCOMPLETE));
  for (const code of Object.values(SignalExitCode)) assert.ok(Object.hasOwn(registered.exitCodes, code), String(code));
  const plain = registerCommand(relay({ relay: false, exitCodes: { 0: ok } }), false);
  assert.ok(!Object.hasOwn(plain.exitCodes, SignalExitCode.SIGINT), 'only a relay relays a signal exit');
});

test('a relay does not declare interruption; a command that is no relay does not exit 14 without it', () => {
  const field = (spec: CommandSpec) => {
    try {
      defineCommand(spec);
    } catch (error) {
      return (error as { extras: { context: { field: string } } }).extras.context.field;
    }
    return assert.fail('registration was not refused');
  };
  assert.equal(field(relay({ interruption: { detach: true, resume: true } })), 'relay');
  assert.equal(field(relay({ relay: false })), 'exitCodes.14');
});
