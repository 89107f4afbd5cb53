import { ErrorCode, EXIT_CODE_OF } from './error-code.js';
import { ExitCode, isCommandExitCode } from './exit-code.js';
import { StintError } from './stint-error.js';
import { WarningCode } from './warning-code.js';

/** One error code a program declares: what `error.code` carries, and how the call then ends. */
export interface ErrorCodeDeclaration {
  /** The wire code, UPPER_SNAKE_CASE. */
  readonly code: string;
  /** The one exit code this error is emitted under: 1-13 (0 is success, 14 is the framework's INCOMPLETE). */
  readonly exitCode: ExitCode;
  /** Whether the identical call may succeed when run again; `error.retryable` unless the thrower says otherwise. */
  readonly retryable: boolean;
  /** When the error happens, for the people and agents that read the program's documentation. */
  readonly description: string;
}

/** One warning code a program declares (WarningDetail.code). */
export interface WarningCodeDeclaration {
  readonly code: string;
  readonly description: string;
}

export const CodeKind = { Error: 'error', Warning: 'warning' } as const;
export type CodeKind = (typeof CodeKind)[keyof typeof CodeKind];

/** Where a declared code set keeps its declarations, out of the way of `Object.values`. */
const DECLARATIONS = Symbol.for('stint.declaredCodes');

/** What defineErrorCodes and defineWarningCodes return, for createProgram's `codes`. */
export interface DeclaredCodeSet {
  readonly [DECLARATIONS]: {
    readonly kind: CodeKind;
    readonly declarations: readonly (ErrorCodeDeclaration | WarningCodeDeclaration)[];
  };
}

type Declarations = Readonly<Record<string, { readonly code: string }>>;

/** The constants a declaration yields: each name stands for its wire code, as `ErrorCode.X` does. */
export type DeclaredCodes<D extends Declarations> =
  { readonly [K in keyof D]: D[K]['code'] } & DeclaredCodeSet;

const CODE = /^[A-Z][A-Z0-9_]+$/;

function refuse(code: string, field: string, message: string): never {
  throw new StintError(ErrorCode.RegistrationRefused, `code "${code}": ${field}: ${message}`, {
    context: { code, field },
    phase: 'validation',
  });
}

/** The checks every declared code passes: its shape, a description, and a name no one else uses. */
type Common = { readonly code?: unknown; readonly description?: unknown };

function checkCommon(name: string, declaration: Common, seen: Set<string>, framework: readonly string[]): string {
  const code = typeof declaration?.code === 'string' ? declaration.code : '';
  if (!CODE.test(code)) refuse(code || name, `${name}.code`, `must match ${CODE}`);
  if (framework.includes(code)) refuse(code, `${name}.code`, 'is one of the framework\'s own codes');
  if (seen.has(code)) refuse(code, `${name}.code`, 'is declared twice');
  seen.add(code);
  const description = declaration.description;
  if (typeof description !== 'string' || description.length < 1 || description.length > 200) {
    refuse(code, `${name}.description`, 'a description of 1 to 200 characters is required');
  }
  return code;
}

function declare<D extends Declarations>(kind: CodeKind, declarations: D): DeclaredCodes<D> {
  const constants = Object.fromEntries(Object.entries(declarations).map(([name, d]) => [name, d.code]));
  const frozen = Object.values(declarations).map((d) => Object.freeze({ ...d }));
  const value = Object.freeze({ kind, declarations: Object.freeze(frozen) });
  Object.defineProperty(constants, DECLARATIONS, { value });
  return Object.freeze(constants) as DeclaredCodes<D>;
}

/**
 * Declares a program's own error codes, each with the exit code it is emitted
 * under and whether a retry may succeed. Returns the codes by name, for
 * `new StintError(MyCode.RowRejected, ...)`; pass the result to createProgram's
 * `codes`. A contradiction is refused with REGISTRATION_REFUSED naming the field.
 */
export function defineErrorCodes<const D extends Readonly<Record<string, ErrorCodeDeclaration>>>(
  declarations: D,
): DeclaredCodes<D> {
  const seen = new Set<string>();
  for (const [name, declaration] of Object.entries(declarations)) {
    const code = checkCommon(name, declaration, seen, Object.keys(EXIT_CODE_OF));
    const exit = declaration.exitCode;
    if (!isCommandExitCode(exit) || exit === ExitCode.SUCCESS || exit === ExitCode.INCOMPLETE) {
      refuse(code, `${name}.exitCode`, `${String(exit)} is not an error exit of the table (1-13)`);
    }
    if (typeof declaration.retryable !== 'boolean') refuse(code, `${name}.retryable`, 'must be a boolean');
  }
  return declare(CodeKind.Error, declarations);
}

/** Declares a program's own warning codes; the counterpart of defineErrorCodes for `ctx.warn`. */
export function defineWarningCodes<const D extends Readonly<Record<string, WarningCodeDeclaration>>>(
  declarations: D,
): DeclaredCodes<D> {
  const seen = new Set<string>();
  const framework = Object.values(WarningCode);
  for (const [name, declaration] of Object.entries(declarations)) checkCommon(name, declaration, seen, framework);
  return declare(CodeKind.Warning, declarations);
}

/** The declarations behind a set, or undefined for anything defineErrorCodes/defineWarningCodes did not make. */
export function declarationsOf(set: unknown): DeclaredCodeSet[typeof DECLARATIONS] | undefined {
  return typeof set === 'object' && set !== null ? (set as Partial<DeclaredCodeSet>)[DECLARATIONS] : undefined;
}
