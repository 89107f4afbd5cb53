import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { programInvocation } from '../../../src/bin/process-host.js';
import { tempWorld } from '../../helpers/temp-world.js';

const world = tempWorld('program-invocation');
const script = world.path('pkg', 'tool.js');
mkdirSync(dirname(script));
writeFileSync(script, '#!/usr/bin/env node\n');
chmodSync(script, 0o755);
const bin = world.path('bin');
mkdirSync(bin);
symlinkSync(script, join(bin, 'tool.js'));
const nodeDir = dirname(realpathSync(process.execPath));
const otherNodeDir = world.path('other-node');
mkdirSync(otherNodeDir);
writeFileSync(join(otherNodeDir, 'node'), '#!/bin/sh\n');
chmodSync(join(otherNodeDir, 'node'), 0o755);

test('the bare name when PATH finds this program and its shebang would find this Node', () => {
  assert.deepEqual(programInvocation(script, { PATH: `${bin}:${nodeDir}` }, process.execPath), ['tool.js']);
});

test("this Node and the script when PATH's node is another one: the continuation runs on the Node that started", () => {
  const words = programInvocation(script, { PATH: `${bin}:${otherNodeDir}:${nodeDir}` }, process.execPath);
  assert.deepEqual(words, [process.execPath, realpathSync(script)]);
});

test('this Node and the real script when PATH does not find the program, or finds another one first', () => {
  const real = [process.execPath, realpathSync(script)];
  assert.deepEqual(programInvocation(script, { PATH: nodeDir }, process.execPath), real);
  const shadow = world.path('shadow');
  mkdirSync(shadow);
  writeFileSync(join(shadow, 'tool.js'), '#!/bin/sh\n');
  chmodSync(join(shadow, 'tool.js'), 0o755);
  assert.deepEqual(programInvocation(script, { PATH: `${shadow}:${bin}:${nodeDir}` }, process.execPath), real);
});

test('under npm, its node_modules/.bin folders do not count: a later shell has none', () => {
  const npmBin = world.path('proj', 'node_modules', '.bin');
  mkdirSync(npmBin, { recursive: true });
  symlinkSync(script, join(npmBin, 'tool.js'));
  const env = { PATH: `${npmBin}:${nodeDir}`, npm_command: 'run-script' };
  assert.deepEqual(programInvocation(script, env, process.execPath), [process.execPath, realpathSync(script)]);
});
