// OPENAI_VOICE_ALIASES: a JSON object or name=preset pairs, names in lower case, malformed entries refused naming
// the variable (test/unit/api/openai/voice-aliases.test.ts: the table built from it).

import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';

describe('OPENAI_VOICE_ALIASES', () => {
  it('is empty when unset, and reads JSON or name=preset pairs', () => {
    expect(parseConfig({}).openAiVoiceAliases).toEqual({});
    expect(parseConfig({ OPENAI_VOICE_ALIASES: '{"Alloy": "meera", "narrator": "vikram"}' }).openAiVoiceAliases).toEqual({ alloy: 'meera', narrator: 'vikram' });
    expect(parseConfig({ OPENAI_VOICE_ALIASES: ' alloy=meera , narrator=Vikram,' }).openAiVoiceAliases).toEqual({ alloy: 'meera', narrator: 'vikram' });
  });

  it.each(['{"alloy": 3}', '{not json', 'alloy', 'alloy=meera=priya', 'al loy=meera', '=meera'])('refuses %s, naming the variable', (value) => {
    expect(() => parseConfig({ OPENAI_VOICE_ALIASES: value })).toThrow(ConfigError);
    expect(() => parseConfig({ OPENAI_VOICE_ALIASES: value })).toThrow(/OPENAI_VOICE_ALIASES/);
  });
});
