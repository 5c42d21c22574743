// flite's phone listings: `-psdur` segments in clip time and `-ps` phones grouped between pauses.

import { describe, expect, it } from 'vitest';
import { parsePhoneGroups, parseSegmentEnds } from '../../../../src/engine/flite/flite-phones.js';

describe('parseSegmentEnds', () => {
  it('reads name:end pairs in ms, phone names that end in a colon included', () => {
    expect(parseSegmentEnds('pau:0.164 hh:0.255 A::1.389 pau:1.500 \n')).toEqual([
      { phone: 'pau', endMs: 164 },
      { phone: 'hh', endMs: 255 },
      { phone: 'A:', endMs: 1389 },
      { phone: 'pau', endMs: 1500 },
    ]);
  });

  it('continues a later line (utterance) where the previous one ended', () => {
    expect(parseSegmentEnds('pau:0.1 a:0.2\npau:0.05 b:0.3\n')?.map((s) => Math.round(s.endMs))).toEqual([100, 200, 250, 500]);
  });

  it('refuses anything else, and times that run backwards', () => {
    expect(parseSegmentEnds('pau:0.1 hello pau:0.2')).toBeUndefined();
    expect(parseSegmentEnds('pau:0.3 a:0.2')).toBeUndefined();
    expect(parseSegmentEnds('')).toEqual([]);
  });
});

describe('parsePhoneGroups', () => {
  it('splits at pauses, keeping an empty group between two pauses', () => {
    expect(parsePhoneGroups('pau hh ax l ow pau w er l d pau pau y pau \n')).toEqual([['hh', 'ax', 'l', 'ow'], ['w', 'er', 'l', 'd'], [], ['y']]);
  });

  it('groups each line (utterance) on its own', () => {
    expect(parsePhoneGroups('pau a pau\npau b c pau\n')).toEqual([['a'], ['b', 'c']]);
  });

  it('refuses a line that does not start and end with a pause', () => {
    expect(parsePhoneGroups('hh ax pau')).toBeUndefined();
    expect(parsePhoneGroups('pau hh ax')).toBeUndefined();
  });
});
