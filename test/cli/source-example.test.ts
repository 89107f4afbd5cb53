import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { envelopeOf, runJson, runShell } from '../helpers/run-cli.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { tempWorld } from '../helpers/temp-world.js';

const world = tempWorld('source-example');
const program = join(REPO_ROOT, 'build', 'docs', 'examples', 'pages', 'pages.js');

/** What the fake API holds over 30 pages, summed here independently of the example. */
function expected(pages: number): { pages: number; sales: number; amount: number } {
  let amount = 0;
  for (let page = 0; page < pages; page++) for (let k = 0; k < 100; k++) amount += (page * 31 + k * 17) % 1000;
  return { pages, sales: pages * 100, amount };
}

test('the pages example: stopped between pages, continued from its cursor to the uninterrupted sum', async () => {
  const env1 = { PAGES_HOME: world.path('1') };
  const whole = await runJson(['sum', '--pages', '30', '--budget', '0'], { program, env: env1 });
  assert.deepEqual(whole.envelope.data, expected(30));

  // 30 pages at 100 ms a page is 3 s of work at least: a 1 s budget always stops the first call.
  const env = { PAGES_HOME: world.path('2'), AGENT_CALL_BUDGET_MS: '1000', STINT_TEST_MODE: '1' };
  let { envelope } = await runJson(['sum', '--pages', '30', '--delay-ms', '100'], { program, env });
  assert.equal(envelope.meta.exit_code, 14, 'the budget stops the first call');
  let calls = 1;
  while (envelope.meta.exit_code === 14) {
    // Every call gets 1 s for 3 s of work: only continuations that resume from their cursor ever reach the end.
    assert.ok(++calls < 60, 'the continuations end');
    envelope = envelopeOf(await runShell((envelope.data as { continue_command: string }).continue_command, env));
  }
  assert.equal(envelope.meta.exit_code, 0, JSON.stringify(envelope.error));
  assert.deepEqual(envelope.data, whole.envelope.data);
});
