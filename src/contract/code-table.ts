import { CodeKind, declarationsOf, type ErrorCodeDeclaration, type WarningCodeDeclaration } from './declared-codes.js';
import { ErrorCode, EXIT_CODE_OF } from './error-code.js';
import type { ExitCode } from './exit-code.js';
import { StintError } from './stint-error.js';
import { WarningCode } from './warning-code.js';

/** Every code one program may emit: the framework's and the ones it declares. */
export interface CodeTable {
  /** The exit code an error code is emitted under; undefined when no one declares the code. */
  exitCodeOf(code: string): ExitCode | undefined;
  /** The program's own declaration of an error code (undefined for the framework's codes). */
  declaredError(code: string): ErrorCodeDeclaration | undefined;
  /** Whether a warning code is the framework's or the program's. */
  knowsWarning(code: string): boolean;
  /** The program's own codes, in declaration order. */
  readonly errors: readonly ErrorCodeDeclaration[];
  readonly warnings: readonly WarningCodeDeclaration[];
}

function refuse(field: string, message: string, code?: string): never {
  throw new StintError(ErrorCode.RegistrationRefused, `${field}: ${message}`, {
    context: { field, ...(code !== undefined ? { code } : {}) },
    phase: 'validation',
  });
}

/**
 * The table of a program that declares `sets` (what defineErrorCodes and
 * defineWarningCodes returned). A code declared twice across sets is refused.
 */
export function codeTable(sets: readonly unknown[] = []): CodeTable {
  const errors = new Map<string, ErrorCodeDeclaration>();
  const warnings = new Map<string, WarningCodeDeclaration>();
  sets.forEach((set, index) => {
    const declared = declarationsOf(set);
    if (!declared) refuse(`codes.${index}`, 'pass what defineErrorCodes or defineWarningCodes returned');
    for (const declaration of declared.declarations) {
      const code = declaration.code;
      if (errors.has(code) || warnings.has(code)) refuse(`codes.${index}`, 'is declared twice', code);
      if (declared.kind === CodeKind.Error) errors.set(declaration.code, declaration as ErrorCodeDeclaration);
      else warnings.set(declaration.code, declaration);
    }
  });
  const framework: Readonly<Record<string, ExitCode>> = EXIT_CODE_OF;
  const frameworkWarnings: readonly string[] = Object.values(WarningCode);
  return Object.freeze({
    exitCodeOf: (code: string) => (Object.hasOwn(framework, code) ? framework[code] : errors.get(code)?.exitCode),
    declaredError: (code: string) => errors.get(code),
    knowsWarning: (code: string) => frameworkWarnings.includes(code) || warnings.has(code),
    errors: Object.freeze([...errors.values()]),
    warnings: Object.freeze([...warnings.values()]),
  });
}

/** The framework's codes alone: the table of a program that declares none. */
export const FRAMEWORK_CODES: CodeTable = codeTable();
