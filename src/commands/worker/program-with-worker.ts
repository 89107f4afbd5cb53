import { createProgram as createBareProgram, type Program, type ProgramSpec } from '../../runtime/program/program.js';
import { workerCommand } from './worker-command.js';

/**
 * A program with the `worker` command beside its own: the chunks its commands' --queue puts on Redis run on
 * `<program> worker`, which imports the same map modules. A program that declares its own `worker` keeps it.
 */
export function createProgram(spec: ProgramSpec): Program {
  const own = spec.commands.some((command) => command.name === 'worker');
  return createBareProgram(spec, own ? [] : [workerCommand(spec.version)]);
}
