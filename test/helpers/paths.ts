import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

/** The repository root, found from the compiled test file (build/test/helpers). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const STINT_BIN = join(REPO_ROOT, 'build', 'src', 'bin', 'stint.js');
export const fixturePath = (...parts: string[]): string => join(REPO_ROOT, 'fixtures', ...parts);
export const programPath = (name: string): string => join(REPO_ROOT, 'build', 'fixtures', 'programs', `${name}.js`);
