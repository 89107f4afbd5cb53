import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sameProgram } from '../../../src/runtime/jobs/job-words.js';
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

test('anything else is not: another program, more words, a runner where ours has none, nothing', () => {
  assert.equal(sameProgram(['sh', '-c', 'touch /tmp/x'], ['tool'], env), false);
  assert.equal(sameProgram(['/bin/sh'], ['tool'], env), false);
  assert.equal(sameProgram(['/usr/bin/env', script], [script], env), false);
  assert.equal(sameProgram([], ['tool'], env), false);
  assert.equal(sameProgram(['no-such-tool'], ['tool'], env), false);
});
