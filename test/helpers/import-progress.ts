// Waiting on an import's progress as its heartbeat lines on stderr report it (rows committed), never on time.
import { startCli, type RunningCli } from './run-cli.js';

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
