import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh folder for one test file (state dir, inputs), removed when the process ends. */
export function tempWorld(name: string): { readonly dir: string; path(...parts: string[]): string } {
  const dir = mkdtempSync(join(tmpdir(), `stint-${name}-`));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return { dir, path: (...parts) => join(dir, ...parts) };
}
