/**
 * `stint/worker`: what a worker-side map module needs. It runs on the pool's threads, so this entry
 * point reaches only the contract and the worker protocol's types, never the main side's runtime.
 * A map throws a coded error (`StintError`, or any error with a `code` matching `^[A-Z][A-Z0-9_]+$`)
 * and the handler's outcome names that code.
 * @packageDocumentation
 */
export type { ChunkInfo, ChunkMap, WindowInfo, WindowMap, WindowResult } from './engine/worker/worker-protocol.js';
export { StintError } from './contract/stint-error.js';
export { ErrorCode } from './contract/error-code.js';
export { ExitCode } from './contract/exit-code.js';
export { defineErrorCodes, defineWarningCodes, type DeclaredCodes } from './contract/declared-codes.js';
