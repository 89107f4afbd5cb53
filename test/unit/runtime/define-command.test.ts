import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineCommand, registerCommand } from '../../../src/runtime/authoring/define-command.js';
import { ExitCode } from '../../../src/contract/exit-code.js';
import type { CommandSpec } from '../../../src/runtime/authoring/command-spec.js';

const ok = { description: 'Done', retryable: false, sideEffects: 'complete' } as const;
const base = (over: Partial<CommandSpec>): CommandSpec => ({
  name: 'work', description: 'x', dangerLevel: 'safe', exitCodes: { [ExitCode.SUCCESS]: ok }, run: async () => ({ exitCode: ExitCode.SUCCESS }), ...over,
});

function refusedField(spec: CommandSpec): unknown {
  try {
    defineCommand(spec);
  } catch (error) {
    const e = error as { code: string; extras: { context: { field: string } } };
    assert.equal(e.code, 'REGISTRATION_REFUSED');
    return e.extras.context.field;
  }
  assert.fail('registration was not refused');
}

test('each contradiction is refused naming its field', () => {
  const incompleteReader = { description: 'Not done', retryable: true, sideEffects: 'none' } as const;
  const incompleteWriter = { description: 'Paused', retryable: false, sideEffects: 'partial' } as const;
  assert.equal(refusedField(base({ interruption: { detach: false, resume: false }, exitCodes: { 0: ok, 14: incompleteReader } })), 'interruption');
  assert.equal(refusedField(base({ interruption: { detach: true, resume: false } })), 'exitCodes.14');
  assert.equal(refusedField(base({ dangerLevel: 'mutating', idempotencyKey: false, interruption: { detach: false, resume: true }, exitCodes: { 0: ok, 14: incompleteWriter } })), 'interruption.resume');
  assert.equal(refusedField(base({ exitCodes: { 0: ok, 15: ok } as CommandSpec['exitCodes'] })), 'exitCodes.15');
  assert.equal(refusedField(base({ exitCodes: {} })), 'exitCodes.0');
  assert.equal(refusedField(base({ dangerLevel: 'mutating', interruption: { detach: false, resume: true }, exitCodes: { 0: ok, 14: incompleteReader } })), 'exitCodes.14');
  assert.equal(refusedField(base({ exitCodes: { 0: ok, 14: incompleteReader } })), 'exitCodes.14');
  assert.equal(refusedField(base({ exitCodes: { 0: ok, 11: { description: 'x', retryable: true, sideEffects: 'partial' } } })), 'exitCodes.11');
  assert.equal(refusedField(base({ exitCodes: { 0: ok, 3: { description: 'x', retryable: true, sideEffects: 'none' } } })), 'exitCodes.3');
  assert.equal(refusedField(base({ flags: { budget: { type: 'string', description: 'x' } } })), 'flags.budget');
  assert.equal(refusedField(base({ flags: { Bad_Name: { type: 'string', description: 'x' } } })), 'flags.Bad_Name');
  assert.equal(refusedField(base({ positionals: [{ name: 'a', type: 'string', description: 'a', variadic: true }, { name: 'b', type: 'string', description: 'b' }] })), 'positionals.0');
  assert.equal(refusedField(base({ interruption: { detach: true, resume: true, idleTimeoutMs: 10 }, exitCodes: { 0: ok, 14: incompleteReader } })), 'interruption.idleTimeoutMs');
  assert.equal(refusedField(base({ name: 'Bad Name' })), 'name');
  for (const short of ['h', 'V']) {
    assert.equal(refusedField(base({ flags: { x: { type: 'boolean', short, description: 'x' } } })), 'flags.x.short', `-${short} is the framework's`);
  }
});

test('the framework adds its flags and exit codes', () => {
  const registered = registerCommand(base({
    dangerLevel: 'mutating',
    interruption: { detach: false, resume: true },
    exitCodes: { 0: ok, 14: { description: 'Paused', retryable: false, sideEffects: 'partial' } },
  }), false);
  assert.deepEqual(Object.keys(registered.flags).sort(), ['budget', 'heartbeat-ms', 'idempotency-key', 'queue', 'timeout']);
  // 6: a repeated --idempotency-key with other arguments (IDEMPOTENCY_KEY_REUSED), answered by the framework;
  // 7 and 8: the Redis of --queue denies a command (PERMISSION_DENIED) or refuses the credentials (AUTH_REQUIRED).
  assert.deepEqual(Object.keys(registered.exitCodes).map(Number).sort((a, b) => a - b), [0, 1, 2, 4, 6, 7, 8, 10, 12, 14]);
  assert.deepEqual(registered.exitCodes[6]!.errorCodes, ['IDEMPOTENCY_KEY_REUSED']);
  assert.deepEqual(registered.exitCodes[8]!.errorCodes, ['AUTH_REQUIRED']);
  // 4: --queue without bullmq and ioredis installed, listed beside what the author lists under 4.
  assert.deepEqual(registered.exitCodes[4]!.errorCodes, ['QUEUE_CLIENT_MISSING']);
  const listed = registerCommand(base({
    dangerLevel: 'mutating',
    interruption: { detach: false, resume: true },
    exitCodes: { 0: ok, 4: { description: 'Bad row', retryable: false, sideEffects: 'none', errorCodes: ['ROW_BAD'] },
      14: { description: 'Paused', retryable: false, sideEffects: 'partial' } },
  }), false);
  assert.deepEqual(listed.exitCodes[4]!.errorCodes, ['ROW_BAD', 'QUEUE_CLIENT_MISSING']);
  assert.equal(listed.exitCodes[4]!.description, 'Bad row', 'the author\'s description stays');
  const own = registerCommand(base({
    dangerLevel: 'mutating', keyedReplay: false,
    interruption: { detach: false, resume: true },
    exitCodes: { 0: ok, 14: { description: 'Paused', retryable: false, sideEffects: 'partial' } },
  }), false);
  assert.equal(own.exitCodes[6], undefined, 'a command that answers its repeats itself declares its own 6');
});

test('an interruptible command whose work runs no chunks (interruption.chunks false) gets no --queue', () => {
  const registered = registerCommand(base({
    dangerLevel: 'mutating',
    interruption: { detach: false, resume: true, chunks: false },
    exitCodes: { 0: ok, 14: { description: 'Paused', retryable: false, sideEffects: 'partial' } },
  }), false);
  assert.deepEqual(Object.keys(registered.flags).sort(), ['budget', 'heartbeat-ms', 'idempotency-key', 'timeout']);
  assert.equal(registered.exitCodes[8], undefined, 'no --queue, no AUTH_REQUIRED');
  assert.equal(registered.exitCodes[4]!.errorCodes, undefined, 'no --queue, no QUEUE_CLIENT_MISSING');
});

test('a flag default that is not a value of its type is refused naming it (the handler gets it unparsed)', () => {
  const flag = (spec: Record<string, unknown>) => base({ flags: { x: { description: 'x', ...spec } as never } });
  const refused = [
    { type: 'duration', default: '5s' }, { type: 'integer', default: 'abc' }, { type: 'integer', default: 1.5 },
    { type: 'bytes', default: 10, min: 1024 }, { type: 'boolean', default: 'yes' },
    { type: 'enum', enumValues: ['a', 'b'], default: 'c' }, { type: 'string', default: 3 },
  ];
  for (const spec of refused) assert.equal(refusedField(flag(spec)), 'flags.x.default', JSON.stringify(spec));
  const accepted = [
    { type: 'duration', default: 5000 }, { type: 'number', default: 0.5 }, { type: 'bytes', default: 2048, min: 1024 },
    { type: 'boolean', default: false }, { type: 'enum', enumValues: ['a', 'b'], default: 'b' }, { type: 'string', default: 'x' },
  ];
  for (const spec of accepted) assert.doesNotThrow(() => defineCommand(flag(spec)), JSON.stringify(spec));
});

test('a streaming command cannot declare interruption nor accept --idempotency-key', () => {
  const incompleteReader = { description: 'Not done', retryable: true, sideEffects: 'none' } as const;
  const interruptible = { interruption: { detach: true, resume: true }, exitCodes: { 0: ok, 14: incompleteReader } };
  assert.equal(refusedField(base({ streaming: true, ...interruptible })), 'streaming');
  assert.equal(refusedField(base({ streaming: true, dangerLevel: 'mutating' })), 'streaming', 'a writer gets the key by default');
  assert.equal(refusedField(base({ streaming: true, dangerLevel: 'destructive', idempotencyKey: true })), 'streaming');
  assert.equal(refusedField(base({ streaming: true, streamsStdout: () => true })), 'streaming');
  assert.equal(refusedField(base({ streaming: 'yes' as never })), 'streaming');
  // The same declarations without the stream are fine, and so is a streaming writer that takes no key.
  assert.doesNotThrow(() => defineCommand(base(interruptible)));
  assert.doesNotThrow(() => defineCommand(base({ dangerLevel: 'mutating' })));
  const writer = registerCommand(base({ streaming: true, dangerLevel: 'mutating', idempotencyKey: false }), false);
  assert.deepEqual(Object.keys(writer.flags), ['no-stream'], 'the framework adds --no-stream, and no key');
  assert.equal(refusedField(base({ streaming: true, flags: { 'no-stream': { type: 'boolean', description: 'x' } } })), 'flags.no-stream');
});

test('confirm: only a writer with a boolean --dry-run asks first; the framework adds --yes and --non-interactive', () => {
  const dryRun = { 'dry-run': { type: 'boolean', description: 'Preview' } } as const;
  const asking = (over: Partial<CommandSpec>) => base({ dangerLevel: 'destructive', confirm: true, flags: dryRun, ...over });
  assert.equal(refusedField(asking({ dangerLevel: 'safe' })), 'confirm');
  assert.equal(refusedField(asking({ flags: {} })), 'confirm');
  assert.equal(refusedField(asking({ flags: { 'dry-run': { type: 'string', description: 'x' } } })), 'confirm');
  assert.equal(refusedField(asking({ stdin: { mode: 'lines' } })), 'confirm');
  const incompleteWriter = { description: 'Paused', retryable: false, sideEffects: 'partial' } as const;
  assert.equal(refusedField(asking({ interruption: { detach: false, resume: true }, exitCodes: { 0: ok, 14: incompleteWriter } })), 'confirm');
  for (const flag of ['yes', 'non-interactive']) {
    assert.equal(refusedField(asking({ flags: { ...dryRun, [flag]: { type: 'boolean', description: 'x' } } })), `flags.${flag}`);
  }
  const registered = registerCommand(asking({}), false);
  assert.deepEqual(Object.keys(registered.flags).sort(), ['dry-run', 'idempotency-key', 'non-interactive', 'yes']);
  assert.match(registered.exitCodes[ExitCode.ARG_ERROR]!.description, /CONFIRMATION_REQUIRED/);
  assert.deepEqual(Object.keys(registerCommand(base({}), false).flags), [], 'a command that does not ask gets neither flag');
});
