// What a stint call's checkpoint holds, read straight from its state folder (a test looks, the CLI writes).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { Level } from 'level';
import { unpack } from 'msgpackr';

/** The progress.done of the one checkpoint under `stateDir`, or undefined when there is none yet. */
export async function checkpointDone(stateDir: string): Promise<number | undefined> {
  const dir = `${stateDir}/checkpoints`;
  const keys = readdirSync(dir);
  if (keys.length === 0) return undefined;
  assert.equal(keys.length, 1, 'one invocation, one checkpoint');
  const db = new Level<string, Uint8Array>(`${dir}/${keys[0]}`, { valueEncoding: 'view' });
  await db.open();
  try {
    const bytes = await db.get('checkpoint');
    return bytes ? (unpack(bytes) as { progress: { done: number } }).progress.done : undefined;
  } finally {
    await db.close();
  }
}
