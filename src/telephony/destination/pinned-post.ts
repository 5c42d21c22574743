// A POST to a tenant's URL through the destination policy: checked at every attempt, sent to the checked address,
// never redirected, bounded in time and in the size of the answer read. What went wrong is kept to three words so
// nothing about the far side (a refused port, a silent one) is worth more than "no answer".

import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { pinnedLookup, type DestinationPolicy } from './destination-policy.js';

export interface PinnedPostOptions {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly timeoutMs: number;
  /** At most this much of the answer is read; a longer answer counts as no answer. */
  readonly maxResponseBytes: number;
}

export type PinnedPostResult =
  | { readonly ok: true; readonly status: number; readonly body: Buffer }
  /** `refused`: the policy refused the destination (reason says why); `no-answer`: anything on the network side. */
  | { readonly ok: false; readonly failure: 'refused'; readonly reason: string }
  | { readonly ok: false; readonly failure: 'no-answer' };

export async function pinnedPost(policy: DestinationPolicy, url: string, schemes: readonly string[], options: PinnedPostOptions): Promise<PinnedPostResult> {
  const checked = await policy.check(url, schemes);
  if (!checked.ok) return { ok: false, failure: 'refused', reason: checked.reason };
  const send = checked.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<PinnedPostResult>((resolve) => {
    let settled = false;
    const finish = (result: PinnedPostResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = send(
      checked.url,
      {
        method: 'POST',
        lookup: pinnedLookup(checked),
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
        // No pooled socket: each attempt resolves nothing and connects where this check pointed.
        agent: false,
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxResponseBytes) {
            request.destroy();
            finish({ ok: false, failure: 'no-answer' });
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => finish({ ok: true, status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
        response.on('error', () => finish({ ok: false, failure: 'no-answer' }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ ok: false, failure: 'no-answer' });
    }, options.timeoutMs);
    request.on('error', () => finish({ ok: false, failure: 'no-answer' }));
    request.end(options.body);
  });
}
