import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkStream } from '../../helpers/stream-contract.js';

const item = (seq: number) => ({ _seq: seq, job_id: 'count-0badcafe', state: 'running', progress: { done: seq, total: 9 } });
const heartbeat = { heartbeat: true, job_id: 'count-0badcafe', elapsed_ms: 10 };
const summary = (count: number) => ({
  _summary: true, _count: count, ok: true, data: { sum: 45 }, error: null, warnings: [], meta: { exit_code: 0, duration_ms: 5 },
});
const failure = (exit: number, emitted?: number) => ({
  ok: false,
  data: { partial: true },
  error: { code: 'CANCELLED', message: 'Command cancelled by SIGINT', retryable: false },
  warnings: [],
  meta: { exit_code: exit, duration_ms: 7, ...(emitted !== undefined ? { items_emitted: emitted } : {}) },
});
const stream = (...lines: unknown[]) => lines.map((line) => `${typeof line === 'string' ? line : JSON.stringify(line)}\n`).join('');

test('good streams pass: items, heartbeats, then one summary or one error envelope', () => {
  const ok = checkStream(stream(item(1), heartbeat, item(2), item(3), heartbeat, summary(3)), 0);
  assert.equal(ok.items.length, 3);
  assert.equal(ok.heartbeats.length, 2);
  assert.equal(ok.terminal['_summary'], true);
  assert.equal(checkStream(stream(item(1), item(2), failure(130, 2)), 130).items.length, 2);
  assert.equal(checkStream(stream(failure(5, 0)), 5).items.length, 0, 'a stream may end before its first item');
  assert.equal(checkStream(stream(heartbeat, summary(0)), 0).heartbeats.length, 1);
});

test('each broken rule fails the check, naming it', () => {
  const broken: [string, string, number | null, RegExp][] = [
    ['empty', '', 0, /empty/],
    ['no final newline', stream(summary(0)).trimEnd(), 0, /newline/],
    ['a line that is not JSON', stream(item(1), 'progress: 50%', summary(1)), 0, /not JSON/],
    ['a line that is an array', stream([1, 2], summary(0)), 0, /not one JSON object/],
    ['_seq starting at 2', stream(item(2), summary(1)), 0, /_seq should be 1/],
    ['a gap in _seq', stream(item(1), item(3), summary(2)), 0, /_seq should be 2/],
    ['an item without _seq', stream({ job_id: 'x' }, summary(1)), 0, /_seq should be 1/],
    ['a numbered heartbeat', stream(item(1), { ...heartbeat, _seq: 2 }, summary(1)), 0, /heartbeat line never carries _seq/],
    ['a numbered summary', stream(item(1), { ...summary(1), _seq: 2 }), 0, /terminal line never carries _seq/],
    ['no terminal line', stream(item(1), item(2)), 0, /does not end on a terminal line/],
    ['two terminal lines', stream(item(1), summary(1), summary(1)), 0, /not the last one/],
    ['a terminal line before items', stream(failure(1, 0), item(1)), 1, /not the last one/],
    ['_count not the item count', stream(item(1), item(2), summary(3)), 0, /_count/],
    ['a summary with a failing exit', stream(item(1), summary(1)), 3, /exits 0/],
    ['items_emitted not the last _seq', stream(item(1), item(2), failure(130, 1)), 130, /items_emitted/],
    ['items_emitted missing', stream(item(1), failure(130)), 130, /items_emitted/],
    ['an error envelope that is not the exit', stream(item(1), failure(130, 1)), 0, /exit_code equals the process exit/],
    ['a success envelope as terminal', stream({ ...failure(0, 0), ok: true, error: null, data: null }), 0, /only on failure/],
    ['an error terminal that is not an envelope', stream({ ok: false, meta: { exit_code: 1, items_emitted: 0 } }), 1, /rejects/],
    ['ANSI colour', stream(item(1), `\u001b[31m${JSON.stringify(summary(1))}\u001b[39m`), 0, /ANSI/],
  ];
  for (const [name, text, exit, message] of broken) {
    assert.throws(() => checkStream(text, exit), message, `${name} should fail the check`);
  }
});
