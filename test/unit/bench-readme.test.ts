import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { END, START, figuresTable, writeReadmeFigures } from '../../bench/readme-figures.js';
import { thisMachine } from '../../src/commands/bench/machine.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

test('npm run bench rewrites only the marked region of bench/README.md', () => {
  const readme = readFileSync(join(REPO_ROOT, 'bench', 'README.md'), 'utf8');
  assert.ok(readme.indexOf(START) >= 0 && readme.indexOf(END) > readme.indexOf(START), 'bench/README.md has the region');
  const copy = tempWorld('bench-readme').path('README.md');
  writeFileSync(copy, readme);
  const figure = { suite: 'analyze', name: 'analyze / csv-parse', value: 14.2, unit: 'x', target: '>= 10', detail: 'a|b' };
  writeReadmeFigures(copy, figuresTable([figure], thisMachine(), ['analyze']));
  const written = readFileSync(copy, 'utf8');
  assert.match(written, /\| analyze \| analyze \/ csv-parse \| 14\.20× \| >= 10 \| a\\\|b \|/);
  const outside = (text: string) => text.slice(0, text.indexOf(START)) + text.slice(text.indexOf(END));
  assert.equal(outside(written), outside(readme), 'nothing outside the region changes');
});
