// The slice of the JavaScript WebAssembly API that src/ uses (Flite's WASI build, the resampler's SIMD kernel):
// tsconfig's lib has no DOM, and esbuild's types declare only an empty `WebAssembly.Module`, which this extends.

declare global {
  namespace WebAssembly {
    interface Module {}
    interface Instance {
      readonly exports: Record<string, unknown>;
    }
    interface Memory {
      /** Replaced (and the old one detached) whenever the memory grows. */
      readonly buffer: ArrayBuffer;
      grow(pages: number): number;
    }
    const Module: new (bytes: Uint8Array) => Module;
    const Instance: new (module: Module, imports?: Record<string, Record<string, unknown>>) => Instance;
    function validate(bytes: Uint8Array): boolean;
  }
}

export {};
