// Progress of one file transfer for `raaga voices add`: the CLI's one progress display (../progress.ts) counting
// megabytes, a redrawn bar on a terminal and a few plain lines otherwise, so a 60 MB download is visible in a log.

import { BYTES, createProgress as createCliProgress, type Progress, type ProgressSink } from '../progress.js';

export type { Progress, ProgressSink };

export function createProgress(sink: ProgressSink, label: string, totalBytes: number | undefined, now: () => number = Date.now): Progress {
  return createCliProgress(sink, label, totalBytes, { unit: BYTES, now });
}
