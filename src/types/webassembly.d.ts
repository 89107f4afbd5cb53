// The part of the WebAssembly JS API that stint uses. TypeScript declares it
// only in the DOM libraries, which a Node program should not pull in.
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    readonly buffer: ArrayBuffer;
    grow(pages: number): number;
  }
  class Global {
    readonly value: unknown;
  }
}
