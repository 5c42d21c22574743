// Progress of one file transfer for `raaga voices add`: a redrawn bar on a terminal, a few plain lines otherwise
// (CI logs, pipes), so a 60 MB download is visible without flooding a log file.

export interface ProgressSink {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface Progress {
  advance(bytes: number): void;
  done(): void;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;
/** Plain mode prints at each quarter, or every 16 MB when the size is unknown. */
const PLAIN_STEP_FRACTION = 0.25;
const PLAIN_STEP_BYTES_UNKNOWN = 16 * 2 ** 20;

const mb = (bytes: number): string => (bytes / 2 ** 20).toFixed(1);

export function createProgress(sink: ProgressSink, label: string, totalBytes: number | undefined, now: () => number = Date.now): Progress {
  let received = 0;
  let lastDraw = 0;
  let nextPlainMark = totalBytes === undefined ? PLAIN_STEP_BYTES_UNKNOWN : totalBytes * PLAIN_STEP_FRACTION;
  const tty = sink.isTTY === true;
  const describe = (): string =>
    totalBytes === undefined || totalBytes === 0
      ? `${mb(received)} MB`
      : `${Math.floor((100 * received) / totalBytes)}% (${mb(received)}/${mb(totalBytes)} MB)`;
  const drawBar = (): void => {
    const fraction = totalBytes ? Math.min(1, received / totalBytes) : 0;
    const filled = Math.round(fraction * BAR_WIDTH);
    const bar = totalBytes ? `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ` : '';
    sink.write(`\r${label} ${bar}${describe()}\u001b[K`);
  };
  if (!tty) sink.write(`${label}: ${totalBytes === undefined ? 'size unknown' : `${mb(totalBytes)} MB`}\n`);
  return {
    advance(bytes) {
      received += bytes;
      if (tty) {
        if (now() - lastDraw >= REDRAW_MS) {
          lastDraw = now();
          drawBar();
        }
        return;
      }
      while (received >= nextPlainMark && (totalBytes === undefined || received < totalBytes)) {
        sink.write(`${label}: ${describe()}\n`);
        nextPlainMark += totalBytes === undefined ? PLAIN_STEP_BYTES_UNKNOWN : totalBytes * PLAIN_STEP_FRACTION;
      }
    },
    done() {
      if (tty) {
        drawBar();
        sink.write('\n');
      } else {
        sink.write(`${label}: done, ${mb(received)} MB\n`);
      }
    },
  };
}
