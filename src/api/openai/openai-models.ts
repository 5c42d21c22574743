// The model names the OpenAI dialect accepts: OpenAI's speech models (and their dated snapshots) and Raaga's own.
// Every one is spoken by Raaga's one model, raaga-v1; the name only has to be one a client may send.

import { ApiError } from '../../errors.js';

/** What GET /v1/models lists, in this order. */
export const LISTED_MODELS = ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts', 'raaga-v1'] as const;

/** Dated snapshots: `tts-1-1106`, `tts-1-hd-1106`, `gpt-4o-mini-tts-2025-12-15` and later ones. */
const DATED_SNAPSHOT = /^(tts-1(-hd)?-\d{4}|gpt-4o-mini-tts-\d{4}-\d{2}-\d{2})$/;

/** One date for every listed model (2026-01-01T00:00:00Z), Unix seconds as OpenAI writes `created`. */
const CREATED_SECONDS = 1_767_225_600;

export interface OpenAiModel {
  readonly id: string;
  readonly object: 'model';
  readonly created: number;
  readonly owned_by: 'raaga';
}

export function isAcceptedModel(id: string): boolean {
  return (LISTED_MODELS as readonly string[]).includes(id) || DATED_SNAPSHOT.test(id);
}

export function modelObject(id: string): OpenAiModel {
  return { id, object: 'model', created: CREATED_SECONDS, owned_by: 'raaga' };
}

export function checkModel(id: string): void {
  if (!isAcceptedModel(id)) {
    throw new ApiError('invalid_model_id', `Model '${id}' is not one Raaga accepts; use one of ${LISTED_MODELS.join(', ')} (or a dated snapshot such as gpt-4o-mini-tts-2025-12-15): Raaga speaks every one with raaga-v1.`, {
      field: 'model',
    });
  }
}
