// Runs one language's table of written forms and expected spoken forms through the whole front end.

import { describe, expect, it } from 'vitest';
import { normalizeText } from '../../../../../src/core/text/normalize-text.js';
import type { LanguageCode } from '../../../../../src/languages.js';

export type Case = readonly [written: string, spoken: string];

export function describeTable(language: LanguageCode, cases: readonly Case[], label: string = language): void {
  describe(`${label} readings (${cases.length} cases)`, () => {
    it('has at least 40 cases', () => {
      expect(cases.length).toBeGreaterThanOrEqual(40);
    });
    it.each(cases)('%s', (written, spoken) => {
      expect(normalizeText(written, language)).toBe(spoken);
    });
  });
}
