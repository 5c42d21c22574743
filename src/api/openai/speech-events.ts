// `stream_format: "sse"`: each chunk of audio as a `speech.audio.delta` event (its bytes in base64), then one
// `speech.audio.done` with the usage. Tokens are Raaga's billing unit: input tokens are the input's code points (the
// credits a completed request costs); audio is not billed, so output tokens are 0.

import { toBuffer, type StreamFraming } from '../http-utterance.js';

export interface SpeechUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly total_tokens: number;
}

export type SpeechEvent = { readonly type: 'speech.audio.delta'; readonly audio: string } | { readonly type: 'speech.audio.done'; readonly usage: SpeechUsage };

function event(data: SpeechEvent): Buffer {
  return Buffer.from(`data: ${JSON.stringify(data)}\n\n`);
}

export function speechEventFraming(inputCodePoints: number): StreamFraming {
  return {
    chunk: (bytes) => event({ type: 'speech.audio.delta', audio: toBuffer(bytes).toString('base64') }),
    end: () => event({ type: 'speech.audio.done', usage: { input_tokens: inputCodePoints, output_tokens: 0, total_tokens: inputCodePoints } }),
  };
}
