// Progress of a long CLI operation (a download, a long `say`, a benchmark): on a terminal one bar redrawn at
// most every 100 ms; otherwise (CI logs, pipes) a plain line at each quarter, so a log shows progress without
// flooding. One module for every command; the unit (bytes, items, seconds) only changes how amounts read.

export interface ProgressSink {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

export interface Progress {
  advance(amount: number): void;
  done(): void;
}

export interface ProgressUnit {
  /** An amount with its unit, e.g. `12.5 MB`, `3 sentences`. */
  format(amount: number): string;
  /** The `a/b unit` of a known total, e.g. `15.0/60.0 MB`. */
  formatOf(amount: number, total: number): string;
  /** With no known total, a plain line every this much. */
  readonly unknownTotalStep: number;
  /** The first plain line when the total is unknown. */
  readonly unknownTotalLabel: string;
}

const MB = 2 ** 20;
const mb = (bytes: number): string => (bytes / MB).toFixed(1);

export const BYTES: ProgressUnit = {
  format: (bytes) => `${mb(bytes)} MB`,
  formatOf: (bytes, total) => `${mb(bytes)}/${mb(total)} MB`,
  unknownTotalStep: 16 * MB,
  unknownTotalLabel: 'size unknown',
};

export function items(name: string): ProgressUnit {
  return {
    format: (count) => `${count} ${name}`,
    formatOf: (count, total) => `${count}/${total} ${name}`,
    unknownTotalStep: 10,
    unknownTotalLabel: 'total unknown',
  };
}

export const SECONDS: ProgressUnit = {
  format: (seconds) => `${seconds.toFixed(1)} s`,
  formatOf: (seconds, total) => `${seconds.toFixed(1)}/${total.toFixed(1)} s`,
  unknownTotalStep: 30,
  unknownTotalLabel: 'length unknown',
};

const BAR_WIDTH = 24;
const REDRAW_MS = 100;
const PLAIN_STEP_FRACTION = 0.25;

export interface ProgressOptions {
  readonly unit?: ProgressUnit;
  readonly now?: () => number;
}

export function createProgress(sink: ProgressSink, label: string, total: number | undefined, options: ProgressOptions = {}): Progress {
  const unit = options.unit ?? BYTES;
  const now = options.now ?? Date.now;
  const known = total !== undefined && total > 0;
  let amount = 0;
  let lastDraw = -Infinity;
  let nextPlainMark = known ? total * PLAIN_STEP_FRACTION : unit.unknownTotalStep;
  const tty = sink.isTTY === true;
  const describe = (): string =>
    known ? `${Math.floor((100 * Math.min(amount, total)) / total)}% (${unit.formatOf(amount, total)})` : unit.format(amount);
  const drawBar = (): void => {
    const filled = known ? Math.round(Math.min(1, amount / total) * BAR_WIDTH) : 0;
    const bar = known ? `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ` : '';
    sink.write(`\r${label} ${bar}${describe()}\u001b[K`);
  };
  if (!tty) sink.write(`${label}: ${total === undefined ? unit.unknownTotalLabel : unit.format(total)}\n`);
  return {
    advance(step) {
      amount += step;
      if (tty) {
        if (now() - lastDraw >= REDRAW_MS) {
          lastDraw = now();
          drawBar();
        }
        return;
      }
      if (amount < nextPlainMark || (known && amount >= total)) return;
      sink.write(`${label}: ${describe()}\n`);
      // One line even when a big step crosses several marks.
      while (nextPlainMark <= amount) nextPlainMark += known ? total * PLAIN_STEP_FRACTION : unit.unknownTotalStep;
    },
    done() {
      if (tty) {
        drawBar();
        sink.write('\n');
      } else {
        sink.write(`${label}: done, ${unit.format(amount)}\n`);
      }
    },
  };
}
