// The output formats and sample rates of the API (the spec's lists), declared once for every layer.

export const OUTPUT_FORMATS = ['mp3', 'wav', 'pcm', 'mulaw'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export const SAMPLE_RATES = [8000, 16000, 24000, 48000] as const;
export type SampleRateHz = (typeof SAMPLE_RATES)[number];
