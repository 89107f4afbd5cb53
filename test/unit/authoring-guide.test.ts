import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '../helpers/paths.js';

// The guide (and the agents' page) print their examples whole; the suite compiles the files under
// docs/examples and runs them (test/cli/*-example(s) tests). This test keeps the two the same text, so what
// runs is exactly what is printed.
const GUIDE = 'docs/authoring.md';
const PRINTED_IN = [GUIDE, 'docs/agents.md'];
const EXAMPLES = join(REPO_ROOT, 'docs', 'examples');
const MARKER = /<!-- file: (\S+) -->\n```(?:ts|sh)\n([\s\S]*?)```/g;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : [relative(REPO_ROOT, path)];
  });
}

const printed = (): Map<string, string> => {
  const texts = PRINTED_IN.map((doc) => readFileSync(join(REPO_ROOT, doc), 'utf8'));
  return new Map(texts.flatMap((text) => [...text.matchAll(MARKER)]).map((m) => [m[1]!, m[2]!]));
};

test('every example file is printed in the guide or the agents\' page exactly as it is', () => {
  const blocks = printed();
  for (const file of files(EXAMPLES).filter((f) => f.endsWith('.ts') || f.endsWith('.sh'))) {
    assert.ok(blocks.has(file), `${PRINTED_IN.join(' or ')} prints ${file}`);
    assert.equal(blocks.get(file), readFileSync(join(REPO_ROOT, file), 'utf8'), `${file} is shown verbatim`);
  }
});

test('the guide prints no code that is not an example file', () => {
  for (const file of printed().keys()) assert.ok(file.startsWith('docs/examples/'), `${file} lives under docs/examples`);
});

test('the README links the guide', () => {
  assert.match(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'), /\(docs\/authoring\.md\)/);
});
