import type { StopReason } from '../../contract/vocabulary/stop-reason.js';

/**
 * One pending stop request per call. The first reason wins: a budget stop
 * that is then interrupted by SIGINT stays a budget stop, so a caller gets
 * one consistent answer.
 *
 * A requested stop waits for the work's next safe point. Once it is urgent
 * (a signal, or the budget's last moment to commit), the work stops at its
 * last safe point instead when the next one waits on work in flight (a chunk
 * a queue worker holds).
 */
export class StopController {
  private current: StopReason | undefined;
  private readonly listeners: ((reason: StopReason) => void)[] = [];
  private urge!: () => void;
  /** Resolves once a requested stop is urgent; never otherwise. */
  readonly urgent: Promise<void> = new Promise((resolve) => (this.urge = resolve));

  request(reason: StopReason): void {
    if (this.current !== undefined) return;
    this.current = reason;
    for (const listener of this.listeners) listener(reason);
  }

  /** The stop, requested first when it was not, no longer waits for work in flight. */
  hurry(reason: StopReason): void {
    this.request(reason);
    this.urge();
  }

  get reason(): StopReason | undefined {
    return this.current;
  }

  get requested(): boolean {
    return this.current !== undefined;
  }

  onRequest(listener: (reason: StopReason) => void): void {
    this.listeners.push(listener);
  }
}
