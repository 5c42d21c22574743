// flite's phone listings on stdout: `-psdur` prints each segment of an utterance as `name:end` (seconds, 3 decimals),
// `-ps` prints names only; `pau` is silence. Each utterance is one line whose times restart at 0.

export const PAUSE = 'pau';

export interface Segment {
  readonly phone: string;
  /** End of the segment on the clip, in ms. */
  readonly endMs: number;
}

/**
 * The segments of `-psdur` output in clip time (a later line continues where the previous one ended), or undefined
 * when the output is not only such segments or their times run backwards.
 */
export function parseSegmentEnds(stdout: string): Segment[] | undefined {
  const segments: Segment[] = [];
  let lineOffsetMs = 0;
  for (const line of stdout.split('\n')) {
    const fields = line.trim().split(/\s+/).filter((field) => field !== '');
    if (fields.length === 0) continue;
    let lastMs = lineOffsetMs;
    for (const field of fields) {
      // Indic phone names can end in a colon themselves (`A:` is long a): the time is after the last one.
      const match = /^(\S+):(\d+(?:\.\d+)?)$/.exec(field);
      if (match === null) return undefined;
      const endMs = lineOffsetMs + Number(match[2]) * 1000;
      if (endMs < lastMs) return undefined;
      segments.push({ phone: match[1] as string, endMs });
      lastMs = endMs;
    }
    lineOffsetMs = lastMs;
  }
  return segments;
}

/**
 * The phones of `-ps` output split at pauses: per line (utterance), the groups between its first and last pause, in
 * order; undefined when a line does not start and end with a pause.
 */
export function parsePhoneGroups(stdout: string): string[][] | undefined {
  const groups: string[][] = [];
  for (const line of stdout.split('\n')) {
    const phones = line.trim().split(/\s+/).filter((phone) => phone !== '');
    if (phones.length === 0) continue;
    if (phones.length < 2 || phones[0] !== PAUSE || phones[phones.length - 1] !== PAUSE) return undefined;
    let current: string[] = [];
    for (const phone of phones.slice(1)) {
      if (phone === PAUSE) {
        groups.push(current);
        current = [];
      } else current.push(phone);
    }
  }
  return groups;
}
