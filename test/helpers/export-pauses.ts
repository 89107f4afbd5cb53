// An export paused by its budget and continued with its continue_command until it ends.
import { envelopeOf, runShell, type CliRun } from './run-cli.js';

/** Calls that pause before the rest run without a budget (any machine then finishes). */
const SLOW_CALLS = 5;

/** Runs `command` under a 300 ms budget, then each continue_command; answers the last run and the pauses. */
export async function exportInPauses(command: string, env: Record<string, string>):
Promise<{ run: CliRun; pauses: number }> {
  const slow = { ...env, AGENT_CALL_BUDGET_MS: '300' };
  let run = await runShell(command, slow);
  let pauses = 0;
  while (run.code === 14 && pauses < 50) {
    pauses++;
    run = await runShell(String(envelopeOf(run).data!['continue_command']), pauses >= SLOW_CALLS ? env : slow);
  }
  return { run, pauses };
}
