// The output formats and sample rates of the API (the spec's lists), declared once for every layer.

export const OUTPUT_FORMATS = ['mp3', 'wav', 'pcm', 'mulaw'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The spec's sample rates: what `sample_rate` accepts on /v1/tts/*. */
export const SAMPLE_RATES = [8000, 16000, 24000, 48000] as const;
/** Rates only the ElevenLabs dialect asks for (its `pcm_22050`, `pcm_32000`, `pcm_44100`, `mp3_44100_128`). */
export const DIALECT_SAMPLE_RATES = [22050, 32000, 44100] as const;
/** Every rate the audio path produces. */
export type SampleRateHz = (typeof SAMPLE_RATES)[number] | (typeof DIALECT_SAMPLE_RATES)[number];
