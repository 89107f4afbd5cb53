import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { anchorsOf, relativeLinks, slugOf } from '../helpers/markdown.js';
import { REPO_ROOT } from '../helpers/paths.js';

// The README is the front door and docs/ the rest: the door stays short, and no link in either leads nowhere.
const README_MAX_LINES = 300;
const pages = readdirSync(join(REPO_ROOT, 'docs')).filter((file) => file.endsWith('.md'));
const DOCS = ['README.md', ...pages.map((file) => `docs/${file}`)];
const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');

test(`the README is at most ${README_MAX_LINES} lines`, () => {
  const lines = read('README.md').trimEnd().split('\n').length;
  assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines`);
});

/** What is wrong with one link of `from`, or undefined when its file (and anchor) exist. */
function brokenLink(from: string, target: string): string | undefined {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const file = path === '' ? join(REPO_ROOT, from) : join(REPO_ROOT, dirname(from), decodeURIComponent(path));
  if (!existsSync(file)) return `${from}: ${target} (no ${relative(REPO_ROOT, file)})`;
  if (anchor === undefined || !file.endsWith('.md')) return undefined;
  return anchorsOf(readFileSync(file, 'utf8')).has(anchor) ? undefined : `${from}: ${target} (no such heading)`;
}

test('every relative link of the README and docs/ names a file that exists, and a heading it has', () => {
  assert.ok(DOCS.length > 5, 'the pages are read');
  const broken = DOCS.flatMap((from) => relativeLinks(read(from)).map((target) => brokenLink(from, target)));
  assert.deepEqual(broken.filter((problem) => problem !== undefined), []);
});

test('an anchor is the heading as GitHub spells it', () => {
  assert.equal(slugOf('What `export` does with `--output`'), 'what-export-does-with---output');
  assert.equal(slugOf('`stint follow`: the loop in a shell'), 'stint-follow-the-loop-in-a-shell');
  assert.equal(slugOf('Example 1: a file analyzer on every core'), 'example-1-a-file-analyzer-on-every-core');
  assert.deepEqual([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n')], ['a', 'a-1']);
});

test('a broken link is found', () => {
  assert.match(brokenLink('README.md', 'docs/nowhere.md') ?? '', /no docs\/nowhere\.md/);
  assert.match(brokenLink('README.md', 'docs/cli.md#nowhere') ?? '', /no such heading/);
  assert.equal(brokenLink('docs/cli.md', '#environment'), undefined);
});
