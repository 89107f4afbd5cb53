// `stint bench resume -- <command>`: resume cost at three offsets of stint's own analyze and of a program built
// on the library (the guide's wc example); the shape and consistency of the result, never a speed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runJson } from '../helpers/run-cli.js';
import { REPO_ROOT, STINT_BIN, fixturePath } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';
import { writeBigCsv } from '../helpers/big-csv.js';
import { assertConsistent, assertOffsets, type Resume } from '../helpers/bench-consistency.js';

const world = tempWorld('bench-resume');
const WC = join(REPO_ROOT, 'build', 'docs', 'examples', 'wc', 'wc.js');
const MiB = 1024 * 1024;
/** A guard against a hung run, not a claim about speed. */
const GUARD_MS = 280_000;

test('bench resume -- stint analyze: resume cost at 10, 50 and 90 % against a fresh start', async () => {
  const file = world.path('analyze.csv');
  writeBigCsv(file, 8 * MiB, 7);
  const home = world.path('stint-home');
  // Small chunks: each continuation moves the work on by a few safe points, and 10 % must span several.
  const measured = [process.execPath, STINT_BIN, 'analyze', file, '--chunk-size', '128KiB'];
  const args = ['bench', 'resume', '--samples', '2', '--format', 'json', '--', ...measured];
  const { envelope } = await runJson(args, { env: { STINT_HOME: home }, killAfterMs: GUARD_MS });
  assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
  const resume = envelope.data as unknown as Resume & { command: string[] };
  assert.deepEqual(resume.command, measured);
  assertConsistent(resume);
  assertOffsets(resume);
});

test('bench resume --state-dir -- a program built on stint: each offset\'s continuations start alike', async () => {
  const file = world.path('words.txt');
  writeBigCsv(file, 24 * MiB, 8);
  const home = world.path('wc-home');
  const args = ['bench', 'resume', '--samples', '2', '--state-dir', home, '--', process.execPath, WC, 'count', file];
  const { envelope } = await runJson(args, { env: { WC_HOME: home }, killAfterMs: GUARD_MS });
  assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
  const resume = envelope.data as unknown as Resume;
  assertConsistent(resume);
  assertOffsets(resume);
  for (const offset of resume.offsets) assert.equal(new Set(offset.reached).size, 1, 'one checkpoint an offset');
});

test('bench resume --state-dir takes back a stop that overshot to the end and asks for it earlier', async () => {
  const counter = join(REPO_ROOT, 'build', 'test', 'helpers', 'overshooting-counter.js');
  const state = world.path('counter-state');
  const marker = world.path('counter-overshot');
  const measured = [process.execPath, counter, state, marker];
  const args = ['bench', 'resume', '--samples', '1', '--state-dir', state, '--format', 'json', '--', ...measured];
  const { envelope } = await runJson(args, { killAfterMs: GUARD_MS });
  assert.equal(envelope.ok, true, JSON.stringify(envelope.error));
  assert.match(readFileSync(marker, 'utf8'), /unheeded/, 'the seek to 90 % overshot to the end once');
  const resume = envelope.data as unknown as Resume;
  assertConsistent(resume);
  assertOffsets(resume);
  assert.ok(resume.offsets[2]!.reached[0]! < 1, 'the continuation at 90 % started before the end');
});

test('bench resume refuses a command that fails, or that ends before it can be stopped', async () => {
  const missing = world.path('no.csv');
  const failing = await runJson(['bench', 'resume', '--', process.execPath, STINT_BIN, 'analyze', missing]);
  assert.equal(failing.envelope.error?.code, 'BENCH_TARGET_FAILED');
  assert.equal(failing.envelope.meta.exit_code, 4);
  const small = fixturePath('csv', 'cities.csv');
  const quick = await runJson(['bench', 'resume', '--', process.execPath, STINT_BIN, 'analyze', small]);
  assert.equal(quick.envelope.error?.code, 'BENCH_NOT_RESUMABLE', JSON.stringify(quick.envelope.error));
  assert.equal(quick.envelope.meta.exit_code, 4);
});
