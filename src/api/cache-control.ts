// The prompt cache's per-request opt-out, the HTTP way: a request (or WebSocket upgrade) carrying
// `Cache-Control: no-store` or `no-cache` is synthesized afresh and its audio is not kept.

/** True when the request's Cache-Control forbids serving or keeping cached audio. */
export function refusesCachedAudio(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header.join(',') : (header ?? '');
  return values
    .toLowerCase()
    .split(',')
    .map((directive) => directive.trim().split('=')[0])
    .some((directive) => directive === 'no-store' || directive === 'no-cache');
}
