// Loaded with `node --import` ahead of the program it measures: it records
// when Node first runs a module (the end of Node's own start-up) and when
// the first SIGINT listener is added (the program's router), and prints
// both at exit, with the time origin, so the caller can add the spawn itself.
const origin = performance.timeOrigin;
const firstModule = performance.now();
const on = process.on.bind(process);
let handler: number | undefined;
process.on = ((event: string, listener: (...args: unknown[]) => void) => {
  if (event === 'SIGINT' && handler === undefined) handler = performance.now();
  return on(event, listener);
}) as typeof process.on;
process.prependListener('exit', () => {
  process.stderr.write(`STINT_STARTUP_PROBE ${JSON.stringify({ origin, firstModule, handler })}\n`);
});
