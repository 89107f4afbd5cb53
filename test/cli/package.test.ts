import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { envelopeOf, runJson, runShell } from '../helpers/run-cli.js';
import { REPO_ROOT, fixturePath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

// The package as a user meets it: packed, installed from the tarball into a
// folder of its own (outside the repository), and used by a program there.
const world = tempWorld('package');
const run = promisify(execFile);
const GUARD_MS = 180_000;

/** npm's settings for the repository (its prefix, its package) must not follow into a user's folder. */
function userNpmEnv(): NodeJS.ProcessEnv {
  const inherited = /^(npm_package_|npm_lifecycle_|npm_command$|npm_config_(local_|global_)?prefix$|INIT_CWD$)/i;
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !inherited.test(key)));
}

async function npm(args: readonly string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', [...args], { cwd, env: userNpmEnv(), timeout: GUARD_MS, maxBuffer: 64 << 20 });
  return stdout;
}

/** The tarball of the built tree; `npm test` has just built it, and a build here would race the other tests. */
async function pack(): Promise<string> {
  const out = world.path('pack');
  mkdirSync(out);
  const [packed] = JSON.parse(await npm(['pack', '--ignore-scripts', '--json', '--pack-destination', out], REPO_ROOT));
  return join(out, (packed as { filename: string }).filename);
}

async function install(tarball: string): Promise<string> {
  const home = world.path('user');
  mkdirSync(home);
  const manifest = { name: 'tally', version: '2.0.0', private: true, type: 'module' };
  writeFileSync(join(home, 'package.json'), JSON.stringify(manifest));
  await npm(['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], home);
  return home;
}

/**
 * The third party's TypeScript program, built in its own folder against the installed package's entry
 * points, as its author would: the repository lends only its compiler and Node's type declarations.
 */
async function buildProgram(home: string): Promise<string> {
  for (const file of ['tally.ts', 'tally-map.ts']) copyFileSync(fixturePath('packaged', file), join(home, file));
  const compilerOptions = {
    target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, rootDir: '.', outDir: 'dist',
    typeRoots: [join(REPO_ROOT, 'node_modules', '@types')], types: ['node'],
  };
  writeFileSync(join(home, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['tally.ts', 'tally-map.ts'] }));
  const tsc = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  await run(process.execPath, [tsc, '-p', home], { cwd: home, timeout: GUARD_MS });
  const program = join(home, 'dist', 'tally.js');
  chmodSync(program, 0o755);
  return program;
}

/** Lines of varied length; the expected count is known without the program. */
function writeInput(path: string): { lines: number; bytes: number; sum: number } {
  const text = Array.from({ length: 40_000 }, (_, i) => `row ${i} ${'x'.repeat(i % 90)}\n`).join('');
  const bytes = Buffer.from(text, 'latin1');
  writeFileSync(path, bytes);
  return { lines: 40_000, bytes: bytes.length, sum: bytes.reduce((total, byte) => total + byte, 0) };
}

let tarball: string;
let home: string;

test('the tarball holds the library, its bin and WebAssembly, and no tests, fixtures or benchmarks', async () => {
  tarball = await pack();
  const { stdout } = await run('tar', ['-tzf', tarball], { timeout: GUARD_MS });
  const files = stdout.trim().split('\n');
  // `stint bench` is a command the package ships (its code is under commands/bench); the benchmarks are not.
  const command = 'package/build/src/commands/bench/';
  const unwanted = files.filter((file) => !file.startsWith(command)
    && /(^|\/)(test|tests|fixtures|bench)(\/|$)|\.test\.js$/.test(file));
  assert.deepEqual(unwanted, []);
  const needs = ['build/src/index.js', 'build/src/index.d.ts', 'build/src/worker.js', 'build/src/client/index.js',
    'build/src/contract/index.js', 'build/src/bin/stint.js', 'README.md', 'LICENSE',
    'build/src/commands/analyze/map/wasm/csv-scan.wasm', 'build/src/engine/worker/wasm/csv-fields.wasm',
    'build/src/commands/import/map/wasm/parquet-columns.wasm'];
  for (const needed of needs) {
    assert.ok(files.includes(`package/${needed}`), `the tarball holds ${needed}`);
  }
});

test('installed from the tarball, stint analyzes a file with its packed WebAssembly', async () => {
  home = await install(tarball);
  writeFileSync(join(home, 'small.csv'), 'city,people\nOslo,709000\nBergen,291000\n');
  const bin = join(home, 'node_modules', 'stint', 'build', 'src', 'bin', 'stint.js');
  const { envelope } = await runJson(['analyze', 'small.csv', '--budget', '0'],
    { program: bin, cwd: home, env: { STINT_HOME: world.path('h0') }, killAfterMs: GUARD_MS });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
});

test('installed without bullmq and ioredis (optional peers), --queue and worker say what to install', async () => {
  for (const name of ['bullmq', 'ioredis']) {
    assert.equal(existsSync(join(home, 'node_modules', name)), false, `${name} is not installed with the package`);
  }
  const bin = join(home, 'node_modules', 'stint', 'build', 'src', 'bin', 'stint.js');
  const url = 'redis://127.0.0.1:1';
  const calls = [['analyze', 'small.csv', '--budget', '0', '--queue', url], ['worker', '--queue', url],
    ['worker', 'list', '--queue', url]];
  for (const [index, args] of calls.entries()) {
    const { envelope } = await runJson(args,
      { program: bin, cwd: home, env: { STINT_HOME: world.path(`q${index}`) }, killAfterMs: GUARD_MS });
    const what = `${args.join(' ')}: ${JSON.stringify(envelope.error)}`;
    assert.equal(envelope.meta.exit_code, 4, what);
    assert.equal(envelope.error?.code, 'QUEUE_CLIENT_MISSING', what);
    assert.equal(envelope.error?.retryable, false, what);
    assert.match(envelope.error!.message, /npm install bullmq ioredis/, what);
    assert.match(envelope.error!.suggestion ?? '', /npm install bullmq@\^6\.7\.0 ioredis@\^6\.0\.0/, what);
  }
  // Without --queue the same install still analyzes.
  const { envelope } = await runJson(['analyze', 'small.csv', '--budget', '0'],
    { program: bin, cwd: home, env: { STINT_HOME: world.path('q-plain') }, killAfterMs: GUARD_MS });
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
});

test('each entry point of the installed package loads by name', async () => {
  const probe = `for (const name of ['stint', 'stint/worker', 'stint/client', 'stint/contract'])
    console.log(name, Object.keys(await import(name)).length);`;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', probe],
    { cwd: home, timeout: GUARD_MS });
  assert.match(stdout, /^stint [1-9]\d*\nstint\/worker [1-9]\d*\nstint\/client [1-9]\d*\nstint\/contract [1-9]\d*\n$/);
});

test('a TypeScript program on the installed package pauses at 14 and continues to the whole answer', async (t) => {
  const program = await buildProgram(home);
  const expected = writeInput(join(home, 'input.txt'));
  const whole = await runJson(['count', 'input.txt', '--budget', '0'],
    { program, cwd: home, env: { STINT_HOME: world.path('h1') }, killAfterMs: GUARD_MS });
  assert.deepEqual(whole.envelope.data, expected);

  // Every chunk waits 40 ms on one of two workers: the count outlasts a 300 ms budget on any machine.
  const env = { STINT_HOME: world.path('h2'), AGENT_CALL_BUDGET_MS: '300', STINT_TEST_MODE: '1' };
  let { envelope } = await runJson(['count', 'input.txt'], { program, cwd: home, env, killAfterMs: GUARD_MS });
  assert.equal(envelope.meta.exit_code, 14, JSON.stringify(envelope.error));
  let calls = 1;
  while (envelope.meta.exit_code === 14) {
    const line = (envelope.data as { continue_command: string }).continue_command;
    // Started as `node program.js`: the continuation runs on this same Node.
    const [runner, script] = line.split(' ').map((word) => word.replace(/^'|'$/g, ''));
    assert.deepEqual([runner, script], [process.execPath, realpathSync(program)], `continue_command: ${line}`);
    envelope = envelopeOf(await runShell(`cd '${home}' && ${line}`, env));
    assert.ok(++calls < 500, 'the count ends');
  }
  assert.deepEqual(envelope.data, whole.envelope.data);
  t.diagnostic(`${calls} calls`);
});
