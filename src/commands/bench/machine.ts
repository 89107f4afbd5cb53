import { availableParallelism, cpus, totalmem } from 'node:os';

/** The machine a benchmark ran on: figures mean little without it. */
export interface Machine {
  readonly cores: number;
  readonly memory_bytes: number;
  readonly cpu: string;
  readonly node: string;
  readonly platform: string;
  readonly arch: string;
}

export function thisMachine(): Machine {
  return {
    cores: availableParallelism(),
    memory_bytes: totalmem(),
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: process.platform,
    arch: process.arch,
  };
}
