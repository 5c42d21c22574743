// The voice names OpenAI's clients send (OpenAI's thirteen, and Kokoro's af_heart, which jambonz checks a credential
// with) mapped onto Raaga's presets, by the character each is described with; OPENAI_VOICE_ALIASES changes or adds
// entries. docs/api.md ("OpenAI-compatible speech") shows the table.

import { ConfigError } from '../../config.js';
import type { VoiceCatalog } from '../../core/voice-catalog.js';

export const DEFAULT_VOICE_ALIASES: Readonly<Record<string, string>> = {
  alloy: 'priya', // neutral, even → bright, professional
  ash: 'arjun', // assured → confident, slightly rough
  ballad: 'imran', // soft, lyrical → soft, breathy baritone
  coral: 'pooja', // warm, friendly → cheerful, warm
  echo: 'rahul', // relaxed male → friendly, relaxed
  fable: 'karthik', // a storyteller → crisp, bright tenor
  onyx: 'vikram', // deep → deep, gravelly, unhurried
  nova: 'kavya', // young, lively → young, expressive
  sage: 'meera', // calm, measured → clear, composed
  shimmer: 'divya', // soft, light → soft, breathy
  verse: 'aarav', // energetic → young, energetic
  marin: 'lakshmi', // mature, calm → mature, warm, calm
  cedar: 'sanjay', // firm, grounded → firm, clear baritone
  af_heart: 'sneha', // Kokoro's default → light, brisk
};

/** Alias name (lower case) → preset voice name. */
export type VoiceAliases = ReadonlyMap<string, string>;

/**
 * The default table with the operator's entries over it, checked against the catalog once at start: a name that is a
 * preset would hide it, and a preset that does not exist would fail every request that used the alias.
 */
export function voiceAliases(catalog: VoiceCatalog, overrides: Readonly<Record<string, string>> = {}): VoiceAliases {
  const presets = new Set(catalog.voices().map((voice) => voice.name));
  const aliases = new Map(Object.entries({ ...DEFAULT_VOICE_ALIASES, ...overrides }));
  for (const [name, preset] of aliases) {
    const given = Object.hasOwn(overrides, name) ? 'OPENAI_VOICE_ALIASES' : 'the default voice alias table';
    if (presets.has(name)) throw new ConfigError(`invalid configuration: ${given}: '${name}' is a preset voice itself; choose another name`);
    if (!presets.has(preset)) {
      throw new ConfigError(`invalid configuration: ${given}: '${name}' maps to '${preset}', which is not a preset voice (${[...presets].join(', ')})`);
    }
  }
  return aliases;
}
