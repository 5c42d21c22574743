// The one shape of an SSML refusal: `validation_error` with a message that names the problem and where it is.

import { ApiError } from '../../errors.js';

export function invalidSsml(problem: string): ApiError {
  return new ApiError('validation_error', `Invalid SSML in 'text': ${problem}.`);
}
