import { ErrorCode } from '../../contract/error-code.js';
import { StintError } from '../../contract/stint-error.js';

// This file loads neither package: it is what the callers of the queue's modules import statically.

/**
 * The packages a queue (--queue, `worker`) needs, with package.json's ranges (its optional peerDependencies;
 * test/unit/engine/queue-client.test.ts keeps them equal): an install without them runs everything else.
 */
export const QUEUE_PACKAGES = { bullmq: '^6.7.0', ioredis: '^6.0.0' } as const;

/** The command that installs them, with the ranges this build supports. */
export const QUEUE_INSTALL = `npm install ${Object.entries(QUEUE_PACKAGES).map(([name, range]) => `${name}@${range}`)
  .join(' ')}`;

/** Node's words for a bare specifier that resolves nowhere (ESM: "package"; CommonJS: "module"). */
const NOT_FOUND = /^Cannot find (?:package|module) '(bullmq|ioredis)'/;

/**
 * The module `load` imports, which imports bullmq or ioredis: when one of them is not installed, a coded
 * QUEUE_CLIENT_MISSING naming what to install. Any other failure (a file missing inside an installed package,
 * an error while a module runs) is rethrown as it is: it is not the missing install this error tells of.
 */
export async function loadQueueModule<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw missingQueueClient(error) ?? error;
  }
}

/** The coded error for a failed import that did not find bullmq or ioredis; undefined for any other failure. */
export function missingQueueClient(error: unknown): StintError | undefined {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const missing = typeof message === 'string' ? NOT_FOUND.exec(message)?.[1] : undefined;
  if (!missing) return undefined;
  return new StintError(ErrorCode.QueueClientMissing,
    `a queue (--queue, worker) needs bullmq and ioredis, optional packages not installed here (${missing} is`
    + ' missing): run npm install bullmq ioredis', {
      retryable: false,
      context: { missing, install: QUEUE_INSTALL },
      suggestion: `Run ${QUEUE_INSTALL} where the program is installed (add -g for a global install),`
        + ' then run the same command again',
    });
}
