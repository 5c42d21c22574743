// Thin helpers over node:util parseArgs: turn its errors into UsageError and parse numeric options strictly.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isLanguageCode, LANGUAGE_CODES, type LanguageCode } from '../languages.js';
import { UsageError } from './cli-command.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** A command's option table from its names: `strings` take a value, `flags` are on or off, `repeated` take a value each time. */
export function optionTable(names: { readonly strings?: readonly string[]; readonly flags?: readonly string[]; readonly repeated?: readonly string[] }): Options {
  const table: Options = {};
  for (const name of names.strings ?? []) table[name] = { type: 'string' };
  for (const name of names.flags ?? []) table[name] = { type: 'boolean' };
  for (const name of names.repeated ?? []) table[name] = { type: 'string', multiple: true };
  return table;
}

export interface Parsed {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
}

/** `--pitch -2` → `--pitch=-2`: parseArgs would otherwise read `-2` as an option and refuse it as ambiguous. */
function joinNegativeValues(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-(\d|\.\d)/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

export function parseCommandArgs(args: readonly string[], options: Options, maxPositionals = 0): Parsed {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    const normalized = joinNegativeValues(args, options);
    parsed = parseArgs({ args: normalized, options, strict: true, allowPositionals: maxPositionals > 0 });
  } catch (error) {
    // parseArgs messages are already user-facing ("Unknown option '--x'"); drop its hint about `--`.
    throw new UsageError((error as Error).message.split('. To specify')[0] ?? 'invalid arguments');
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument '${parsed.positionals[maxPositionals] ?? ''}'`);
  }
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
}

export function requireString(parsed: Parsed, name: string): string {
  const value = parsed.values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function optionalString(parsed: Parsed, name: string): string | undefined {
  const value = parsed.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function parseCount(raw: string, name: string, options: { min?: number } = {}): number {
  const min = options.min ?? 0;
  const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min) {
    throw new UsageError(`--${name} must be an integer ≥ ${min}, got '${raw}'`);
  }
  return value;
}

export function parseNumberInRange(raw: string, name: string, min: number, max: number): number {
  const value = /^[-+]?(\d+\.?\d*|\.\d+)$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`--${name} must be a number from ${min} to ${max}, got '${raw}'`);
  return value;
}

/** Values of a repeatable option (parseArgs gives an array for `multiple: true`). */
export function repeatedStrings(parsed: Parsed, name: string): string[] {
  const value: unknown = parsed.values[name];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

export function parseLanguage(raw: string, name = 'language'): LanguageCode {
  if (!isLanguageCode(raw)) throw new UsageError(`--${name} must be one of ${LANGUAGE_CODES.join(', ')}, got '${raw}'`);
  return raw;
}
