// The stream contract (numbered items, then one terminal line), as a check any test can run on a stream's stdout.
import assert from 'node:assert/strict';
import { assertEnvelope } from './schemas.js';

type Line = Record<string, unknown>;

/** A stream that passed the check, split by kind of line. */
export interface CheckedStream {
  readonly items: readonly Line[];
  readonly heartbeats: readonly Line[];
  /** The one terminal line: a `_summary`, or an error envelope. */
  readonly terminal: Line;
}

const isObject = (value: unknown): value is Line =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isSummary = (line: Line): boolean => line['_summary'] === true;
const isEnvelope = (line: Line): boolean => 'ok' in line && 'meta' in line && !isSummary(line);

function parseLine(text: string, index: number): Line {
  let value: unknown;
  assert.doesNotThrow(() => (value = JSON.parse(text)), `line ${index + 1} is not JSON: ${text.slice(0, 200)}`);
  assert.ok(isObject(value), `line ${index + 1} is not one JSON object: ${text.slice(0, 200)}`);
  return value;
}

/** Every line but the last: items numbered 1, 2, ... and heartbeats, none of them terminal. */
function checkBody(lines: readonly Line[]): { items: Line[]; heartbeats: Line[] } {
  const items: Line[] = [];
  const heartbeats: Line[] = [];
  lines.forEach((line, index) => {
    const where = `line ${index + 1}`;
    assert.ok(!isSummary(line) && !isEnvelope(line), `${where} is a terminal line, but not the last one`);
    if (line['heartbeat'] === true) {
      assert.ok(!('_seq' in line), `${where}: a heartbeat line never carries _seq`);
      heartbeats.push(line);
      return;
    }
    const seq = items.length + 1;
    assert.equal(line['_seq'], seq, `${where}: item _seq should be ${seq} (consecutive from 1)`);
    items.push(line);
  });
  return { items, heartbeats };
}

/** The last line: one summary whose `_count` is the item count (exit 0), or an error envelope that matches. */
function checkTerminal(terminal: Line, items: number, exitCode: number | null): void {
  const shown = JSON.stringify(terminal).slice(0, 200);
  assert.ok(isSummary(terminal) || isEnvelope(terminal), `the stream does not end on a terminal line: ${shown}`);
  assert.ok(!('_seq' in terminal), 'the terminal line never carries _seq');
  if (isSummary(terminal)) {
    assert.equal(terminal['_count'], items, 'summary _count equals the number of item lines');
    assert.equal(exitCode, 0, 'a stream that ends on a summary exits 0');
    const meta = terminal['meta'];
    if (isObject(meta)) assert.equal(meta['exit_code'], 0, 'a summary carrying meta says exit_code 0');
    return;
  }
  assertEnvelope(terminal);
  const meta = terminal['meta'] as Line;
  assert.equal(terminal['ok'], false, 'an envelope ends a stream only on failure (success ends on a _summary)');
  assert.equal(meta['exit_code'], exitCode, 'the terminal envelope\'s meta.exit_code equals the process exit code');
  assert.equal(meta['items_emitted'], items, 'the terminal envelope\'s meta.items_emitted equals the last _seq');
}

/**
 * Checks a stream (stdout of a streaming command that numbers its items) and the process exit code
 * against it; throws an assertion error naming the first broken rule.
 */
export function checkStream(stdout: string, exitCode: number | null): CheckedStream {
  assert.ok(stdout.length > 0, 'the stream is empty: it must end on a terminal line');
  assert.ok(stdout.endsWith('\n'), 'the stream ends with a newline');
  assert.ok(!/\u001b\[/.test(stdout), 'no ANSI in a stream');
  const lines = stdout.slice(0, -1).split('\n').map(parseLine);
  const { items, heartbeats } = checkBody(lines.slice(0, -1));
  const terminal = lines[lines.length - 1]!;
  checkTerminal(terminal, items.length, exitCode);
  return { items, heartbeats, terminal };
}
