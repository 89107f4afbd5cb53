import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectInput } from '../../engine/input-file.js';
import { writeBigCsv } from './big-csv.js';

/** What a benchmark reads, and the scratch folder (its state, a generated file) removed when it ends. */
export interface BenchInput {
  readonly path: string;
  readonly bytes: number;
  readonly generated: boolean;
  readonly scratch: string;
  remove(): void;
}

/** The seed of generated input: the same size gives the same bytes on every machine. */
const SEED = 42;

/** The caller's file (refused with the engine's own codes when it cannot be read), or a generated CSV. */
export function benchInput(cwd: string, input: string | undefined, size: number): BenchInput {
  let file: { path: string; bytes: number } | undefined;
  if (input !== undefined) {
    const inspected = inspectInput(input, cwd);
    if (inspected.kind === 'bad') throw inspected.error;
    file = { path: inspected.absolute, bytes: inspected.size };
  }
  const scratch = mkdtempSync(join(tmpdir(), 'stint-bench-'));
  // A signal answers CANCELLED at once and the process exits without unwinding: the scratch goes with it.
  const onExit = () => rmSync(scratch, { recursive: true, force: true });
  process.once('exit', onExit);
  const remove = () => {
    process.off('exit', onExit);
    onExit();
  };
  if (file) return { ...file, generated: false, scratch, remove };
  const path = join(scratch, `generated-${size}.csv`);
  try {
    return { path, bytes: writeBigCsv(path, size, SEED), generated: true, scratch, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
