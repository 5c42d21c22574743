// `npx tsx scripts/assemble-wasm.ts`: assembles every WebAssembly text file under src/ (*.wat) into the binary beside
// it (*.wasm), which the server loads; both are committed. Function names are kept (a name section), so CPU profiles
// show them. test/unit/audio/fir-kernel.test.ts checks that each committed binary is what its text assembles to, so
// an edit to a .wat without running this fails CI.

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** The binary a WebAssembly text assembles to (SIMD enabled; validated). */
export async function assembleWat(fileName: string, text: string): Promise<Uint8Array> {
  const module = (await wabt()).parseWat(fileName, text, { simd: true });
  try {
    module.validate();
    return module.toBinary({ write_debug_names: true }).buffer;
  } finally {
    module.destroy();
  }
}

/** Every *.wat under src/, as paths. */
export function watFiles(dir: string = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return watFiles(path);
    return name.endsWith('.wat') ? [path] : [];
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const path of watFiles()) {
    const binary = await assembleWat(path, readFileSync(path, 'utf8'));
    writeFileSync(path.replace(/\.wat$/, '.wasm'), binary);
    console.log(`${path.replace(/\.wat$/, '.wasm')}: ${binary.length} bytes`);
  }
}
