import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import type { Host } from '../authoring/host.js';
import { secretEnvOf } from './argv-secrets.js';
import type { JobRecord } from './job-record.js';
import type { JobStore } from './job-store.js';
import { identityOf, type ProcessIdentity } from './process-identity.js';

/** Set in a background supervisor's environment to the id of the job it runs. */
export const SUPERVISE_ENV = 'STINT_SUPERVISE';

/**
 * Starts the detached supervisor: the same program, in its own session,
 * holding none of the caller's descriptors (stdin ignored, stdout and stderr
 * to the job's log), so a caller reading our pipe to EOF returns at once.
 * Returns its identity, read while it is surely our unreaped child.
 */
export function spawnSupervisor(host: Host, store: JobStore, job: JobRecord): ProcessIdentity {
  const log = openSync(store.logPath(job.id), 'a', 0o600);
  try {
    const self = host.selfCommand();
    const child = spawn(self.file, [...self.args], {
      cwd: job.cwd,
      // The job's argv holds no password: the supervisor takes the call's from its environment, never a file.
      env: { ...host.env, ...secretEnvOf(host.argv), [SUPERVISE_ENV]: job.id },
      detached: true,
      stdio: ['ignore', log, log],
    });
    child.unref();
    return identityOf(child.pid ?? 0);
  } finally {
    closeSync(log);
  }
}
