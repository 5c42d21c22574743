// Reads the preset voice names from the model manifest (`<modelsDir>/raaga-v1/manifest.json`), so the CLI
// can validate a custom voice's base without loading the engine. Only `voices[].voice_name` matters here.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';

const ManifestVoicesSchema = z.object({ voices: z.array(z.object({ voice_name: z.string().min(1) })) });

export function manifestPath(modelsDir: string): string {
  return join(modelsDir, 'raaga-v1', 'manifest.json');
}

export async function readPresetVoiceNames(modelsDir: string): Promise<ReadonlySet<string>> {
  const path = manifestPath(modelsDir);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`voice catalog not found at ${path} (set RAAGA_MODELS_DIR); cannot check the base voice`);
    }
    throw error;
  }
  let parsed: z.infer<typeof ManifestVoicesSchema>;
  try {
    parsed = ManifestVoicesSchema.parse(JSON.parse(text));
  } catch (error) {
    throw new Error(`model manifest ${path} is invalid: ${(error as Error).message.split('\n')[0] ?? ''}`);
  }
  return new Set(parsed.voices.map((voice) => voice.voice_name));
}
