// A call started with a Node other than the one on PATH (Node 24 from the npm registry beside the machine's) is
// continued on that same Node: its continue_command names it, and every process of the work (the first call, the
// continuations, the background supervisor) runs on it, to the answer of --budget 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Envelope } from '../../src/contract/envelope.js';
import { writeBigCsv } from '../helpers/big-csv.js';
import { otherNode } from '../helpers/other-node.js';
import { programPath, STINT_BIN } from '../helpers/paths.js';
import { cleanEnv, envelopeOf, runShell } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('other-node');
const node = otherNode(24);
const skip = 'skip' in node ? node.skip : false;
if (skip) console.log(`# other-node tests skipped: ${skip}`);
const nodePath = 'path' in node ? node.path : '';
const nodeVersion = 'version' in node ? node.version : '';
const log = world.path('node-runs.ndjson');
const probe = world.path('probe.cjs');
// Every Node process started below notes which Node it is and which script it runs.
writeFileSync(probe, `require('fs').appendFileSync(${JSON.stringify(log)},
  JSON.stringify({ version: process.version, script: process.argv[1] }) + '\\n');\n`);
let homes = 0;
/** PATH finds the machine's Node first, never the fetched one. */
const envOf = () => ({
  STINT_HOME: world.path(`home-${++homes}`),
  PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
  NODE_OPTIONS: `--require ${probe}`,
});
const quoted = (words: readonly string[]) => words.map((word) => `'${word}'`).join(' ');

/** The Node versions that ran `script` since the log had `from` lines. */
function versionsRunning(script: string, from: number): string[] {
  const lines = readFileSync(log, 'utf8').trim().split('\n').slice(from);
  return lines.map((line) => JSON.parse(line) as { version: string; script: string })
    .filter((run) => run.script === script).map((run) => run.version);
}
const logLines = () => readFileSync(log, { encoding: 'utf8', flag: 'a+' }).split('\n').length - 1;

async function continueToEnd(first: Envelope<Record<string, unknown>>, env: Record<string, string>) {
  let envelope = first;
  for (let calls = 1; envelope.meta.exit_code === 14 || envelope.meta.exit_code === 130; calls++) {
    const line = String(envelope.data?.['continue_command']);
    const runner = line.split(' ')[0]?.replace(/^'|'$/g, '');
    assert.equal(runner, nodePath, `the continuation names the Node that started: ${line}`);
    envelope = envelopeOf(await runShell(line, env, 600_000));
    assert.ok(calls < 500, 'the continuations end');
  }
  return envelope;
}

test('a program on the library, detaching at its budget, continues on the Node that started it', { skip }, async () => {
  const demo = programPath('demo-jobs');
  const env = envOf();
  const whole = envelopeOf(await runShell(`${quoted([nodePath, demo])} count 20 --step-ms 10 --budget 0`, envOf()));
  assert.equal(whole.meta.exit_code, 0, JSON.stringify(whole.error));
  const from = logLines();
  // Twenty steps of 25 ms outlast a 100 ms budget on any machine: the call hands its job to a supervisor.
  const first = envelopeOf(await runShell(`${quoted([nodePath, demo])} count 20 --step-ms 25 --budget 100ms`, env));
  assert.equal(first.meta.exit_code, 14, JSON.stringify(first.error));
  assert.match(String(first.data?.['continue_command']), / job wait count-[0-9a-f]{8}$/);
  const final = await continueToEnd(first, env);
  assert.deepEqual(final.data, { steps: 20, sum: 210 });
  assert.deepEqual(final.data, whole.data);
  const versions = versionsRunning(demo, from);
  assert.ok(versions.length >= 3, `the call, its supervisor and a continuation ran: ${versions.join(', ')}`);
  assert.deepEqual([...new Set(versions)], [nodeVersion], 'every process of the work ran on the fetched Node');
});

test('stint started as `node24 stint.js`: stopped at its first progress, continued on Node 24 to the same answer',
  { skip }, async () => {
    const file = world.path('rows.csv');
    writeBigCsv(file, 48 * 1024 * 1024, 6);
    const args = ['analyze', file, '--workers', '1', '--chunk-size', '256KiB'];
    const whole = envelopeOf(await runShell(`${quoted([nodePath, STINT_BIN, ...args])} --budget 0`, envOf(), 600_000));
    assert.equal(whole.meta.exit_code, 0, JSON.stringify(whole.error));
    const env = envOf();
    const from = logLines();
    const stopped = await stopAtFirstProgress([STINT_BIN, ...args, '--budget', '0', '--heartbeat-ms', '5'], env);
    assert.equal(stopped.meta.exit_code, 130, JSON.stringify(stopped.error));
    const final = await continueToEnd(stopped, env);
    assert.equal(JSON.stringify(final.data), JSON.stringify(whole.data), 'the whole answer of --budget 0');
    assert.deepEqual([...new Set(versionsRunning(STINT_BIN, from))], [nodeVersion]);
  });

/** Runs the fetched Node on `args` and sends SIGINT once a heartbeat shows progress: a fact, not a time. */
function stopAtFirstProgress(args: readonly string[], env: Record<string, string>) {
  const child = spawn(nodePath, args, { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let signalled = false;
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    if (!signalled && /\[[1-9]\d*\/\d+ bytes\]/.test(text)) signalled = child.kill('SIGINT');
  });
  const guard = setTimeout(() => child.kill('SIGKILL'), 600_000);
  return new Promise<Envelope<Record<string, unknown>>>((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      resolve(envelopeOf({ code, signal, stdout, stderr: '' }));
    });
  });
}
