import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { readJsonFile, writeFileAtomic } from './atomic-file.js';

export const checkpointDirFor = (stateRoot: string, key: string): string => join(stateRoot, 'checkpoints', key);
/** Beside the checkpoint, not in it: the checkpoint is a LevelDB folder, and a cancel must not need to open it. */
const scratchListFor = (stateRoot: string, key: string): string =>
  join(stateRoot, 'checkpoints', `${key}.scratch.json`);

/** Names a file outside the state folder that the checkpoint owns (ctx.scratchFile): a discard removes it. */
export function recordScratchFile(stateRoot: string, key: string, path: string): void {
  const list = scratchListFor(stateRoot, key);
  const known = readJsonFile<string[]>(list) ?? [];
  if (!known.includes(path)) writeFileAtomic(list, JSON.stringify([...known, path]));
}

/** What a discard would remove: whether a checkpoint is there, and the scratch files it names. */
export function checkpointHeld(stateRoot: string, key: string): { checkpoint: boolean; scratchFiles: string[] } {
  const scratchFiles = readJsonFile<string[]>(scratchListFor(stateRoot, key)) ?? [];
  return { checkpoint: existsSync(checkpointDirFor(stateRoot, key)), scratchFiles };
}

/** Removes a checkpoint and the scratch files it named (ctx.scratchFile). */
export function discardCheckpoint(stateRoot: string, key: string): void {
  const list = scratchListFor(stateRoot, key);
  for (const path of readJsonFile<string[]>(list) ?? []) rmSync(path, { force: true });
  rmSync(list, { force: true });
  rmSync(checkpointDirFor(stateRoot, key), { recursive: true, force: true });
}
