import type { CodeTable } from '../contract/code-table.js';
import { ErrorCode } from '../contract/error-code.js';
import { StintError } from '../contract/stint-error.js';
import type { RegisteredCommand } from '../runtime/authoring/define-command.js';

/**
 * The error codes a command lists under an exit code (`errorCodes`, shown in the manifest) are codes its
 * program may emit, each under the exit code it is declared with: the manifest never names a code the
 * call could not answer.
 */
export function checkListedCodes(commands: readonly RegisteredCommand[], codes: CodeTable): void {
  for (const command of commands) {
    for (const [key, entry] of Object.entries(command.exitCodes)) {
      for (const code of entry.errorCodes ?? []) {
        const exit = codes.exitCodeOf(code);
        if (exit === Number(key)) continue;
        const name = command.path.join(' ');
        const field = `exitCodes.${key}.errorCodes`;
        const why = exit === undefined ? 'the program does not declare it' : `it is declared with exit ${exit}`;
        throw new StintError(ErrorCode.RegistrationRefused, `command "${name}": ${field}: ${code}: ${why}`, {
          context: { command: name, field, code },
          phase: 'validation',
        });
      }
    }
  }
}
