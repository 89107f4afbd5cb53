import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The real file a shell runs for a word: a path (absolute, or with a slash: from the current folder) as it is (it
 * need not be executable: a runner may read it); a bare name as PATH finds it, the first executable one, in no
 * folder `skip` rules out.
 */
export function realFileOf(word: string, env: Env, skip: (dir: string) => boolean = () => false): string | undefined {
  if (word.includes('/')) return realOrUndefined(resolve(word));
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (!dir || skip(dir)) continue;
    try {
      accessSync(join(dir, word), constants.X_OK);
      return realpathSync(join(dir, word));
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** The real file behind a path, or the path itself when it cannot be resolved. */
export const realOr = (path: string): string => realOrUndefined(path) ?? path;

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}
