import { join } from 'node:path';
import type { Progress } from '../../contract/incomplete.js';
import { JobState } from '../../contract/vocabulary/job-state.js';
import type { Host } from '../authoring/host.js';
import { workEnded } from '../call/final-envelope.js';
import type { Invocation } from '../call/invocation.js';
import { adoptSpool } from '../storage/stdin-spool.js';
import { DEFAULT_IDLE_TIMEOUT_MS } from '../authoring/budget.js';
import { newJobId } from './job-id.js';
import { STATUS_GRACE_MS, Verdict } from './job-liveness.js';
import { CONTINUED_ENDS } from './job-end.js';
import { settleJob } from './job-outcomes.js';
import { heartbeatOf, identityFields, type JobRecord, type JobStatus } from './job-record.js';
import type { JobStore } from './job-store.js';
import { identityOf } from './process-identity.js';
import { argvWithoutSecrets } from './argv-secrets.js';

/** The job of an invocation: one this call runs, or one another process runs that the call attaches to. */
export type Acquired =
  | { readonly kind: 'attach'; readonly id: string }
  | { readonly kind: 'own'; readonly job: JobRecord };

function newRecord(inv: Invocation, store: JobStore, id: string): JobRecord {
  const interruption = inv.command.spec.interruption!;
  const { idempotencyKey } = inv.options;
  return {
    id,
    key: inv.key,
    program: inv.program.identity.name,
    command: inv.command.path,
    argv: argvWithoutSecrets(inv.host.argv),
    cwd: inv.host.cwd,
    programWords: inv.host.programWords(),
    detach: interruption.detach,
    resume: interruption.resume,
    writes: inv.command.writes,
    ...(idempotencyKey !== undefined ? { idempotencyKey, keyGiven: inv.options.idempotencyKeyGiven } : {}),
    ...(inv.stdinPath ? { stdinPath: join(store.dir(id), 'stdin') } : {}),
    idleTimeoutMs: interruption.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    timeoutMs: inv.options.timeoutMs ?? 0,
    createdAt: inv.host.now(),
    born: inv.host.monotonic(),
  };
}

/**
 * Finds the job of this invocation or makes one. The identical invocation
 * attaches to a running job; a paused one is taken over; a dead one is
 * marked lost, a frozen one stalled, and a new job continues from the checkpoint.
 */
export async function acquireJob(inv: Invocation, store: JobStore): Promise<Acquired> {
  const id = newJobId(inv.command.id);
  // What a lost or stalled job had kept: the new job continues from that checkpoint, so it starts there.
  let carried: Progress | undefined;
  // That job, whose lease this call holds until its new job holds the key.
  let handing: string | undefined;
  const letGo = () => {
    if (handing) store.releaseLease(handing, inv.host.pid);
    handing = undefined;
  };
  for (let attempt = 0; attempt < 20; attempt++) {
    const claim = store.claimKey(inv.key, id);
    if (claim.kind === 'held' && handing) {
      // Another call made the new job first: this one's figures were for a job of its own.
      letGo();
      carried = undefined;
    }
    if (claim.kind === 'claimed') {
      const own = ownNewJob(inv, store, id, carried);
      letGo();
      return own;
    }
    if (!store.readRecord(claim.id)) {
      // Its creator is between the claim and the first write: wait for it. A claim it left, a folder deleted
      // or a damaged record (written whole by rename, so never half there) is cleared: a new job takes the key.
      const abandoned = store.exists(claim.id) || store.claimAgeMs(inv.key) > STATUS_GRACE_MS;
      const written = !abandoned && (await waitFor(inv.host, () => store.readRecord(claim.id) !== undefined));
      if (!written) store.releaseKey(inv.key, claim.id);
      continue;
    }
    const held = store.readRecord(claim.id)!;
    const look = { now: inv.host.now(), reading: inv.host.monotonic() };
    // A stalled or lost job is ended so (Ended then): the next round makes a new job continue from its checkpoint.
    const settled = settleJob(store, held, { look });
    switch (settled.verdict) {
      case Verdict.Starting:
        // Past this wait the job is old enough to be judged lost if its status is still unreadable.
        await waitFor(inv.host, () => store.readStatus(claim.id) !== undefined);
        continue;
      case Verdict.Ended: {
        const status = settled.status;
        // An answer its caller has not seen yet is the identical call's; after that the key goes to a new job.
        if (store.answerAwaited(claim.id, status)) return { kind: 'attach', id: claim.id };
        const handed = status && handOver(store, claim.id, inv.host.pid, status);
        if (handed === HANDOVER_BUSY) {
          await inv.host.sleep(20);
          continue;
        }
        if (handed) [handing, carried] = [claim.id, handed.progress];
        store.releaseKey(inv.key, claim.id);
        continue;
      }
      case Verdict.Running:
        return { kind: 'attach', id: claim.id };
      case Verdict.Paused:
        // Whoever takes the lease continues it; everyone else waits on it.
        if (!store.takeLease(claim.id, inv.host.pid)) return { kind: 'attach', id: claim.id };
        // Ended (a `job cancel`) between the look and the lease: not this call's to run; the next round sees the end.
        if (!store.readEnd(claim.id)) return { kind: 'own', job: held };
        store.releaseLease(claim.id, inv.host.pid);
        continue;
    }
  }
  letGo();
  throw new Error(`could not claim the job for invocation ${inv.key}`);
}

/** The new job this call owns, running (from the progress it carries on, if any), its lease taken. */
function ownNewJob(inv: Invocation, store: JobStore, id: string, carried: Progress | undefined): Acquired {
  const job = newRecord(inv, store, id);
  const now = inv.host.now();
  const self = { ...identityFields(identityOf(inv.host.pid)), ...heartbeatOf(inv.host.monotonic()) };
  const from = carried ? { progress: carried } : {};
  const running = { state: JobState.Running, ...self, startedAt: now, updatedAt: now, progressAt: now };
  store.create(job, { ...running, ...from });
  if (inv.stdinPath) adoptSpool(inv.stdinPath, store.dir(id));
  store.takeLease(id, inv.host.pid);
  return { kind: 'own', job };
}

/** A `job cancel` holds the ended job's lease: look again once it has let go. */
const HANDOVER_BUSY = 'busy';

/**
 * A job found lost or stalled (now or by an earlier observer, which left it the key) kept its checkpoint, and so
 * did one that failed on the way (a retryable error: the table locked, a worker lost); one cancelled or timed out
 * did not. The key passes from such a job to the new one under the job's lease, which a `job cancel` of it takes to
 * discard the checkpoint: the progress the new job starts from, or undefined when the work starts over.
 */
function handOver(
  store: JobStore, id: string, pid: number, status: JobStatus,
): { progress: Progress | undefined } | typeof HANDOVER_BUSY | undefined {
  if (!continues(status, store, id)) return undefined;
  if (!store.takeLease(id, pid)) return HANDOVER_BUSY;
  // Cancelled (its checkpoint discarded) before this call held the lease: the work starts over.
  const now = store.readStatus(id);
  if (now && continues(now, store, id)) return { progress: now.progress };
  store.releaseLease(id, pid);
  return undefined;
}

const continues = (status: JobStatus, store: JobStore, id: string): boolean =>
  CONTINUED_ENDS.includes(status.state) || keptOnFailure(status, store, id);

/** A job that failed with an answer that leaves the work to continue: its checkpoint stayed (final-envelope.ts). */
function keptOnFailure(status: JobStatus, store: JobStore, id: string): boolean {
  const answer = status.state === JobState.Failed ? store.readResult(id) : undefined;
  return answer !== undefined && !workEnded(answer.meta.exit_code);
}

/** Waits up to STATUS_GRACE_MS for a fact (no work runs yet); returns whether it became true. */
async function waitFor(host: Host, fact: () => boolean): Promise<boolean> {
  const since = host.now();
  while (!fact()) {
    if (host.now() - since > STATUS_GRACE_MS) return false;
    await host.sleep(20);
  }
  return true;
}
