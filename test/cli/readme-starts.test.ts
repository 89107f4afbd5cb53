import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeBlocks, sectionUnder } from '../helpers/markdown.js';
import { REPO_ROOT, STINT_BIN } from '../helpers/paths.js';
import { inTerminal, withoutAnsi } from '../helpers/pty.js';
import { runShell } from '../helpers/run-cli.js';
import { tempWorld } from '../helpers/temp-world.js';

// The README's three starts, run as printed: every sh block under each start's heading, in a folder laid out
// as a clone is after `npm ci` (its package.json, so that 'stint' names the package itself, and its build/,
// fixtures/ and node_modules/), with the built stint on PATH as `stint`, as `npm link` puts it.
const world = tempWorld('readme-starts');
const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const bin = world.path('bin');
mkdirSync(bin);
symlinkSync(STINT_BIN, join(bin, 'stint'));
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The start's blocks, joined into one script in a fresh clone-like folder; returns the folder. */
function startIn(heading: string): string {
  const section = sectionUnder(README, heading);
  assert.ok(section !== undefined, `the README has a "${heading}" start`);
  const blocks = codeBlocks(section, 'sh');
  assert.ok(blocks.length > 0, `"${heading}" shows its commands`);
  const clone = world.path(heading.replace(/\W+/g, '-'));
  mkdirSync(clone);
  copyFileSync(join(REPO_ROOT, 'package.json'), join(clone, 'package.json'));
  for (const folder of ['build', 'fixtures', 'node_modules']) symlinkSync(join(REPO_ROOT, folder), join(clone, folder));
  writeFileSync(join(clone, 'start.sh'), blocks.join('\n'));
  return clone;
}

/** `sh -e`: a start works only if every one of its commands does. */
const script = (clone: string) => `cd ${quote(clone)} && sh -e start.sh`;
const env = (clone: string) => ({ PATH: `${bin}:${process.env['PATH']}`, STINT_HOME: join(clone, '.state') });

test('a person at a terminal: analyze, import, export, the job list and help, as printed', async () => {
  const clone = startIn('A person at a terminal');
  const run = await inTerminal(script(clone), { env: env(clone), cwd: clone });
  const screen = withoutAnsi(run.screen);
  assert.equal(run.code, 0, screen);
  assert.match(screen, /fixtures\/csv\/cities\.csv: 6 rows, 8 columns/);
  assert.match(screen, /coverage: complete/);
  assert.match(screen, /Usage: stint import/);
  const exported = readFileSync(join(clone, 'cities.ndjson'), 'utf8').trim().split('\n');
  assert.equal(exported.length, 6, 'every row went in and came out');
  assert.equal(JSON.parse(exported[0]!).city, 'Tokyo');
});

test('an agent: the manifest, one envelope, a field of it, and follow, as printed', async () => {
  const clone = startIn('An agent calling it');
  const run = await runShell(script(clone), env(clone));
  assert.equal(run.code, 0, run.stderr);
  const [rows, followed, extra] = run.stdout.trim().split('\n');
  assert.equal(rows, '6');
  assert.equal(extra, undefined, 'nothing else on stdout');
  const answer = JSON.parse(followed!) as { ok: boolean; data: { coverage: string } };
  assert.equal(answer.ok, true);
  assert.equal(answer.data.coverage, 'complete');
  const manifest = JSON.parse(readFileSync(join(clone, 'stint-manifest.json'), 'utf8')) as { ok: boolean };
  assert.equal(manifest.ok, true);
});

test('a library author: a program of its own name on the package, as printed', async () => {
  const clone = startIn('A library author');
  const run = await runShell(script(clone), env(clone));
  assert.equal(run.code, 0, run.stderr);
  const [greeted, help] = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.deepEqual((greeted as { data: unknown }).data, { greeting: 'hello ada' });
  assert.equal((help as { meta: { help: boolean } }).meta.help, true);
  assert.match(run.stderr, /Usage: hello <command>/);
  assert.match(run.stderr, /manifest/);
  assert.match(run.stderr, /job list/);
});
