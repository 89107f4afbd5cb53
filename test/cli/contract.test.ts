import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { runCli, runJson, envelopeOf, cleanEnv } from '../helpers/run-cli.js';
import { assertManifest } from '../helpers/schemas.js';
import { assertIncompleteSchema, assertOutputSchema, compileOutputSchema } from '../helpers/output-schemas.js';
import { tempWorld } from '../helpers/temp-world.js';
import { STINT_BIN, programPath } from '../helpers/paths.js';

const demo = { program: programPath('demo-tool') };

describe('stint manifest', () => {
  test('exits 0 with one envelope whose data is a valid ManifestResponse', async () => {
    const { envelope } = await runJson(['manifest']);
    assert.equal(envelope.meta.exit_code, 0);
    assertManifest(envelope.data);
    const commands = envelope.data!['commands'] as Record<string, Record<string, unknown>>;
    assert.equal(commands['manifest']!['builtin'], true);
  });

  test('every command describes its data with a draft-07 output_schema that compiles', async () => {
    const { envelope } = await runJson(['manifest']);
    const commands = envelope.data!['commands'] as Record<string, { output_schema?: Record<string, unknown> }>;
    for (const [id, entry] of Object.entries(commands)) {
      assert.ok(entry.output_schema, `${id} has an output_schema`);
      assert.equal(entry.output_schema['$schema'], 'http://json-schema.org/draft-07/schema#', id);
      assert.equal(typeof entry.output_schema['description'], 'string', `${id} says what its data is`);
      compileOutputSchema(entry.output_schema);
    }
  });

  test('the output schemas refuse data of another shape: a sum as a string, a field they do not name', async () => {
    const csv = tempWorld('schema').path('n.csv');
    writeFileSync(csv, 'n\n1\n2\n');
    const { run, envelope } = await runJson(['analyze', csv]);
    const program = run.program!;
    type Files = { a: { columns: Record<string, unknown>[] } }[];
    const column = () => (envelope.data!['established'] as Files)[0]!.a.columns[0]!;
    const original = column()['sum'];
    column()['sum'] = String(original);
    assert.throws(() => assertOutputSchema(envelope, program, run.env!), /sum.*must be number/s);
    column()['sum'] = original;
    column()['median'] = 1.5;
    assert.throws(() => assertOutputSchema(envelope, program, run.env!), /must NOT have additional properties/);
    delete column()['median'];
    assertOutputSchema(envelope, program, run.env!);
  });

  test('every INCOMPLETE answer follows INCOMPLETE_SCHEMA; it refuses one without continue_command', async () => {
    const csv = tempWorld('schema-14').path('big.csv');
    writeFileSync(csv, `n\n${Array.from({ length: 200_000 }, (_, i) => i).join('\n')}\n`);
    const { run, envelope } = await runJson(['analyze', csv, '--budget', '1ms', '--chunk-size', '64KiB']);
    assert.equal(run.code, 14, run.stdout);
    assertIncompleteSchema(envelope);
    const data = envelope.data!;
    const line = data['continue_command'];
    delete data['continue_command'];
    assert.throws(() => assertIncompleteSchema(envelope), /must have required property 'continue_command'/);
    Object.assign(data, { continue_command: line, state: 'done' });
    assert.throws(() => assertIncompleteSchema(envelope), /state.*must be equal to one of the allowed values/s);
  });

  test('an unchanged etag answers not_modified with null data', async () => {
    const first = (await runJson(['manifest'])).envelope.data!['etag'] as string;
    assert.match(first, /^sha256:[0-9a-f]{64}$/);
    const { envelope } = await runJson(['manifest', '--etag', first]);
    assert.equal(envelope.data, null);
    assert.equal(envelope.meta['not_modified'], true);
    const stale = await runJson(['manifest', '--etag', 'sha256:old']);
    assert.equal(stale.envelope.data!['etag'], first);
  });

  test('a program built on stint lists its own commands with framework flags and the 14 entry', async () => {
    const { envelope } = await runJson(['manifest'], demo);
    assertManifest(envelope.data);
    const commands = envelope.data!['commands'] as Record<string, { flags: Record<string, unknown>; exit_codes: Record<string, { retryable: boolean; side_effects: string }>; interruption?: unknown; builtin?: boolean }>;
    assert.deepEqual(Object.keys(commands).sort(), ['crash', 'echo', 'group.needs', 'job.cancel', 'job.list', 'job.logs', 'job.prune', 'job.status', 'job.wait', 'job.watch', 'manifest', 'missing', 'put', 'undeclared', 'worker', 'worker.list']);
    for (const id of ['job.cancel', 'job.list', 'job.logs', 'job.prune', 'job.status', 'job.wait', 'job.watch', 'manifest', 'worker', 'worker.list']) assert.equal(commands[id]!.builtin, true, id);
    const put = commands['put']!;
    assert.deepEqual(Object.keys(put.flags).sort(), ['budget', 'heartbeat-ms', 'idempotency-key', 'queue', 'timeout']);
    assert.deepEqual(put.exit_codes['14'], { name: 'INCOMPLETE', description: 'Paused at a checkpoint', retryable: false, side_effects: 'partial' });
    assert.deepEqual(put.interruption, { detach: false, resume: true, idle_timeout_ms: 5000 });
    assert.equal(commands['echo']!.builtin, undefined, 'application commands never carry builtin');
    assert.ok(!('budget' in commands['echo']!.flags), 'a non-interruptible command has no --budget');
    const root = envelope.data!['flags'] as Record<string, unknown>;
    assert.deepEqual(Object.keys(root).sort(), ['format', 'help', 'version']);
  });
});

describe('help and version', () => {
  test('--version answers an envelope with name and version', async () => {
    const { envelope } = await runJson(['--version']);
    assert.deepEqual(envelope.data, { name: 'stint', version: '0.1.0' });
    const other = await runJson(['--version'], demo);
    assert.deepEqual(other.envelope.data, { name: 'demo-tool', version: '2.3.4' });
  });

  test('--version in text format prints the name and version only', async () => {
    const run = await runCli(['--version', '--format', 'text']);
    assert.equal(run.code, 0);
    assert.equal(run.stdout, 'stint 0.1.0\n');
  });

  for (const args of [['--help'], ['-h'], ['manifest', '--help'], ['--help', 'manifest'], ['group', '--help']]) {
    test(`${args.join(' ')} (piped): help on stderr, a help envelope on stdout, exit 0`, async () => {
      const { run, envelope } = await runJson(args, demo);
      assert.equal(run.code, 0);
      assert.equal(envelope.meta['help'], true);
      assert.match(run.stderr, /Usage: demo-tool/);
    });
  }

  test('command help lists arguments, flags with types, and exit codes', async () => {
    const run = await runCli(['echo', '--help', '--format', 'text'], demo);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /Usage: demo-tool echo <word> \[rest\.\.\.\] \[flags\]/);
    assert.match(run.stdout, /--count <integer>/);
    assert.match(run.stdout, /--mode fast\|slow .*default: fast/);
    assert.match(run.stdout, /-l, --loud/);
    assert.match(run.stdout, /0 SUCCESS/);
    assert.equal(run.stderr, '');
  });
});

describe('argument errors exit 2 with ARG_ERROR in the validation phase', () => {
  const cases: { name: string; args: string[]; reason: string; suggestion?: string }[] = [
    { name: 'unknown command', args: ['ech', 'x'], reason: 'unknown_command', suggestion: 'echo' },
    { name: 'unknown subcommand', args: ['group', 'neds'], reason: 'unknown_command', suggestion: 'group needs' },
    { name: 'no command', args: [], reason: 'missing_command' },
    { name: 'group without subcommand', args: ['group'], reason: 'missing_command' },
    { name: 'unknown flag', args: ['echo', 'x', '--cout', '3'], reason: 'unknown_flag', suggestion: '--count' },
    { name: 'flag without value at the end', args: ['echo', 'x', '--count'], reason: 'missing_value' },
    { name: 'flag followed by another flag', args: ['echo', 'x', '--count', '--loud'], reason: 'missing_value' },
    { name: 'malformed integer', args: ['echo', 'x', '--count', 'three'], reason: 'malformed_value' },
    { name: 'integer below its minimum', args: ['echo', 'x', '--count', '-1'], reason: 'malformed_value' },
    { name: 'malformed number', args: ['echo', 'x', '--ratio', '1.2.3'], reason: 'malformed_value' },
    { name: 'malformed duration', args: ['echo', 'x', '--wait', '5 days'], reason: 'malformed_value' },
    { name: 'enum value off the list', args: ['echo', 'x', '--mode', 'fsat'], reason: 'malformed_value', suggestion: 'fast' },
    { name: 'boolean given a value', args: ['echo', 'x', '--loud=yes'], reason: 'malformed_value' },
    { name: 'missing positional', args: ['echo'], reason: 'missing_argument' },
    { name: 'missing required flag', args: ['group', 'needs'], reason: 'missing_flag' },
    { name: 'extra positional', args: ['manifest', 'extra'], reason: 'unexpected_argument' },
    { name: 'malformed --format', args: ['manifest', '--format', 'xml'], reason: 'malformed_value' },
    { name: '--format twice with different values', args: ['--format', 'json', 'manifest', '--format', 'text'], reason: 'conflicting_value' },
    { name: 'malformed --budget', args: ['put', '--budget', 'soon'], reason: 'malformed_value' },
    { name: 'malformed AGENT_CALL_BUDGET_MS', args: ['put'], reason: 'malformed_value' },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      const env = c.name.includes('AGENT_CALL_BUDGET_MS') ? { AGENT_CALL_BUDGET_MS: '2 seconds' } : {};
      const { run, envelope } = await runJson(c.args, { ...demo, env });
      assert.equal(run.code, 2);
      const error = envelope.error!;
      assert.equal(error.code, 'ARG_ERROR');
      assert.equal(error.phase, 'validation');
      assert.equal(error.retryable, false);
      assert.ok(error.fix_required);
      assert.equal(envelope.data, null);
      const reasons = (error.errors ?? []).map((e) => e.reason);
      assert.ok(reasons.includes(c.reason), `reasons ${reasons.join(', ')} should include ${c.reason}`);
      if (c.suggestion) assert.ok((error.errors ?? []).some((e) => e.suggestion === c.suggestion), `suggests ${c.suggestion}`);
    });
  }

  test('every problem is reported at once', async () => {
    const { envelope } = await runJson(['echo', '--count', 'x', '--wait', 'y', '--nope'], demo);
    const reasons = (envelope.error!.errors ?? []).map((e) => e.reason).sort();
    assert.deepEqual(reasons, ['malformed_value', 'malformed_value', 'missing_argument', 'unknown_flag']);
  });
});

describe('values and formats', () => {
  test('typed flags and positionals reach the handler converted', async () => {
    const { envelope } = await runJson(['--format', 'json', 'echo', 'a', 'b', 'c', '--count', '3', '--ratio', '-0.5', '--wait', '2m', '-l'], demo);
    assert.deepEqual(envelope.data, {
      flags: { count: 3, ratio: -0.5, wait: 120000, mode: 'fast', loud: true },
      positionals: { word: 'a', rest: ['b', 'c'] },
    });
  });

  for (const [text, ms] of [['250', 250], ['250ms', 250], ['5s', 5000], ['2m', 120000], ['1h', 3600000]] as const) {
    test(`duration ${text} is ${ms} ms`, async () => {
      const { envelope } = await runJson(['echo', 'x', '--wait', text], demo);
      assert.equal((envelope.data!['flags'] as Record<string, unknown>)['wait'], ms);
    });
  }

  test('--format text writes readable text and no JSON', async () => {
    const run = await runCli(['echo', 'hello', '--format', 'text'], demo);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /word: hello/);
    assert.throws(() => JSON.parse(run.stdout));
  });

  test('an error in text format goes to stderr, plain when piped', async () => {
    const run = await runCli(['ech', '--format', 'text'], demo);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /error \[ARG_ERROR, exit 2\]/);
    assert.ok(!/\u001b\[/.test(run.stderr), 'no ANSI on a pipe');
  });
});

describe('failures inside handlers', () => {
  test('an uncaught error is GENERAL_ERROR with INTERNAL_ERROR and no stack on stdout', async () => {
    const { run, envelope } = await runJson(['crash'], demo);
    assert.equal(run.code, 1);
    assert.equal(envelope.error!.code, 'INTERNAL_ERROR');
    assert.equal(envelope.error!.message, 'boom: the handler failed');
    assert.ok(!run.stdout.includes('at a stack line'));
    assert.ok(!run.stderr.includes('at a stack line'), 'no stack on stderr unless asked');
  });

  test('STINT_DEBUG=1 puts the stack of a defect on stderr, never on stdout', async () => {
    const { run, envelope } = await runJson(['crash'], { ...demo, env: { STINT_DEBUG: '1' } });
    assert.equal(envelope.error!.code, 'INTERNAL_ERROR');
    assert.match(run.stderr, /at a stack line/);
    assert.ok(!run.stdout.includes('at a stack line'));
  });

  test('a coded error keeps its code and exit code', async () => {
    const { run, envelope } = await runJson(['missing'], demo);
    assert.equal(run.code, 5);
    assert.equal(envelope.error!.code, 'FILE_NOT_FOUND');
    assert.deepEqual(envelope.error!.context, { path: '/nowhere' });
  });

  test('an undeclared exit code is refused as UNDECLARED_EXIT_CODE', async () => {
    const { run, envelope } = await runJson(['undeclared'], demo);
    assert.equal(run.code, 1);
    assert.equal(envelope.error!.code, 'UNDECLARED_EXIT_CODE');
    assert.equal((envelope.error!.context as Record<string, unknown>)['attempted_exit_code'], 6);
  });
});

describe('registration refusals', () => {
  const cases: [string, string][] = [
    ['neither-detach-nor-resume', 'interruption'],
    ['interruption-without-incomplete', 'exitCodes.14'],
    ['resumable-writer-without-key', 'interruption.resume'],
    ['exit-code-outside-table', 'exitCodes.99'],
    // Refused while the command's module loads, inside runCli's factory: still one envelope.
    ['refused-as-its-module-loads', 'interruption'],
  ];
  for (const [name, field] of cases) {
    test(`${name} is refused naming ${field}`, async () => {
      const { run, envelope } = await runJson(['work'], { program: programPath('refused-tool'), env: { REFUSE_CASE: name } });
      assert.equal(run.code, 1);
      assert.equal(envelope.error!.code, 'REGISTRATION_REFUSED');
      assert.equal((envelope.error!.context as Record<string, unknown>)['field'], field);
      assert.ok(envelope.error!.message.includes(field));
    });
  }
});

describe('framework options', () => {
  test('a writer gets --idempotency-key; budget and timeout are resolved into meta', async () => {
    const { envelope } = await runJson(['put', '--idempotency-key', 'k1', '--budget', '5s', '--timeout', '1m'], { ...demo, env: { AGENT_CALL_BUDGET_MS: '2000' } });
    assert.deepEqual(envelope.data!['options'], { budgetMs: 5000, timeoutMs: 60000, idempotencyKey: 'k1', idempotencyKeyGiven: true, format: 'json' });
    assert.equal(envelope.meta.budget_ms, 5000);
    assert.equal(envelope.meta.timeout_ms, 60000);
  });

  test('AGENT_CALL_BUDGET_MS applies without --budget; neither gives 30000', async () => {
    const withEnv = await runJson(['put'], { ...demo, env: { AGENT_CALL_BUDGET_MS: '2000' } });
    assert.equal(withEnv.envelope.meta.budget_ms, 2000);
    const neither = await runJson(['put'], demo);
    assert.equal(neither.envelope.meta.budget_ms, 30000);
    assert.equal(neither.envelope.meta.timeout_ms, 3600000);
  });

  test('a non-interruptible command ignores AGENT_CALL_BUDGET_MS and has no budget_ms', async () => {
    const { envelope } = await runJson(['echo', 'x'], { ...demo, env: { AGENT_CALL_BUDGET_MS: 'not-even-a-number' } });
    assert.equal(envelope.meta.budget_ms, undefined);
  });
});

describe('streams', () => {
  test('a stdin pipe that stays open and unwritten hangs no command', async () => {
    // runCli leaves stdin open by default; each of these must still end.
    for (const args of [['manifest'], ['--version'], ['--help'], ['nope']]) {
      const run = await runCli(args, { killAfterMs: 20_000 });
      assert.equal(run.signal, null, `${args.join(' ')} hung on stdin`);
      envelopeOf(run);
    }
  });

  test('a reader that closes stdout early ends the command quietly with exit 0', async () => {
    const child = spawn(process.execPath, [STINT_BIN, 'manifest'], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    assert.equal(code, 0);
    assert.equal(stderr, '');
  });
});

describe('terminals', () => {
  // `script` gives the command a real pseudo-terminal, as a person has.
  const inTerminal = (args: string, env: Record<string, string | undefined>): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = spawn('script', ['-qec', `${process.execPath} ${STINT_BIN} ${args}`, '/dev/null'], { env: cleanEnv({ TERM: 'xterm', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.on('error', reject);
      child.on('close', () => resolve(out));
    });

  test('a terminal gets text by default, colored errors, and no color under NO_COLOR', async () => {
    const colored = await inTerminal('manfest', {});
    assert.match(colored, /\u001b\[31m/, 'errors are red in a terminal');
    const plain = await inTerminal('manfest', { NO_COLOR: '1' });
    assert.match(plain, /error \[ARG_ERROR, exit 2\]/);
    assert.ok(!/\u001b\[/.test(plain), 'NO_COLOR removes every ANSI code');
    const text = await inTerminal('--version', {});
    assert.match(text, /^stint 0\.1\.0\r?\n/);
  });

  test('stdout sent to a file at a terminal: the envelope goes there, the error is also said on stderr', async () => {
    const { mkdtempSync, readFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const out = `${mkdtempSync(`${tmpdir()}/stint-redirect-`)}/out.json`;
    const seen = await inTerminal(`analyze /nowhere/nope.csv > ${out}`, { NO_COLOR: '1' });
    assert.match(seen, /error \[FILE_NOT_FOUND, exit 5\]/);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).error.code, 'FILE_NOT_FOUND');
    const success = await inTerminal(`--version --format json > ${out}`, {});
    assert.equal(success, '', 'a success says nothing more');
  });
});

describe('the guide\'s smallest program', () => {
  test('is the fixture the suite compiles, and it runs', async () => {
    const { readFileSync } = await import('node:fs');
    const { REPO_ROOT, fixturePath } = await import('../helpers/paths.js');
    const guide = readFileSync(`${REPO_ROOT}/docs/authoring.md`, 'utf8');
    const example = readFileSync(fixturePath('programs', 'hello.ts'), 'utf8');
    assert.ok(guide.includes(`\`\`\`ts\n${example}\`\`\``), 'the guide shows fixtures/programs/hello.ts verbatim');
    const { envelope } = await runJson(['greet', 'ada', '--times', '2'], { program: programPath('hello') });
    assert.deepEqual(envelope.data, { greeting: 'hello adahello ada' });
  });
});
