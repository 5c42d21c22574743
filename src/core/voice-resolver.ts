// Resolves a request's voice (preset name or `vc_` custom id) + language to the catalog voice that speaks it and a
// custom voice's variation, enforcing the catalog pair rule and the custom-voice plan and ownership rules. Which
// engine speaks the pair, and how, is the engines' business.

import { ApiError } from '../errors.js';
import { LANGUAGE_CODES, type LanguageCode } from '../languages.js';
import type { Account, CustomVoiceCatalog } from '../store/store.js';
import { storeCall } from './store-call.js';
import type { VoiceCatalog } from './voice-catalog.js';

export interface ResolvedVoice {
  /** The catalog voice that speaks (the base voice for custom voices). */
  readonly voiceName: string;
  readonly pitchShiftSemitones: number;
  /** Multiplies the request's speed (custom voices); 1 for presets. */
  readonly rateMultiplier: number;
  /** Custom voices: the account that owns it (its cached audio is that account's alone). */
  readonly ownerAccountId?: string;
  /**
   * The languages the catalog lists for the voice, when it lists fewer than all eight: an SSML `<lang>` span in another
   * language is then spoken in the request's (and reported). Absent: every language.
   */
  readonly languages?: readonly LanguageCode[];
}

/** Every refusal here is about the request's voice (with its language). */
const VOICE_FIELD = { field: 'voice' } as const;

export class VoiceResolver {
  constructor(
    private readonly catalog: VoiceCatalog,
    private readonly store: CustomVoiceCatalog,
  ) {}

  async resolve(account: Account, voice: string, language: LanguageCode): Promise<ResolvedVoice> {
    if (voice.startsWith('vc_')) return this.#resolveCustom(account, voice, language);
    if (!this.catalog.hasPair(voice, language)) {
      throw new ApiError(
        'voice_language_not_found',
        `Voice '${voice}' with language '${language}' is not in the catalog; GET /v1/voices lists the valid pairs.`,
        VOICE_FIELD,
      );
    }
    return { voiceName: voice, pitchShiftSemitones: 0, rateMultiplier: 1, ...this.#languagesOf(voice) };
  }

  /** The voice's languages, only when the catalog does not list all of them for it. */
  #languagesOf(voiceName: string): { languages?: readonly LanguageCode[] } {
    const languages = this.catalog.languages().filter((language) => this.catalog.hasPair(voiceName, language));
    return languages.length === LANGUAGE_CODES.length ? {} : { languages };
  }

  async #resolveCustom(account: Account, voiceId: string, language: LanguageCode): Promise<ResolvedVoice> {
    if (account.plan !== 'growth') {
      throw new ApiError(
        'validation_error',
        `voice: custom voices (vc_ ids) are available on the Growth plan only; this account is on the ${account.plan} plan.`,
        VOICE_FIELD,
      );
    }
    const custom = await storeCall(() => this.store.getCustomVoice(voiceId));
    // Another account's voice is reported exactly like a missing one, so ids cannot be probed.
    if (!custom || custom.accountId !== account.id) {
      throw new ApiError('voice_language_not_found', `Custom voice '${voiceId}' does not exist for this account.`, VOICE_FIELD);
    }
    if (!this.catalog.hasPair(custom.baseVoice, language)) {
      throw new ApiError(
        'voice_language_not_found',
        `Custom voice '${voiceId}' cannot speak '${language}': its base voice '${custom.baseVoice}' is not available in that language.`,
        VOICE_FIELD,
      );
    }
    return {
      voiceName: custom.baseVoice,
      pitchShiftSemitones: custom.pitchShiftSemitones,
      rateMultiplier: custom.rateMultiplier,
      ownerAccountId: custom.accountId,
      ...this.#languagesOf(custom.baseVoice),
    };
  }
}
