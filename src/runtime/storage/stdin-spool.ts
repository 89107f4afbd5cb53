import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';
import type { StdinSpec } from '../authoring/command-spec.js';
import type { Host } from '../authoring/host.js';
import { ensurePrivateDir } from './state-dir.js';

/** The buffered mode's cap unless the command's maxBytes says otherwise; line and record modes spool any size. */
export const STDIN_BUFFERED_MAX = 65_536;

export interface Spooled {
  readonly path: string;
  /** sha256 of the bytes: part of the invocation's identity. */
  readonly digest: string;
  readonly bytes: number;
}

/**
 * Copies the caller's stdin to a private file before any work starts, so a
 * background job never reads the caller's stdin and the identical input
 * makes the identical invocation. A terminal on stdin is no input: asking a
 * person to type would hang an agent.
 */
export async function spoolStdin(host: Host, spec: StdinSpec, stateRoot: string): Promise<Spooled> {
  if (host.stdinIsTTY) {
    throw new StintError(ErrorCode.InputRequired, 'this command reads its input from stdin, and stdin is a terminal', {
      fix_required: 'Pipe or redirect the input: ... < file, or producer | command',
      suggestion: 'Run it with stdin redirected from the input file',
    });
  }
  const dir = ensurePrivateDir(stateRoot, 'spool');
  const path = join(dir, `${randomBytes(8).toString('hex')}.stdin`);
  const limit = spec.mode === 'buffered' ? (spec.maxBytes ?? STDIN_BUFFERED_MAX) : Infinity;
  const hash = createHash('sha256');
  const fd = openSync(path, 'w', 0o600);
  let bytes = 0;
  try {
    for await (const chunk of host.readStdin()) {
      bytes += chunk.length;
      if (bytes > limit) {
        throw new StintError(ErrorCode.StdinTooLarge, `stdin holds more than ${limit} bytes`, {
          phase: 'validation',
          fix_required: 'Pass the input as a file instead',
        });
      }
      hash.update(chunk);
      writeSync(fd, chunk);
    }
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw error;
  }
  closeSync(fd);
  return { path, digest: hash.digest('hex'), bytes };
}

/** Moves a spool into a job's folder (same filesystem: a rename). */
export function adoptSpool(spool: string, jobDir: string): string {
  const target = join(jobDir, 'stdin');
  renameSync(spool, target);
  return target;
}
