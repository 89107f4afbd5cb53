import { registerMaps } from '../engine/map-registry.js';
import { createProgram as createBareProgram, type Program, type ProgramSpec } from './program.js';
import { workerCommand } from './builtins/worker/worker-command.js';
import { workerListCommand } from './builtins/worker/worker-list-command.js';

/**
 * A program with the `worker` command beside its own: the chunks its commands' --queue puts on Redis run on
 * `<program> worker`, which runs the maps its commands register (`maps`) and nothing else. A program that
 * declares its own `worker` keeps it.
 */
export function createProgram(spec: ProgramSpec): Program {
  registerMaps(spec.name, spec.version, registeredMaps(spec));
  const own = spec.commands.some((command) => command.name === 'worker');
  return createBareProgram(spec, own ? [] : [workerCommand(spec.version), workerListCommand()]);
}

/** Each command's maps, named `<command>:<name>` (a command's words joined by `-`). */
function registeredMaps(spec: ProgramSpec): Map<string, string> {
  const maps = new Map<string, string>();
  for (const command of spec.commands) {
    const prefix = command.name.replaceAll(' ', '-');
    for (const [name, url] of Object.entries(command.maps ?? {})) maps.set(`${prefix}:${name}`, url);
  }
  return maps;
}
