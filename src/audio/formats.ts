// The output formats and sample rates of the API, declared once for every layer: the spec's four formats, then
// Raaga's extensions (alaw: G.711 A-law; opus: an Ogg/Opus stream, RFC 7845), which change nothing for the four.

export const SPEC_OUTPUT_FORMATS = ['mp3', 'wav', 'pcm', 'mulaw'] as const;
export const EXTENSION_OUTPUT_FORMATS = ['alaw', 'opus'] as const;
export const OUTPUT_FORMATS = [...SPEC_OUTPUT_FORMATS, ...EXTENSION_OUTPUT_FORMATS] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The spec's sample rates: what `sample_rate` accepts on /v1/tts/*. */
export const SAMPLE_RATES = [8000, 16000, 24000, 48000] as const;
/** Rates only the ElevenLabs dialect asks for (its `pcm_22050`, `pcm_32000`, `pcm_44100`, `mp3_44100_128`). */
export const DIALECT_SAMPLE_RATES = [22050, 32000, 44100] as const;
/** Every rate the audio path produces. */
export type SampleRateHz = (typeof SAMPLE_RATES)[number] | (typeof DIALECT_SAMPLE_RATES)[number];
