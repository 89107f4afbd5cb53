import { buildEnvelope } from '../contract/envelope.js';
import { ExitCode } from '../contract/exit-code.js';
import type { Program } from '../program/program.js';
import { resultOfThrown } from '../runtime/call/thrown.js';
import { SUPERVISE_ENV } from '../runtime/jobs/supervisor.js';
import { renderJson } from '../runtime/cli/render.js';
import { processHost } from './process-host.js';

/**
 * Runs a program as this process: argv in, one envelope out, exit code set.
 * Pass a factory (it may import the commands) so that a refused registration,
 * even one thrown while a command's module loads, becomes an envelope too.
 * This is the only module that touches the process.
 */
export async function runCli(program: Program | (() => Program | Promise<Program>)): Promise<void> {
  // A reader that went away (`stint ... | head -c1`) ends us quietly: exit 0, no stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(ExitCode.SUCCESS);
    throw error;
  });
  process.stderr.on('error', () => {});
  const host = processHost();
  let exitCode: number;
  try {
    const resolved = typeof program === 'function' ? await program() : program;
    const jobId = host.env[SUPERVISE_ENV];
    exitCode = jobId ? await resolved.supervise(host, jobId) : await resolved.main(host);
  } catch (thrown) {
    // Registration refused, or a defect in the runtime itself: still one envelope.
    const result = resultOfThrown(thrown);
    const started = host.now();
    const durationMs = host.now() - started;
    const envelope = buildEnvelope({ exitCode: result.exitCode, durationMs, error: result.error ?? null });
    await host.writeStdout(renderJson(envelope));
    if (host.env['STINT_DEBUG'] && thrown instanceof Error) host.writeStderr(`${thrown.stack ?? thrown.message}\n`);
    exitCode = result.exitCode;
  }
  process.exit(exitCode);
}
