// Counts a request that neither synthesizes nor spends credits (placing and reading outbound calls, REST call
// control) as one request of the account's rate window: past the window it is 429 rate_limit_exceeded with
// Retry-After and the window's headers (core/admission.ts), before the route does any work. No slot, no credits.

import type { FastifyRequest } from 'fastify';
import type { Admission } from '../core/admission.js';
import { ApiError } from '../errors.js';

/** A preHandler (after the API key and the schema, before the handler) that counts the request in the window. */
export function countsInRateWindow(admission: Admission): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const account = request.account;
    if (!account) throw new ApiError('invalid_api_key', 'Missing API key.');
    const ticket = await admission.admit({ account, countRate: true, takeSlot: false, credits: 0 });
    // The response's rate-limit headers show the window with this request in it.
    request.rateInfo = ticket.rate;
    await ticket.finish();
  };
}
