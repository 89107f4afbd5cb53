/** Kept equal to package.json's version by test/unit/version.test.ts (no JSON read at start-up). */
export const TOOL_VERSION = '0.1.0';
