import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { realFileOf } from '../../../src/runtime/cli/path-lookup.js';
import { recordCheck, sameProgram } from '../../../src/runtime/jobs/job-words.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('job-words');
const bin = world.path('bin');
mkdirSync(bin);
const script = world.path('tool.js');
writeFileSync(script, '#!/usr/bin/env node\n');
chmodSync(script, 0o755);
symlinkSync(script, join(bin, 'tool'));
const env = { PATH: `${bin}:/usr/bin:/bin` };

test("a job record's words are this program's: the same words, or words that resolve to the same files", () => {
  assert.ok(sameProgram(['tool'], ['tool'], env));
  assert.ok(sameProgram([script], ['tool'], env), 'by its path, or by the name PATH finds it under');
  assert.ok(sameProgram(['tool'], [script], env));
  assert.ok(sameProgram(['/usr/bin/env', script], ['/usr/bin/env', join(bin, 'tool')], env));
});

test('the script run by this very Node is the script run by its shebang (made executable between two calls)', () => {
  assert.ok(sameProgram([process.execPath, script], [script], env));
  assert.ok(sameProgram([script], [process.execPath, 'tool'], env));
  assert.equal(sameProgram(['/bin/sh', script], [script], env), false, 'another runner is another program');
});

test('a script another Node ran (a file named node: 22 beside 24) is the same program; another runner is not', () => {
  const otherNode = world.path('node24', 'bin', 'node');
  mkdirSync(world.path('node24', 'bin'), { recursive: true });
  writeFileSync(otherNode, '#!/bin/sh\n');
  chmodSync(otherNode, 0o755);
  assert.ok(sameProgram([otherNode, script], [process.execPath, script], env));
  assert.ok(sameProgram([otherNode, script], ['tool'], env));
  const notNode = world.path('node24', 'bin', 'nodejs-evil');
  writeFileSync(notNode, '#!/bin/sh\n');
  chmodSync(notNode, 0o755);
  assert.equal(sameProgram([notNode, script], ['tool'], env), false);
});

test('anything else is not: another program, more words, a runner where ours has none, nothing', () => {
  assert.equal(sameProgram(['sh', '-c', 'touch /tmp/x'], ['tool'], env), false);
  assert.equal(sameProgram(['/bin/sh'], ['tool'], env), false);
  assert.equal(sameProgram(['/usr/bin/env', script], [script], env), false);
  assert.equal(sameProgram([], ['tool'], env), false);
  assert.equal(sameProgram(['no-such-tool'], ['tool'], env), false);
});

test("a record is refused (JOB_RECORD_INVALID) when it names another job, a stdin outside its folder, or other words", () => {
  const folder = world.path('jobs', 'count-0000abcd');
  const record = {
    id: 'count-0000abcd', key: 'k', program: 'tool', command: ['count'], argv: ['count'], cwd: '/', programWords: ['tool'],
    detach: true, resume: true, writes: false, idleTimeoutMs: 1, timeoutMs: 0, createdAt: 0,
  };
  const check = recordCheck(() => ['tool'], env);
  check(record, folder);
  check({ ...record, stdinPath: join(folder, 'stdin') }, folder);
  const refusals = [
    { ...record, id: 'count-0000ffff' },
    { ...record, stdinPath: '/etc/passwd' },
    { ...record, programWords: ['/bin/sh'] },
  ];
  for (const tampered of refusals) {
    assert.throws(() => check(tampered, folder), (error: { code?: string }) => error.code === 'JOB_RECORD_INVALID');
  }
});

test('a word with a slash is a path from the current folder, as a shell takes it, never looked up on PATH', () => {
  const inBin = join(bin, 'sub', 'tool.js');
  mkdirSync(join(bin, 'sub'));
  writeFileSync(inBin, '#!/usr/bin/env node\n');
  chmodSync(inBin, 0o755);
  assert.equal(realFileOf('sub/tool.js', env), undefined, 'not the PATH folder\'s sub/tool.js');
  const fromHere = relative(process.cwd(), script);
  assert.ok(fromHere.includes('/'));
  assert.equal(realFileOf(fromHere, env), script);
  assert.ok(sameProgram([process.execPath, fromHere], ['tool'], env));
});
