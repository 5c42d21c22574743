// The spec's text rules for one synthesis input (HTTP body `text`, WebSocket `text`, a phone call's line):
// at most 3000 Unicode code points, something to say, and well-formed SSML-lite when it starts with <speak>.

import { ApiError } from '../../errors.js';
import { countCodePoints } from '../../util/code-points.js';
import { isSsml, parseSsml } from './ssml.js';

export const MAX_TEXT_CODE_POINTS = 3000;

/**
 * Returns the code points (the credits the text costs, markup included) or throws `text_too_long` /
 * `validation_error`. SSML is checked here, before admission, so malformed markup is never charged.
 */
export function checkText(text: string): number {
  const codePoints = countCodePoints(text);
  if (codePoints > MAX_TEXT_CODE_POINTS) {
    throw new ApiError(
      'text_too_long',
      `Text is ${codePoints} Unicode characters; the limit is ${MAX_TEXT_CODE_POINTS}. Split it into several requests.`,
    );
  }
  if (text.trim() === '') throw new ApiError('validation_error', "Field 'text' must contain something to say.");
  if (isSsml(text)) parseSsml(text);
  return codePoints;
}
