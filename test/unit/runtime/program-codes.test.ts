import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeTable } from '../../../src/contract/code-table.js';
import { defineErrorCodes, defineWarningCodes } from '../../../src/contract/declared-codes.js';
import { ExitCode } from '../../../src/contract/exit-code.js';
import { StintError } from '../../../src/contract/stint-error.js';
import type { CommandSpec } from '../../../src/runtime/authoring/command-spec.js';
import { registerCommand } from '../../../src/runtime/authoring/define-command.js';
import { createProgram } from '../../../src/program/program.js';
import { resultOfThrown } from '../../../src/runtime/call/thrown.js';
import { checkCodes } from '../../../src/runtime/call/undeclared-code.js';

const RowCode = defineErrorCodes({
  RowRejected: { code: 'ROW_REJECTED', exitCode: ExitCode.PRECONDITION, retryable: false, description: 'a bad row' },
  Busy: { code: 'BUSY', exitCode: ExitCode.UNAVAILABLE, retryable: true, description: 'someone else holds the store' },
});
const RowWarning = defineWarningCodes({ RowSkipped: { code: 'ROW_SKIPPED', description: 'a row was skipped' } });
const table = codeTable([RowCode, RowWarning]);
const ok = { description: 'Done', retryable: false, sideEffects: 'complete' } as const;
const spec = (listed: readonly string[]): CommandSpec => ({
  name: 'work', description: 'x', dangerLevel: 'safe', run: async () => ({ exitCode: ExitCode.SUCCESS }),
  exitCodes: {
    [ExitCode.SUCCESS]: ok,
    [ExitCode.PRECONDITION]: { description: 'Rejected', retryable: false, sideEffects: 'none', errorCodes: listed },
  },
});
const command = registerCommand(spec([]), false);

test('a thrown code of the program takes its declared exit code and retryability', () => {
  const thrown = resultOfThrown(new StintError(RowCode.Busy, 'held'), table);
  assert.equal(thrown.exitCode, ExitCode.UNAVAILABLE);
  assert.deepEqual(checkCodes(command, thrown, table).error, { code: 'BUSY', message: 'held', retryable: true });
  const framework = resultOfThrown(new StintError('FILE_NOT_FOUND', 'gone'), table);
  assert.equal(framework.exitCode, ExitCode.NOT_FOUND);
});

test('a code no one declares, or a declared one under another exit, is refused as UNDECLARED_ERROR_CODE', () => {
  const stray = checkCodes(command, resultOfThrown(new StintError('STRAY', 'x'), table), table);
  assert.equal(stray.exitCode, ExitCode.GENERAL_ERROR);
  assert.equal(stray.error?.code, 'UNDECLARED_ERROR_CODE');
  const underConflict = { exitCode: ExitCode.CONFLICT, error: { code: RowCode.RowRejected, message: 'x' } };
  const misfiled = checkCodes(command, underConflict, table);
  assert.equal(misfiled.error?.code, 'UNDECLARED_ERROR_CODE');
  assert.equal(misfiled.error?.context?.['declared_exit_code'], ExitCode.PRECONDITION);
  const warned = checkCodes(command, { exitCode: ExitCode.SUCCESS, warnings: [{ code: 'STRAY', message: '' }] }, table);
  assert.equal(warned.error?.code, 'UNDECLARED_WARNING_CODE');
  const fine = { exitCode: ExitCode.SUCCESS, warnings: [{ code: 'ROW_SKIPPED', message: 'x' }] };
  assert.equal(checkCodes(command, fine, table), fine);
});

test('createProgram refuses codes declared twice and listed codes it does not declare under that exit', () => {
  const refusal = (build: () => unknown): unknown => {
    try {
      build();
    } catch (error) {
      assert.ok(error instanceof StintError && error.code === 'REGISTRATION_REFUSED');
      return error.extras.context?.['field'];
    }
    return assert.fail('not refused');
  };
  const program = (listed: readonly string[], codes: readonly unknown[]) => () =>
    createProgram({ name: 'p', version: '1.0.0', description: 'x', commands: [spec(listed)], codes: codes as never });
  assert.equal(refusal(program([], [RowCode, RowCode])), 'codes.1');
  assert.equal(refusal(program(['STRAY'], [RowCode])), 'exitCodes.4.errorCodes');
  assert.equal(refusal(program(['BUSY'], [RowCode])), 'exitCodes.4.errorCodes');
  assert.doesNotThrow(program(['ROW_REJECTED', 'NOT_A_FILE'], [RowCode]));
});
