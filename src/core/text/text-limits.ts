// The spec's text rules for one synthesis input (HTTP body `text`, WebSocket `text`, a phone call's line):
// at most 3000 Unicode code points, something to say, and well-formed SSML when it starts with <speak> (in the strict
// mode, also no element Raaga does not apply).
// A vendor dialect with a longer documented limit (OpenAI's `input`: 4096) states its own field and limit.

import { ApiError } from '../../errors.js';
import { countCodePoints } from '../../util/code-points.js';
import { isSsml, parseSsml, type SsmlOptions } from './ssml.js';

export const MAX_TEXT_CODE_POINTS = 3000;

/** The field that carries the text and its length limit; the spec's `text` of 3000 code points unless told. */
export interface TextField {
  readonly field: string;
  readonly maxCodePoints: number;
}

/** The spec's `text` field and limit. */
export const SPEC_TEXT: TextField = { field: 'text', maxCodePoints: MAX_TEXT_CODE_POINTS };

/**
 * Returns the code points (the credits the text costs, markup included) or throws `text_too_long` /
 * `validation_error`. SSML is checked here, before admission, so malformed markup is never charged.
 */
export function checkText(text: string, { field, maxCodePoints }: TextField = SPEC_TEXT, ssml: SsmlOptions = {}): number {
  const codePoints = countCodePoints(text);
  if (codePoints > maxCodePoints) {
    throw new ApiError('text_too_long', `Text is ${codePoints} Unicode characters; the limit is ${maxCodePoints}. Split it into several requests.`, { field });
  }
  if (text.trim() === '') throw new ApiError('validation_error', `Field '${field}' must contain something to say.`, { field });
  if (isSsml(text)) parseSsml(text, ssml);
  return codePoints;
}
