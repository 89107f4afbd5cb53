import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The map modules a program's commands register (defineCommand's `maps`), by name. A queue worker runs only
 * these: a chunk job names a map by its name and the program's build, never by a module URL, so whoever can
 * write to Redis cannot make a worker import a module of their choosing (a `data:` URL, a file elsewhere).
 */
interface Registry {
  readonly program: string;
  readonly version: string;
  readonly byName: ReadonlyMap<string, string>;
}

let registry: Registry = { program: '', version: '', byName: new Map() };
let build: string | undefined;

/** Set once by createProgram, for the process: the coordinator and its workers run the same program. */
export function registerMaps(program: string, version: string, maps: ReadonlyMap<string, string>): void {
  registry = { program, version, byName: new Map(maps) };
  build = undefined;
}

/** The program the registry is of (the queue's default namespace). */
export const registeredProgram = (): string => registry.program || 'stint';

/** The module URL of a registered map, or undefined: what a worker imports for a job's map name. */
export const mapUrlOf = (name: string): string | undefined => registry.byName.get(name);

/** The name a map module is registered under, or undefined when no command of the program registers it. */
export function mapNameOf(url: string): string | undefined {
  for (const [name, registered] of registry.byName) if (registered === url) return name;
  return undefined;
}

/**
 * The program's build identity: a digest of its name, version and each registered map's name and module
 * contents. A worker takes only chunks of its own build, so a worker of another build (an older install, a
 * map changed since) never maps chunks whose partials its coordinator folds differently.
 */
export function buildIdentity(): string {
  if (build !== undefined) return build;
  const hash = createHash('sha256').update(`${registry.program}\0${registry.version}\0`);
  for (const name of [...registry.byName.keys()].sort()) {
    const url = registry.byName.get(name)!;
    hash.update(`${name}\0${url.slice(url.lastIndexOf('/') + 1)}\0`).update(moduleBytes(url));
  }
  return (build = hash.digest('hex').slice(0, 16));
}

/** A file: module's contents (what the build is made of); another scheme's URL itself. */
function moduleBytes(url: string): Uint8Array | string {
  if (!url.startsWith('file:')) return url;
  try {
    return readFileSync(fileURLToPath(url));
  } catch {
    return url;
  }
}
