// The `voice` of an OpenAI speech request as Raaga's voice: a preset (`priya`), a preset with a language
// (`priya:hi-IN`), a custom `vc_` id, an alias (`alloy`, `af_heart`: voice-aliases.ts), each also as `{ "id": … }`.
// Whether the voice exists for the account and speaks the language is the voice resolver's check, as on /v1/tts/*.

import { ApiError } from '../../errors.js';
import type { LanguageCode } from '../../languages.js';
import { requireLanguage } from './speech-language.js';
import type { VoiceAliases } from './voice-aliases.js';

export interface SpeechVoice {
  /** What Raaga speaks with and the ledger records: a preset name or a `vc_` id. */
  readonly voice: string;
  /** The language the voice was written with (`priya:hi-IN`), if any. */
  readonly language: LanguageCode | undefined;
  /** The alias the request named, when it named one. */
  readonly alias: string | undefined;
}

export interface VoiceNames {
  readonly presets: ReadonlySet<string>;
  readonly aliases: VoiceAliases;
}

const CUSTOM_VOICE_PREFIX = 'vc_';

export function speechVoice(requested: string | { readonly id: string }, names: VoiceNames): SpeechVoice {
  const written = typeof requested === 'string' ? requested : requested.id;
  const separator = written.indexOf(':');
  const name = (separator < 0 ? written : written.slice(0, separator)).trim();
  const language = separator < 0 ? undefined : requireLanguage(written.slice(separator + 1), 'voice', `The language of voice '${written}',`);
  // Custom voice ids are the store's, exactly as written; names are compared in lower case, as OpenAI's are sent.
  if (name.startsWith(CUSTOM_VOICE_PREFIX)) return { voice: name, language, alias: undefined };
  const lower = name.toLowerCase();
  if (names.presets.has(lower)) return { voice: lower, language, alias: undefined };
  const preset = names.aliases.get(lower);
  if (preset !== undefined) return { voice: preset, language, alias: lower };
  throw new ApiError(
    'voice_language_not_found',
    `Unknown voice '${written}'; use a preset voice (${[...names.presets].join(', ')}), one of the OpenAI names mapped onto them (${[...names.aliases.keys()].join(', ')}), ` +
      "or a vc_ custom voice of your account; add ':<language>' to choose the language (priya:hi-IN). GET /v1/audio/voices lists them.",
    { field: 'voice' },
  );
}
