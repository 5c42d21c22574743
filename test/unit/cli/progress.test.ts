// The CLI's one progress display: plain lines when stderr is not a terminal (CI logs, pipes), a redrawn bar on one.

import { describe, expect, it } from 'vitest';
import { createProgress, items, SECONDS, type ProgressSink } from '../../../src/cli/progress.js';

function sink(isTTY: boolean): ProgressSink & { text: string } {
  return {
    isTTY,
    text: '',
    write(text) {
      this.text += text;
    },
  };
}

describe('progress without a terminal', () => {
  it('prints the total, each quarter, and done, one line each', () => {
    const out = sink(false);
    const progress = createProgress(out, 'synthesizing', 8, { unit: items('chunks') });
    for (let i = 0; i < 8; i++) progress.advance(1);
    progress.done();
    expect(out.text).toBe(
      [
        'synthesizing: 8 chunks',
        'synthesizing: 25% (2/8 chunks)',
        'synthesizing: 50% (4/8 chunks)',
        'synthesizing: 75% (6/8 chunks)',
        'synthesizing: done, 8 chunks',
        '',
      ].join('\n'),
    );
    expect(out.text).not.toContain('\r');
    expect(out.text).not.toContain('\u001b');
  });

  it('a large step crossing several quarters prints one line', () => {
    const out = sink(false);
    const progress = createProgress(out, 'bench', 4, { unit: items('runs') });
    progress.advance(3);
    progress.done();
    expect(out.text.split('\n')).toEqual(['bench: 4 runs', 'bench: 75% (3/4 runs)', 'bench: done, 3 runs', '']);
  });

  it('with an unknown total, a line every step of the unit', () => {
    const out = sink(false);
    const progress = createProgress(out, 'receiving audio', undefined, { unit: SECONDS });
    for (let i = 0; i < 70; i++) progress.advance(1);
    progress.done();
    expect(out.text).toBe('receiving audio: length unknown\nreceiving audio: 30.0 s\nreceiving audio: 60.0 s\nreceiving audio: done, 70.0 s\n');
  });

  it('an estimate that runs short never prints past 100%', () => {
    const out = sink(false);
    const progress = createProgress(out, 'receiving audio', 2, { unit: SECONDS });
    progress.advance(3);
    progress.done();
    expect(out.text).toBe('receiving audio: 2.0 s\nreceiving audio: done, 3.0 s\n');
  });
});

describe('progress on a terminal', () => {
  it('redraws one line, at most every 100 ms, and ends with a newline', () => {
    const out = sink(true);
    let clock = 0;
    const progress = createProgress(out, 'speaking', 10, { unit: items('sentences'), now: () => clock });
    for (let i = 0; i < 10; i++) {
      clock += 30;
      progress.advance(1);
    }
    progress.done();
    const frames = out.text.split('\r').filter((frame) => frame !== '');
    expect(frames.length).toBeLessThanOrEqual(5);
    expect(frames.at(-1)).toBe(`speaking [${'#'.repeat(24)}] 100% (10/10 sentences)\u001b[K\n`);
  });
});
