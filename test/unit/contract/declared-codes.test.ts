import { test } from 'node:test';
import assert from 'node:assert/strict';
import { codeTable } from '../../../src/contract/code-table.js';
import {
  declarationsOf, defineErrorCodes, defineWarningCodes, type ErrorCodeDeclaration,
} from '../../../src/contract/declared-codes.js';
import { ExitCode } from '../../../src/contract/exit-code.js';
import { StintError } from '../../../src/contract/stint-error.js';

const rejected = {
  code: 'ROW_REJECTED', exitCode: ExitCode.PRECONDITION, retryable: false, description: 'a row broke the schema',
} as const;

/** The field a REGISTRATION_REFUSED names, from whatever `declare` threw. */
function refusedField(declare: () => unknown): unknown {
  try {
    declare();
  } catch (error) {
    assert.ok(error instanceof StintError);
    assert.equal(error.code, 'REGISTRATION_REFUSED');
    return error.extras.context?.['field'];
  }
  assert.fail('the declaration was not refused');
}

const errorsWith = (declaration: Partial<Record<keyof ErrorCodeDeclaration, unknown>>) => () =>
  defineErrorCodes({
    RowRejected: rejected,
    Other: { ...rejected, code: 'OTHER', ...declaration } as ErrorCodeDeclaration,
  });

test('declared codes come back by name, as their wire codes, and keep their declarations', () => {
  const RowCode = defineErrorCodes({ RowRejected: rejected });
  assert.equal(RowCode.RowRejected, 'ROW_REJECTED');
  assert.deepEqual(Object.values(RowCode), ['ROW_REJECTED'], 'the declarations stay out of Object.values');
  assert.deepEqual(declarationsOf(RowCode), { kind: 'error', declarations: [rejected] });
  assert.ok(Object.isFrozen(RowCode));
  const thrown = new StintError(RowCode.RowRejected, 'x');
  assert.equal(thrown.code, 'ROW_REJECTED');
  assert.equal(thrown.exitCode, undefined, 'the program, not the error, knows its exit code');
});

test('each contradiction in a declaration is refused naming its field', () => {
  assert.equal(refusedField(errorsWith({ code: 'ROW_REJECTED' })), 'Other.code');
  assert.equal(refusedField(errorsWith({ code: 'NOT_A_FILE' })), 'Other.code');
  assert.equal(refusedField(errorsWith({ code: 'lower_case' })), 'Other.code');
  assert.equal(refusedField(errorsWith({ code: undefined })), 'Other.code');
  for (const exitCode of [0, 14, 15, 130, 2.5, '4', undefined]) {
    assert.equal(refusedField(errorsWith({ exitCode })), 'Other.exitCode', String(exitCode));
  }
  assert.equal(refusedField(errorsWith({ retryable: 'no' })), 'Other.retryable');
  assert.equal(refusedField(errorsWith({ description: '' })), 'Other.description');
  const mine = { code: 'MINE', description: 'x' };
  const framework = { ...mine, code: 'CHECKPOINT_DISCARDED' };
  assert.equal(refusedField(() => defineWarningCodes({ Mine: framework })), 'Mine.code');
  assert.equal(refusedField(() => defineWarningCodes({ Mine: mine, Again: mine })), 'Again.code');
});

test('a program\'s table knows the framework\'s codes and its own, and refuses a code declared twice', () => {
  const RowCode = defineErrorCodes({ RowRejected: rejected });
  const RowWarning = defineWarningCodes({ RowSkipped: { code: 'ROW_SKIPPED', description: 'a row was skipped' } });
  const table = codeTable([RowCode, RowWarning]);
  assert.equal(table.exitCodeOf('ROW_REJECTED'), ExitCode.PRECONDITION);
  assert.equal(table.exitCodeOf('FILE_NOT_FOUND'), ExitCode.NOT_FOUND);
  assert.equal(table.exitCodeOf('NEVER_DECLARED'), undefined);
  assert.equal(table.declaredError('FILE_NOT_FOUND'), undefined);
  assert.ok(table.knowsWarning('ROW_SKIPPED') && table.knowsWarning('CHECKPOINT_DISCARDED'));
  assert.ok(!table.knowsWarning('ROW_REJECTED'), 'an error code is no warning code');
  assert.equal(refusedField(() => codeTable([RowCode, defineErrorCodes({ Again: rejected })])), 'codes.1');
  assert.equal(refusedField(() => codeTable([{ RowRejected: 'ROW_REJECTED' }])), 'codes.0');
});
