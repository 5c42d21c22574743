// The OpenAI dialect's voice alias table: the defaults onto presets of the catalog, the operator's entries over
// them, and the mistakes that stop the server at start.

import { describe, expect, it } from 'vitest';
import { DEFAULT_VOICE_ALIASES, voiceAliases } from '../../../../src/api/openai/voice-aliases.js';
import { catalog } from '../../../helpers/espeak-engine.js';

describe('the voice alias table', () => {
  it('maps every default name onto a preset of the catalog', () => {
    const presets = catalog.voices().map((voice) => voice.name);
    const aliases = voiceAliases(catalog);
    expect([...aliases.keys()]).toEqual(['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse', 'marin', 'cedar', 'af_heart']);
    for (const preset of aliases.values()) expect(presets).toContain(preset);
  });

  it("takes the operator's entries over the defaults", () => {
    const aliases = voiceAliases(catalog, { alloy: 'vikram', narrator: 'meera' });
    expect(aliases.get('alloy')).toBe('vikram');
    expect(aliases.get('narrator')).toBe('meera');
    expect(aliases.get('nova')).toBe(DEFAULT_VOICE_ALIASES.nova);
  });

  it('refuses a preset that is not in the catalog, and a name that is a preset, at start', () => {
    expect(() => voiceAliases(catalog, { alloy: 'nobody' })).toThrow(/OPENAI_VOICE_ALIASES: 'alloy' maps to 'nobody', which is not a preset voice/);
    expect(() => voiceAliases(catalog, { priya: 'meera' })).toThrow(/OPENAI_VOICE_ALIASES: 'priya' is a preset voice itself/);
  });
});
