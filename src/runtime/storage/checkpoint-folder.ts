import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Progress } from '../../contract/incomplete.js';
import { readJsonFile, writeFileAtomic } from './atomic-file.js';

export const checkpointDirFor = (stateRoot: string, key: string): string => join(stateRoot, 'checkpoints', key);
/** Beside the checkpoint, not in it: the checkpoint is a LevelDB folder, and a cancel must not need to open it. */
const scratchListFor = (stateRoot: string, key: string): string =>
  join(stateRoot, 'checkpoints', `${key}.scratch.json`);

/**
 * What the checkpoint's last save stands for, readable without opening it: a call forced to answer before its
 * work has opened the checkpoint (LevelDB is slow to open on a loaded machine) still answers the progress a
 * continuation resumes from. In the LevelDB folder, which leaves files of other names alone, so that it goes
 * wherever the checkpoint goes.
 */
const keptProgressFor = (stateRoot: string, key: string): string =>
  join(checkpointDirFor(stateRoot, key), 'stint-progress.json');

/** Written after each save; not fsynced: one lost with a crash only understates what the checkpoint holds. */
export function recordKeptProgress(stateRoot: string, key: string, progress: Progress): void {
  writeFileAtomic(keptProgressFor(stateRoot, key), JSON.stringify(progress), false);
}

/** The progress the checkpoint's last save stands for, when it is known. */
export function keptProgress(stateRoot: string, key: string): Progress | undefined {
  const kept = readJsonFile<Progress>(keptProgressFor(stateRoot, key));
  return typeof kept?.done === 'number' && Number.isFinite(kept.done) ? kept : undefined;
}

/** The checkpoint was cleared in place (its input changed): what it stood for is gone too. */
export function forgetKeptProgress(stateRoot: string, key: string): void {
  rmSync(keptProgressFor(stateRoot, key), { force: true });
}

/** Names a file outside the state folder that the checkpoint owns (ctx.scratchFile): a discard removes it. */
export function recordScratchFile(stateRoot: string, key: string, path: string): void {
  const list = scratchListFor(stateRoot, key);
  const known = readJsonFile<string[]>(list) ?? [];
  if (!known.includes(path)) writeFileAtomic(list, JSON.stringify([...known, path]));
}

/**
 * What a discard would remove: whether a checkpoint was saved (its note of progress is there: a database opened
 * ahead of its first save holds nothing yet), and the scratch files it names.
 */
export function checkpointHeld(stateRoot: string, key: string): { checkpoint: boolean; scratchFiles: string[] } {
  const scratchFiles = readJsonFile<string[]>(scratchListFor(stateRoot, key)) ?? [];
  return { checkpoint: existsSync(keptProgressFor(stateRoot, key)), scratchFiles };
}

/** Removes a checkpoint and the scratch files it named (ctx.scratchFile). */
export function discardCheckpoint(stateRoot: string, key: string): void {
  const list = scratchListFor(stateRoot, key);
  for (const path of readJsonFile<string[]>(list) ?? []) rmSync(path, { force: true });
  rmSync(list, { force: true });
  forgetKeptProgress(stateRoot, key);
  rmSync(checkpointDirFor(stateRoot, key), { recursive: true, force: true });
}
