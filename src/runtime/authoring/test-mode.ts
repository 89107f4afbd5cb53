/** Under this variable a progress report whose `done` goes back is a framework error, so tests catch it. */
export const TEST_MODE_ENV = 'STINT_TEST_MODE';

/** The values that switch test mode on; anything else (`0`, `false`, empty, unset) leaves it off. */
const TRUE_VALUES = ['1', 'true'] as const;

/** Whether the environment asks for test mode: only a true value does, so `STINT_TEST_MODE=0` is off. */
export function testModeOn(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env[TEST_MODE_ENV]?.trim().toLowerCase();
  return value !== undefined && (TRUE_VALUES as readonly string[]).includes(value);
}
