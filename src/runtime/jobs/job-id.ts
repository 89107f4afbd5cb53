import { randomBytes } from 'node:crypto';

/** Job ids are `<command>-<8 hex>`: safe in paths and shells without quoting. */
const JOB_ID = /^[a-z][a-z0-9-]{0,40}-[0-9a-f]{8}$/;

export function newJobId(commandId: string): string {
  return `${commandId.replace(/[^a-z0-9]+/g, '-').slice(0, 40)}-${randomBytes(4).toString('hex')}`;
}

export function isJobId(text: string): boolean {
  return JOB_ID.test(text);
}
