// Agents call stint thousands of times, so a call loads only what it needs: the modules Node loads for a call are
// recorded by a module hook and checked against those that only other kinds of call take.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { runCli } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('start-up');
const hooks = world.path('hooks.mjs');
const register = world.path('register.mjs');
writeFileSync(hooks, `import { appendFileSync } from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(out, url + '\\n');
  return next(url, context);
}
`);
writeFileSync(register, `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(hooks).href)}, { data: { out: process.env.LOADED_OUT } });
`);

let calls = 0;
/** The files a call to stint loaded, as paths. */
async function loadedBy(args: readonly string[]): Promise<string[]> {
  const out = world.path(`loaded-${++calls}.txt`);
  writeFileSync(out, '');
  const env = { STINT_HOME: world.path('home'), LOADED_OUT: out, NODE_OPTIONS: `--import ${register}` };
  const run = await runCli(args, { env });
  assert.equal(run.code, 0, run.stderr);
  return readFileSync(out, 'utf8').trim().split('\n').map((url) => new URL(url).pathname);
}

/** The loaded files that are a package's or end as one of `names`. */
function unwanted(loaded: readonly string[], names: readonly string[]): string[] {
  return loaded.filter((path) => path.includes('/node_modules/') || names.some((name) => path.endsWith(`/${name}`)));
}

test('stint --version loads no package and nothing that runs a command', async () => {
  const loaded = await loadedBy(['--version']);
  assert.ok(loaded.some((path) => path.endsWith('/bin/stint.js')), 'the hook saw the call');
  const running = ['run-resolved.js', 'execute-command.js', 'call-context.js', 'interruptible-call.js'];
  assert.deepEqual(unwanted(loaded, running), []);
});

test('stint job list loads no package, no job runner, no stream and no stdin spool', async () => {
  const loaded = await loadedBy(['job', 'list']);
  assert.ok(loaded.some((path) => path.endsWith('/execute-command.js')), 'the hook saw the command run');
  const elsewhere = ['interruptible-call.js', 'run-job.js', 'stream-call.js', 'stdin-spool.js'];
  assert.deepEqual(unwanted(loaded, elsewhere), []);
});
