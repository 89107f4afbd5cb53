// Exact numbers, end to end: the built stint on generated and adversarial
// decimals (long digits, mixed signs, cancellation, integers past 2^53,
// scales past the scanner's fast range) against an oracle of exact BigInt
// fractions, at every worker count and chunk size, and across a kill -9 and
// the identical call that resumes from the checkpoint.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { runCli, runJson, startCli } from '../helpers/run-cli.js';
import { checkpointDone } from '../helpers/checkpoint-peek.js';
import { tempWorld } from '../helpers/temp-world.js';
import { random } from '../helpers/csv-generator.js';
import { analyzeWithCsvParse } from '../helpers/analyze-oracle.js';
import { withoutExtras } from '../helpers/stats-oracle.js';

const world = tempWorld('analyze-exact');
const home = (name: string) => ({ STINT_HOME: world.path(`home-${name}`), STINT_TEST_MODE: '1' });
const canonical = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

type Column = Record<string, unknown>;
/** The columns without the added statistics (their estimates depend on the split; analyze-stats tests them). */
const columnsOf = (data: Record<string, unknown> | null): Column[] =>
  ((data!['established'] as { a: { columns: Column[] } }[])[0]!).a.columns.map(withoutExtras);

/** Adversarial numeric columns: each row's values are drawn from the seed. */
function exactCsv(seed: number, rows: number): string {
  const rnd = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rnd() * items.length)]!;
  const digits = (n: number) => Array.from({ length: n }, () => String(Math.floor(rnd() * 10))).join('');
  const sign = () => (rnd() < 0.5 ? '-' : '');
  const big = 2n ** 53n + BigInt(Math.floor(rnd() * 1000));
  const lines = ['short,long,beyond_2_53,cancel,scales,mixed'];
  for (let r = 0; r < rows; r++) {
    const offset = BigInt(Math.floor(rnd() * 2 ** 40)) * (rnd() < 0.5 ? -1n : 1n);
    lines.push([
      `${sign()}${Math.floor(rnd() * 1e6)}.${digits(2)}`,
      `${sign()}${digits(1 + Math.floor(rnd() * 12))}.${digits(10 + Math.floor(rnd() * 25))}`,
      (rnd() < 0.5 ? big + offset : -(big + offset) * (rnd() < 0.2 ? 10n ** 12n : 1n)).toString(),
      r % 2 === 0 ? `1${'0'.repeat(15)}.${digits(3)}` : `-1${'0'.repeat(15)}`,
      pick([`${sign()}0.${'0'.repeat(17)}${digits(1)}`, `${sign()}${digits(2)}e-${20 + Math.floor(rnd() * 300)}`,
        `${sign()}1e${Math.floor(rnd() * 300)}`, `${sign()}0.${digits(19)}`, `${sign()}${digits(3)}.${digits(15)}`]),
      pick(['0.1', '0.2', '-0.3', `${sign()}${digits(15)}`, `${sign()}${digits(19)}`, `${digits(2)}.${digits(1)}E3`,
        '']),
    ].join(','));
  }
  return `${lines.join('\n')}\n`;
}

const HEARTBEAT = /\] stint analyze: .* \[(\d+)\/(\d+) bytes\]/;

describe('stint analyze: exact numbers', () => {
  test('0.1 + 0.2 is 0.3, the mean is rounded once, integers past 2^53 and long decimals keep all digits', async () => {
    const path = world.path('small.csv');
    const rows = [['0.1', '9007199254740993', '63.44', '0.30000000000000000001', '1e400'],
      ['0.2', '9007199254740992', '59.98', '-0.1', '1'], ['-0.3', '-1', '59.61', '', '1e-400'],
      ['0', '123456789012345678901234567890', '59.41', '', '2'], ['0.3', '0', '60.09', '', '3']];
    writeFileSync(path, `a,b,c,d,e\n${rows.map((r) => r.join(',')).join('\n')}\n`);
    const { run, envelope } = await runJson(['analyze', path], { env: home('small') });
    assert.equal(run.code, 0, run.stderr);
    const [a, b, c, d, e] = columnsOf(envelope.data);
    assert.deepEqual([a!['sum'], a!['mean'], a!['min'], a!['max']], [0.3, 0.06, -0.3, 0.3]);
    assert.deepEqual([a!['sum_exact'], a!['min_exact'], a!['max_exact']], ['0.3', '-0.3', '0.3']);
    assert.deepEqual([b!['min_exact'], b!['max_exact'], b!['sum_exact']],
      ['-1', '123456789012345678901234567890', '123456789012363693299744049874']);
    assert.deepEqual([b!['min'], b!['max'], b!['sum']], [-1, 1.2345678901234568e29, 1.2345678901236369e29]);
    assert.equal(c!['mean'], 60.506);
    assert.deepEqual([d!['sum_exact'], d!['max_exact'], d!['min_exact']],
      ['0.20000000000000000001', '0.30000000000000000001', '-0.1']);
    assert.deepEqual([d!['sum'], d!['max'], d!['min']], [0.2, 0.3, -0.1]);
    assert.equal(e!['type'], 'string');
    const warning = envelope.warnings.find((w) => w.code === 'NUMBER_OUT_OF_RANGE');
    assert.deepEqual(warning?.context?.['columns'], [{ name: 'e', count: 2 }]);
    assert.deepEqual(canonical(columnsOf(envelope.data)), canonical(analyzeWithCsvParse(path).columns));
    // The text table shows every digit where the double would round it.
    const text = await runCli(['analyze', path, '--format', 'text'], { env: home('small') });
    assert.equal(text.code, 0, text.stderr);
    for (const digits of ['123456789012345678901234567890', '0.30000000000000000001']) {
      assert.ok(text.stdout.includes(digits), `${digits} in\n${text.stdout}`);
    }
  });

  test('a field\'s JSON type never depends on the data: small and huge integers, short and long decimals', async () => {
    const typesOf = async (name: string, rows: string[]) => {
      const path = world.path(`${name}.csv`);
      writeFileSync(path, `n,x\n${rows.join('\n')}\n`);
      const { run, envelope } = await runJson(['analyze', path], { env: home(name) });
      assert.equal(run.code, 0, run.stderr);
      return columnsOf(envelope.data).map((c) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, typeof v])));
    };
    const small = await typesOf('types-small', ['1,0.5', '2,0.25']);
    const huge = await typesOf('types-huge',
      ['98765432109876543210,0.30000000000000000001', '12345678901234567890,-1e-30']);
    assert.deepEqual(huge, small);
    assert.deepEqual([small[0]!['sum'], small[0]!['sum_exact'], small[0]!['min'], small[0]!['min_exact']],
      ['number', 'string', 'number', 'string']);
  });

  test('generated adversarial decimals equal the exact oracle at every worker count and chunk size', async () => {
    const path = world.path('adversarial.csv');
    writeFileSync(path, exactCsv(7, 20_000));
    const expected = canonical(analyzeWithCsvParse(path).columns);
    const types = (expected as Column[]).map((c) => c['type']);
    assert.deepEqual(types, ['number', 'number', 'integer', 'number', 'number', 'number']);
    const roundedSum = (c: Column) => String(c['sum']) !== c['sum_exact'];
    assert.ok((expected as Column[]).some(roundedSum), 'some sums need more digits than a double holds');
    for (const workers of ['1', '2', '3']) {
      for (const chunk of ['4096', '64KiB', '1MiB']) {
        const args = ['analyze', path, '--workers', workers, '--chunk-size', chunk];
        const { run, envelope } = await runJson(args, { env: home(`adv-${workers}-${chunk}`) });
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(canonical(columnsOf(envelope.data)), expected, `workers ${workers}, chunk ${chunk}`);
      }
    }
  });

  test('a kill -9 mid-run, then the identical call resumes from its checkpoint and equals the oracle', async () => {
    const path = world.path('killed.csv');
    writeFileSync(path, exactCsv(11, 150_000));
    const expected = canonical(analyzeWithCsvParse(path).columns);
    const env = { ...home('killed'), STINT_CHECKPOINT_INTERVAL_MS: '0' };
    const args = ['analyze', path, '--workers', '2', '--chunk-size', '64KiB', '--heartbeat-ms', '5'];
    let saved: number | undefined;
    for (let attempt = 0; attempt < 10 && saved === undefined; attempt++) {
      const running = startCli(args, { env });
      const first = await running.stderrLine(HEARTBEAT);
      assert.ok(first, 'the run reports progress');
      const total = Number(first[2]);
      // On to a tenth of the file or more (a progress with at most one digit fewer than the total).
      const tenth = new RegExp(`\\] stint analyze: .* \\[(\\d{${String(total).length - 1},})/`);
      const reached = await running.stderrLine(tenth);
      running.kill('SIGKILL');
      const killed = await running.done;
      if (killed.signal === 'SIGKILL' && reached) saved = await checkpointDone(env.STINT_HOME);
    }
    assert.ok(saved !== undefined && saved > 0, 'a kill -9 left a checkpoint');
    const resumed = startCli(args, { env });
    const first = await resumed.stderrLine(HEARTBEAT);
    assert.ok(first && Number(first[1]) >= saved, `resumed at ${first?.[1]}, the checkpoint had ${saved}`);
    const final = await resumed.done;
    assert.equal(final.code, 0, final.stderr);
    const data = (JSON.parse(final.stdout) as { data: Record<string, unknown> }).data;
    assert.deepEqual(canonical(columnsOf(data)), expected);
  });
});
