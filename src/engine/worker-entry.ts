// Where a worker thread's entry file is: TypeScript beside the sources when Raaga runs from src/ (tests, benches,
// scripts through tsx or vitest), JavaScript beside the compiled module when it runs from dist/.

/** The entry `name` (without extension) resolved against `fromUrl`, with the extension of the module that asks. */
export function workerEntry(name: string, fromUrl: string): URL {
  const extension = new URL(fromUrl).pathname.endsWith('.ts') ? '.ts' : '.js';
  return new URL(`${name}${extension}`, fromUrl);
}
