// The spec's rate-limit headers, written from the account's window on every authenticated response.

import type { FastifyReply } from 'fastify';
import type { RateInfo } from '../store/store.js';

export function setRateLimitHeaders(reply: FastifyReply, rate: RateInfo): void {
  reply.header('X-RateLimit-Limit', String(rate.limit));
  reply.header('X-RateLimit-Remaining', String(Math.max(0, rate.remaining)));
  // Unix seconds, rounded up so a client waiting until then never arrives early.
  reply.header('X-RateLimit-Reset', String(Math.ceil(rate.resetAtMs / 1000)));
}
