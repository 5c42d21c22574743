// The synthesis request schema (HTTP generate/stream body; WebSocket `config` uses the same rules with
// another default format) and the ordered checks that map each failure to the spec's error code.

import { z } from 'zod';
import { OUTPUT_FORMATS, SAMPLE_RATES, type OutputFormat, type SampleRateHz } from '../audio/formats.js';
import { ApiError } from '../errors.js';
import { checkText, SPEC_TEXT } from '../core/text/text-limits.js';
import { LANGUAGE_CODES, type LanguageCode } from '../languages.js';


const voiceField = z.string().min(1, 'must not be empty').max(200);

// `.meta()` feeds the generated OpenAPI/AsyncAPI documents (src/api/docs/) and changes nothing in validation.
/** Voice fields and audio options shared by the HTTP body and the WebSocket `config` message. */
export const voiceAndAudioShape = {
  model_id: z.string({ error: 'is required and must be a string' }).meta({ description: "Must be 'raaga-v1'; anything else is 422 invalid_model_id.", examples: ['raaga-v1'] }),
  voice: voiceField.optional().meta({ description: 'A preset voice name from GET /v1/voices, or a custom vc_ voice id of the account. Required unless voice_name is sent.' }),
  voice_name: voiceField.optional().meta({ description: 'Deprecated alias of voice (preset voices only); never together with voice.', deprecated: true }),
  language: z.enum(LANGUAGE_CODES, { error: `must be one of ${LANGUAGE_CODES.join(', ')}` }).meta({ description: 'BCP 47 language code.' }),
  output_format: z.enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` }).optional(),
  sample_rate: z
    .number({ error: `must be one of ${SAMPLE_RATES.join(', ')}` })
    .refine((rate) => (SAMPLE_RATES as readonly number[]).includes(rate), `must be one of ${SAMPLE_RATES.join(', ')}`)
    .optional()
    // The refine is invisible to JSON Schema; the enum states it.
    .meta({ description: 'Hz.', enum: [...SAMPLE_RATES], default: 24000 }),
  speed: z
    .number({ error: 'must be a number from 0.5 to 2.0' })
    .min(0.5, 'must be from 0.5 to 2.0')
    .max(2, 'must be from 0.5 to 2.0')
    .optional()
    .meta({ description: 'Tempo multiplier (pitch unchanged).', default: 1 }),
} as const;

/** Raaga's extension on the HTTP body and the WebSocket `config`: refuse SSML elements instead of dropping them. */
export const ssmlStrictField = z
  .boolean({ error: 'must be true or false' })
  .optional()
  .meta({
    description:
      "Raaga's extension: true refuses (422 validation_error naming it) any SSML element Raaga does not apply, as <phoneme>, an unknown <lang> or another vendor's element; " +
      'false (the default) speaks their text, drops the tags and names them (X-SSML-Ignored on HTTP, ssml_ignored in end_of_utterance on the WebSocket).',
    default: false,
  });

/** Raaga's extension on the HTTP body and the WebSocket `config`: lexicons to apply besides the account's `default`. */
export const lexiconsField = z
  .array(z.string({ error: 'must hold lexicon names' }), { error: 'must be a list of lexicon names' })
  .max(20, 'may name at most 20 lexicons')
  .optional()
  .meta({
    description:
      "Raaga's extension: names of the account's lexicons (docs/lexicons.md) to apply, besides its 'default', which always applies; where two hold the same word, the one named first wins, then default. " +
      'A name the account has no lexicon for is 422 validation_error naming it.',
    examples: [['brands']],
  });

/** `output_format` with the default of its context (mp3 over HTTP, pcm on the WebSocket). */
export function outputFormatWithDefault(format: OutputFormat) {
  return voiceAndAudioShape.output_format.meta({
    description:
      'mp3, wav, pcm (16-bit little-endian mono) or mulaw (G.711 µ-law); Raaga extensions beyond the spec: alaw (G.711 A-law, ' +
      'the law of E1 trunks) and opus (an Ogg/Opus stream, RFC 7845: 20 ms mono packets, as WhatsApp voice notes need).',
    default: format,
  });
}

/** The object-level messages of a strict JSON body schema (an unknown field, or a body that is not an object). */
export const STRICT_BODY_ERRORS = {
  error: (issue: { code: string }) => (issue.code === 'unrecognized_keys' ? 'unknown field' : 'request body must be a JSON object'),
};

export const SynthesisBodySchema = z.strictObject(
  {
    text: z
      .string({ error: 'is required and must be a string' })
      .meta({ description: 'At most 3000 Unicode code points; plain text, or SSML when it starts with <speak>.' }),
    ...voiceAndAudioShape,
    output_format: outputFormatWithDefault('mp3'),
    lexicons: lexiconsField,
    ssml_strict: ssmlStrictField,
  },
  STRICT_BODY_ERRORS,
);

export interface SynthesisParams {
  readonly modelId: 'raaga-v1';
  /** The requested voice: a preset name or a `vc_` id. */
  readonly voice: string;
  readonly language: LanguageCode;
  readonly outputFormat: OutputFormat;
  readonly sampleRateHz: SampleRateHz;
  readonly speed: number;
}

export interface SynthesisRequestParams extends SynthesisParams {
  readonly text: string;
  readonly codePoints: number;
  /** The lexicons the request names besides the account's default (an extension). */
  readonly lexicons?: readonly string[] | undefined;
}

/** The SSML mode a request asks for (`ssml_strict`): the lenient one unless it says true. */
export function ssmlOptions(input: { readonly ssml_strict?: boolean | undefined }): { readonly strict: boolean } {
  return { strict: input.ssml_strict === true };
}

/** Turns the first zod issue into a `validation_error` naming the field, as the spec asks. */
export function validationError(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  if (!issue) return new ApiError('validation_error', 'The request is invalid.');
  if (issue.code === 'unrecognized_keys') {
    return new ApiError('validation_error', `Unknown field ${issue.keys.map((key) => `'${key}'`).join(', ')}; remove it.`);
  }
  const field = issue.path.join('.');
  if (!field) return new ApiError('validation_error', `The request ${issue.message}.`);
  if (issue.code === 'invalid_type' && issue.input === undefined) {
    return new ApiError('validation_error', `Field '${field}' is required.`, { field });
  }
  return new ApiError('validation_error', `Field '${field}' ${issue.message}.`, { field });
}

/** Rules beyond the schema, in a fixed order so each input gets one stable code. */
export function checkVoiceAndModel(
  input: z.infer<z.ZodObject<typeof voiceAndAudioShape>>,
  defaults: { outputFormat: OutputFormat },
): SynthesisParams {
  if (input.model_id !== 'raaga-v1') {
    throw new ApiError('invalid_model_id', `Unsupported model_id '${input.model_id}'; the only model is 'raaga-v1'.`);
  }
  if (input.voice !== undefined && input.voice_name !== undefined) {
    throw new ApiError('validation_error', "Send either 'voice' or the deprecated 'voice_name', not both.");
  }
  const voice = input.voice ?? input.voice_name;
  if (voice === undefined) throw new ApiError('validation_error', "Field 'voice' is required.");
  if (input.voice === undefined && voice.startsWith('vc_')) {
    throw new ApiError('validation_error', "Field 'voice_name' accepts preset voices only; send custom voice ids as 'voice'.");
  }
  return {
    modelId: 'raaga-v1',
    voice,
    language: input.language,
    outputFormat: input.output_format ?? defaults.outputFormat,
    sampleRateHz: (input.sample_rate ?? 24000) as SampleRateHz,
    speed: input.speed ?? 1,
  };
}

export type SynthesisBody = z.output<typeof SynthesisBodySchema>;

/** The rules beyond the body's schema (which the route has already validated): text, then voice and model. */
export function synthesisParams(body: SynthesisBody): SynthesisRequestParams {
  const codePoints = checkText(body.text, SPEC_TEXT, ssmlOptions(body));
  const params = checkVoiceAndModel(body, { outputFormat: 'mp3' });
  return { ...params, text: body.text, codePoints, ...(body.lexicons !== undefined ? { lexicons: body.lexicons } : {}) };
}
