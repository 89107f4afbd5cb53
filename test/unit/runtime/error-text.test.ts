import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Envelope } from '../../../src/contract/envelope.js';
import { paintFor, renderErrorText } from '../../../src/runtime/cli/render.js';

const plain = paintFor(false, {});

function failure(error: Record<string, unknown>): Envelope {
  return {
    ok: false, data: null, error: { retryable: false, ...error }, warnings: [],
    meta: { command: 'analyze', tool_version: '0', exit_code: 2, duration_ms: 1 },
  } as unknown as Envelope;
}

const count = (text: string, part: string) => text.split(part).length - 1;

test('a suggestion the message already makes is said once at the terminal', () => {
  const message = '--columns names alpah, which the header of x.csv does not have; did you mean alpha?';
  const error = { code: 'COLUMN_NOT_FOUND', message, suggestion: 'did you mean alpha?' };
  const text = renderErrorText('stint', failure(error), plain);
  assert.equal(count(text, 'did you mean alpha?'), 1, text);
});

test('a suggestion the message lacks is printed after it', () => {
  const error = { code: 'X', message: 'no such thing', suggestion: 'run stint manifest' };
  const text = renderErrorText('stint', failure(error), plain);
  assert.match(text, /\n {2}try: run stint manifest\n$/);
});
