import type { StopReason } from '../../contract/vocabulary/stop-reason.js';

/**
 * One pending stop request per call. The first reason wins: a budget stop
 * that is then interrupted by SIGINT stays a budget stop, so a caller gets
 * one consistent answer.
 */
export class StopController {
  private current: StopReason | undefined;
  private readonly listeners: ((reason: StopReason) => void)[] = [];

  request(reason: StopReason): void {
    if (this.current !== undefined) return;
    this.current = reason;
    for (const listener of this.listeners) listener(reason);
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
