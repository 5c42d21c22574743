// The eight supported languages (BCP 47) from the spec; a leaf module any layer may import.

export const LANGUAGE_CODES = ['en-IN', 'hi-IN', 'ta-IN', 'te-IN', 'kn-IN', 'mr-IN', 'gu-IN', 'bn-IN'] as const;

export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export function isLanguageCode(value: string): value is LanguageCode {
  return (LANGUAGE_CODES as readonly string[]).includes(value);
}
