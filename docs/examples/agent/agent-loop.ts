#!/usr/bin/env node
// An agent's loop in TypeScript: `agent-loop '<command line>'` runs the command, then its continue_command
// until the exit is not 14, and says whether the answer is the whole answer.
import { execFile } from 'node:child_process';
import { continueUntilDone, Coverage, ExitCode, RunStatus, type Envelope } from 'stint/client';

/** One command line through a shell, as the contract asks; a failure prints its envelope too. */
const run = (line: string) => new Promise<Envelope>((resolve, reject) => {
  execFile('sh', ['-c', line], { maxBuffer: 64 * 1024 * 1024 }, (failed, stdout) => {
    try {
      resolve(JSON.parse(stdout) as Envelope);
    } catch {
      reject(failed ?? new Error(`no envelope from: ${line}`));
    }
  });
});

const result = await continueUntilDone(await run(process.argv[2]!), { run });
const { response } = result;
const coverage = (response.data as { coverage?: Coverage } | null)?.coverage;
// Whole only when the work ended with 0 and its data does not say it covers less than asked.
const whole = result.status === RunStatus.Done && response.meta.exit_code === ExitCode.SUCCESS
  && (coverage === undefined || coverage === Coverage.Complete);
console.log(JSON.stringify({ status: result.status, limit: result.limit, exit_code: response.meta.exit_code, whole }));
process.exitCode = whole ? 0 : 1;
