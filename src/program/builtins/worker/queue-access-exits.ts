import { ErrorCode } from '../../../contract/error-code.js';
import { ExitCode, type ExitCodeEntry } from '../../../contract/exit-code.js';
import { SideEffects } from '../../../contract/vocabulary/side-effects.js';

/** How a command that connects to the queue's Redis fails at start. */
export const QUEUE_ACCESS_EXITS: Readonly<Partial<Record<ExitCode, ExitCodeEntry>>> = {
  [ExitCode.PRECONDITION]: {
    description: 'bullmq and ioredis, optional packages, are not installed (QUEUE_CLIENT_MISSING):'
      + ' run npm install bullmq ioredis',
    retryable: false, sideEffects: SideEffects.None, errorCodes: [ErrorCode.QueueClientMissing],
  },
  [ExitCode.UNAVAILABLE]: {
    description: 'Redis cannot be reached at start (QUEUE_UNREACHABLE, naming the URL without its password)',
    retryable: true, sideEffects: SideEffects.None, errorCodes: [ErrorCode.QueueUnreachable],
  },
  [ExitCode.AUTH_REQUIRED]: {
    description: 'Redis refused the credentials (AUTH_REQUIRED): set STINT_QUEUE_PASSWORD (and the user in the URL)',
    retryable: false, sideEffects: SideEffects.None, errorCodes: [ErrorCode.AuthRequired],
  },
  [ExitCode.PERMISSION_DENIED]: {
    description: 'The Redis user lacks a right the queue needs (PERMISSION_DENIED): see docs/many-machines.md (ACL)',
    retryable: false, sideEffects: SideEffects.None, errorCodes: [ErrorCode.PermissionDenied],
  },
};
