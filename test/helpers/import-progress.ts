// Waiting on an import's progress as its heartbeat lines on stderr report it (rows committed), never on time.
import assert from 'node:assert/strict';
import { random } from './csv-generator.js';
import { envelopeOf, startCli, type RunningCli } from './run-cli.js';

/** A pattern of the numbers with as many digits as `n` that are at least `n`. */
function digitsAtLeast(n: number): string {
  const text = String(n);
  const options = [text];
  for (let k = text.length - 1; k >= 0; k--) {
    const digit = Number(text[k]);
    if (digit < 9) options.push(`${text.slice(0, k)}[${digit + 1}-9]${'\\d'.repeat(text.length - k - 1)}`);
  }
  return options.join('|');
}

/** Starts the import; resolves once a heartbeat shows `rows` rows or more committed (reached: false: it ended first). */
export async function importPastRows(
  args: readonly string[], env: Record<string, string>, rows: number,
): Promise<{ running: RunningCli; reached: boolean }> {
  const running = startCli(args, { env, killAfterMs: 600_000 });
  const more = `\\d{${String(rows).length + 1},}|${digitsAtLeast(rows)}`;
  const reached = await running.stderrLine(new RegExp(`\\] stint import: .* bytes, (${more}) rows?\\]`));
  return { running, reached: reached !== undefined };
}

/**
 * Interrupts the identical import `kills` times with kill -9, each once it has committed a seeded number of rows
 * more than the last (replayable: the seed fixes where each lands), then once each with SIGINT and SIGTERM, which
 * answer with their continue_command. Answers how many rows were committed before the last interruption, at least.
 */
export async function interruptImport(
  args: readonly string[], env: Record<string, string>, seed: number, kills: number,
): Promise<number> {
  const rnd = random(seed);
  let committed = 0;
  for (let kill = 0; kill < kills; kill++) {
    const target = committed + Math.floor(rnd() * 60_000);
    const { running, reached } = await importPastRows(args, env, target);
    assert.ok(reached, `call ${kill + 1} got past row ${target}`);
    running.kill('SIGKILL');
    assert.equal((await running.done).signal, 'SIGKILL');
    committed = target;
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    const { running, reached } = await importPastRows(args, env, committed + 20_000);
    assert.ok(reached, `the call before ${signal} got going`);
    running.kill(signal);
    const stopped = await running.done;
    assert.ok([14, 130, 143].includes(stopped.code!), `${signal}: ${stopped.stdout}`);
    assert.match(String(envelopeOf(stopped).data!['continue_command']), /import/);
    committed += 20_000;
  }
  return committed;
}
