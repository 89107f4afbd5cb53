// The program's own error code. The worker-side map raises it, so this file imports from stint/worker only.
import { defineErrorCodes, ExitCode } from 'stint/worker';

export const RowCode = defineErrorCodes({
  BadRow: {
    code: 'BAD_ROW',
    exitCode: ExitCode.PRECONDITION,
    retryable: false,
    description: 'A line is not id,name,amount with an integer id; the rows before it are committed',
  },
});
