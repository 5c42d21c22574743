// How a store failure reaches a client: 503 store_unavailable with a short Retry-After, never a 500. Every route
// and use case that reads or writes the store wraps its call in it.

import { ApiError } from '../errors.js';

/** Store failures become 503 store_unavailable: the client may retry, nothing was charged. */
export async function storeCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError('store_unavailable', 'The account store is unavailable; nothing was charged. Retry shortly with backoff.', {
      retryAfterSeconds: 1,
    });
  }
}
