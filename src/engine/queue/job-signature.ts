import { createHmac, timingSafeEqual } from 'node:crypto';
import { QueueEnv } from './queue-connection.js';

/**
 * With STINT_QUEUE_SECRET set (the same on the coordinator and every worker), each chunk job and each result
 * carries an HMAC-SHA256 of what it says: a worker drops a job that does not verify (forged, or altered in
 * Redis), and a coordinator drops a result that does not (and has the chunk run again).
 */
export const queueSecret = (): string | undefined => process.env[QueueEnv.Secret] || undefined;

/** The signature of the parts, in order (each ends with a NUL, so no two splits of one text sign alike). */
export function signed(secret: string, parts: readonly string[]): string {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(part).update('\0');
  return mac.digest('hex');
}

/** True when there is no secret, or when `signature` is the parts' signature under it. */
export function verifies(secret: string | undefined, signature: unknown, parts: readonly string[]): boolean {
  if (secret === undefined) return true;
  if (typeof signature !== 'string') return false;
  const expected = Buffer.from(signed(secret, parts), 'hex');
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
