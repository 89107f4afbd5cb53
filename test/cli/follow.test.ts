import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode } from '../../src/contract/error-code.js';
import { RunStatus } from '../../src/contract/vocabulary/run-status.js';
import { StopLimit } from '../../src/contract/vocabulary/stop-limit.js';
import { StintCode } from '../../src/commands/stint-codes.js';
import { writeBigCsv } from '../helpers/big-csv.js';
import { programPath, STINT_BIN } from '../helpers/paths.js';
import { envelopeOf, runCli, runJson, startCli } from '../helpers/run-cli.js';
import { csvFileRecords, tableRecords } from '../helpers/table-rows.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('follow');
let homes = 0;
/** Each test owns its state folder. */
const freshHome = (extra: Record<string, string> = {}) =>
  ({ STINT_HOME: world.path(`home-${++homes}`), STINT_TEST_MODE: '1', ...extra });
const stint = (...args: string[]) => [process.execPath, STINT_BIN, ...args];
const never = (log: string, ...modes: string[]) => [process.execPath, programPath('never-advances'), log, ...modes];
const follow = (words: readonly string[], ...flags: string[]) => ['follow', ...flags, '--', ...words];
const calls = (log: string) => readFileSync(log, 'utf8').trimEnd().split('\n');
type Data = Record<string, unknown> & { continue_command: string; progress: { done: number } };

test('following an analyze that needs continuations ends with the data of --budget 0; a cap leaves it going', async () => {
  const big = world.path('big.csv');
  writeBigCsv(big, 24 * 1024 * 1024, 5);
  const whole = await runJson(['analyze', big, '--budget', '0'], { env: freshHome() });
  assert.equal(whole.run.code, 0);

  // A 1 ms budget always hands the first call off; no continuation is allowed, so follow answers 14.
  const env = freshHome({ AGENT_CALL_BUDGET_MS: '2000' });
  const capped = await runJson(follow(stint('analyze', big, '--budget', '1ms', '--workers', '1'), '--max-continuations', '0'), { env });
  assert.equal(capped.run.code, 14, capped.run.stdout);
  assert.equal(capped.envelope.error!.code, ErrorCode.Incomplete);
  const data = capped.envelope.data as Data;
  assert.equal(data['run_status'], RunStatus.Pending);
  assert.equal(data['limit'], StopLimit.MaxTurns);
  assert.equal(data['continuations'], 0);
  assert.match(data.continue_command, / job wait analyze-[0-9a-f]{8}$/);
  assert.equal(capped.run.stderr, '', 'nothing on stderr when it is not a terminal');

  // The outer loop goes on with the continue_command it was given.
  const done = await runJson(follow(['sh', '-c', data.continue_command]), { env });
  assert.equal(done.run.code, 0, done.run.stdout);
  assert.deepEqual(done.envelope.data, whole.envelope.data, 'the same data as one call with --budget 0');
  assert.equal(done.run.stderr, '');
});

test('following a command that reads stdin: several continuations (from its kept spool) to the uninterrupted answer', async () => {
  const program = programPath('wc-stdin');
  // 60 chunks at 50 ms each: 3 s of work at least, so 1 s budgets need several calls.
  const text = Array.from({ length: 6000 }, (_, k) => `line ${k} holds ${k % 7} words`).join('\n') + '\n';
  const whole = await runJson(['count', '--budget', '0'], { program, env: freshHome(), stdin: text });
  const env = freshHome({ AGENT_CALL_BUDGET_MS: '1000' });
  const followed = await runJson(follow([process.execPath, program, 'count', '--pause-ms', '50']), { env, stdin: text });
  assert.equal(followed.run.code, 0, followed.run.stdout);
  assert.deepEqual(followed.envelope.data, whole.envelope.data);
  // Each call holds at most 1 s of the 3 s of work: the answer counts the continue_commands run after the first.
  assert.ok((followed.envelope.meta['continuations'] as number) >= 2, JSON.stringify(followed.envelope.meta));
});

test('following a paused import completes it exactly once', async () => {
  const rows = world.path('rows.csv');
  const count = 200_000;
  writeFileSync(rows, `id,name,score\n${Array.from({ length: count }, (_, k) => `${k},name ${k},${k % 97}\n`).join('')}`);
  const db = world.path('rows.db');
  const env = freshHome();
  const args = ['import', rows, '--into', db, '--chunk-size', '64KiB'];
  const paused = await runJson(args, { env: { ...env, AGENT_CALL_BUDGET_MS: '1' } });
  assert.equal(paused.run.code, 14, paused.run.stdout);
  const line = (paused.envelope.data as Data).continue_command;

  const followed = await runJson(follow(['sh', '-c', line]), { env: { ...env, AGENT_CALL_BUDGET_MS: '1500' } });
  assert.equal(followed.run.code, 0, followed.run.stdout);
  assert.equal(followed.envelope.data!['coverage'], 'complete');
  const records = () => tableRecords(db, world.path(`export-${++homes}.csv`), env);
  assert.equal((await records()).length, count + 1, 'the header and every row, once');
  assert.deepEqual(await records(), csvFileRecords(rows));

  const again = await runJson(follow(['sh', '-c', line]), { env });
  assert.equal(again.run.code, 0, again.run.stdout);
  assert.equal((await records()).length, count + 1, 'following it again adds nothing');
});

test('a command that never advances is cancelled after exactly three stalled continuations', async () => {
  const log = world.path('stalled.log');
  const { run, envelope } = await runJson(follow(never(log, 'start')), { env: freshHome() });
  assert.equal(run.code, 10);
  assert.equal(envelope.error!.code, ErrorCode.Stalled);
  assert.deepEqual(calls(log), ['start', 'continue', 'continue', 'continue', 'cancel']);
  const data = envelope.data as Record<string, unknown> & { response: { data: Data }; cancel_response: { ok: boolean } };
  assert.equal(data['run_status'], RunStatus.Incomplete);
  assert.equal(data['limit'], StopLimit.Completion);
  assert.equal(data['continuations'], 3);
  assert.equal(data.response.data.progress.done, 7, 'the last response, as it was');
  assert.equal(data.cancel_response.ok, true);
  assert.equal(data['cancelled'], true);
  assert.match(envelope.error!.message, /did not grow over the last 3 continuations; the work was cancelled/);
  assert.equal(run.stderr, '');
});

test('a stalled command whose cancel_command fails is still STALLED, with the last response and no claim', async () => {
  const log = world.path('cancel-fails.log');
  const { run, envelope } = await runJson(follow([...never(log, 'start'), 'continue', 'garbage']), { env: freshHome() });
  assert.equal(run.code, 10, run.stdout);
  assert.equal(envelope.error!.code, ErrorCode.Stalled);
  assert.deepEqual(calls(log), ['start', 'continue', 'continue', 'continue', 'garbage']);
  const data = envelope.data as Record<string, unknown> & { response: { data: Data } };
  assert.equal(data['cancelled'], false);
  assert.equal(data.response.data.progress.done, 7, 'the last response, for the escalation');
  assert.match(envelope.error!.message, /cancel_command did not succeed/);
  assert.doesNotMatch(envelope.error!.message, /was cancelled/);
});

test('--max-continuations and --deadline answer 14 pending and never cancel', async () => {
  const capped = world.path('capped.log');
  const byCount = await runJson(follow(never(capped, 'start'), '--max-continuations', '2'), { env: freshHome() });
  assert.equal(byCount.run.code, 14);
  assert.deepEqual(calls(capped), ['start', 'continue', 'continue']);
  const data = byCount.envelope.data as Data;
  assert.deepEqual([data['run_status'], data['limit'], data['continuations']], [RunStatus.Pending, StopLimit.MaxTurns, 2]);
  assert.match(data.continue_command, /never-advances/);
  assert.match(data['cancel_command'] as string, /cancel/);
  assert.equal(data.progress.done, 7);

  const late = world.path('late.log');
  const byTime = await runJson(follow(never(late, 'start'), '--deadline', '1ms'), { env: freshHome() });
  assert.equal(byTime.run.code, 14);
  assert.deepEqual(calls(late), ['start']);
  const lateData = byTime.envelope.data as Data;
  assert.deepEqual([lateData['run_status'], lateData['limit'], lateData['continuations']], [RunStatus.Pending, StopLimit.MaxWallMs, 0]);
});

test('a command that answers no envelope: NOT_AN_ENVELOPE with its last stderr lines', async () => {
  const { run, envelope } = await runJson(follow(never(world.path('garbage.log'), 'garbage')), { env: freshHome() });
  assert.equal(run.code, 1);
  assert.equal(envelope.error!.code, StintCode.NotAnEnvelope);
  assert.match(envelope.error!.detail!, /boom: the tool broke/);
  assert.match(envelope.error!.message, /not one JSON document/);

  const missing = await runJson(follow([world.path('no-such-program')]), { env: freshHome() });
  assert.equal(missing.run.code, 1);
  assert.equal(missing.envelope.error!.code, StintCode.NotAnEnvelope);
  assert.match(missing.envelope.error!.message, /could not be started/);
});

test('SIGINT goes once to the running continuation; the answer is 130 CANCELLED with its continue_command', async () => {
  const log = world.path('signal.log');
  const running = startCli(follow(never(log, 'start', 'wait-signal')), { env: freshHome() });
  for (let waited = 0; !(existsSync(log) && calls(log).includes('waiting')); waited += 20) {
    assert.ok(waited < 60_000, 'the continuation started');
    await sleep(20);
  }
  running.kill('SIGINT');
  const stopped = await running.done;
  const envelope = envelopeOf(stopped);
  assert.equal(stopped.code, 130);
  assert.equal(envelope.error!.code, ErrorCode.Cancelled);
  const data = envelope.data as Data;
  assert.equal(data['partial'], true);
  assert.match(data.continue_command, /never-advances.* 'continue' 'continue' 'cancel'$/);
  assert.equal(data['continuations'], 1);
  assert.deepEqual(calls(log), ['start', 'wait-signal', 'waiting', 'SIGINT'], 'passed on once, nothing run after');
});

test('SIGTERM while following a program built on stint: 143 with a continue_command that finishes the work', async () => {
  const program = programPath('wc-stdin');
  const text = Array.from({ length: 3000 }, (_, k) => `line ${k} holds some words`).join('\n') + '\n';
  const whole = await runJson(['count', '--budget', '0'], { program, env: freshHome(), stdin: text });
  // 20 chunks at 100 ms each: 2 s of work at least, in calls of 1 s.
  const env = freshHome({ AGENT_CALL_BUDGET_MS: '1000' });
  const running = startCli(follow([process.execPath, program, 'count', '--pause-ms', '100']), { env, stdin: text });
  const jobs = join(env.STINT_HOME, 'jobs');
  for (let waited = 0; !(existsSync(jobs) && readdirSync(jobs).length > 0); waited += 20) {
    assert.ok(waited < 60_000, 'the first call started its job');
    await sleep(20);
  }
  running.kill('SIGTERM');
  const stopped = await running.done;
  const envelope = envelopeOf(stopped);
  assert.equal(stopped.code, 143, stopped.stdout);
  assert.equal(envelope.error!.code, ErrorCode.Cancelled);
  const data = envelope.data as Data;
  assert.equal(data['partial'], true);
  const rest = await runJson(follow(['sh', '-c', data.continue_command]), { env });
  assert.equal(rest.run.code, 0, rest.run.stdout);
  assert.deepEqual(rest.envelope.data, whole.envelope.data);
});

test('a command given without --: ARG_ERROR that says where its flags go; help shows `[flags] -- <command...>`', async () => {
  const env = freshHome();
  const { run, envelope } = await runJson(['follow', 'stint', 'analyze', 'x.csv', '--budget', '1s'], { env });
  assert.equal(run.code, 2, run.stdout);
  const [problem] = envelope.error!.errors!;
  assert.equal(problem!.field, '--budget');
  assert.match(problem!.message, /goes after --, with its flags: follow \[flags\] -- <command\.\.\.>/);
  // A flag follow does not know, before any word, is a plain unknown flag with its near miss.
  const early = await runJson(['follow', '--max-continuation', '2', '--', 'stint', '--version'], { env });
  assert.equal(early.envelope.error!.errors![0]!.suggestion, '--max-continuations');
  const help = await runCli(['follow', '--help', '--format', 'text'], { env });
  assert.match(help.stdout, /^Usage: stint follow \[flags\] -- <command\.\.\.>$/m);
});
