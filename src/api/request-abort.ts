// One AbortSignal per request that fires when the client goes away or the server shuts down,
// with a reason that says which (cancellation is not an error; see DESIGN.md).

import type { FastifyReply } from 'fastify';

export const ABORT_REASONS = {
  clientClosed: 'client-closed',
  shutdown: 'shutdown',
} as const;

export function requestAbortSignal(reply: FastifyReply, shutdown: AbortSignal): AbortSignal {
  const controller = new AbortController();
  if (shutdown.aborted) {
    controller.abort(ABORT_REASONS.shutdown);
    return controller.signal;
  }
  const onShutdown = (): void => controller.abort(ABORT_REASONS.shutdown);
  shutdown.addEventListener('abort', onShutdown, { once: true });
  // 'close' on the response fires on normal completion too; only an unfinished response means the client left.
  reply.raw.once('close', () => {
    shutdown.removeEventListener('abort', onShutdown);
    if (!reply.raw.writableFinished) controller.abort(ABORT_REASONS.clientClosed);
  });
  return controller.signal;
}
