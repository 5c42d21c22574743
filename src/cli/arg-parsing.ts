// Thin helpers over node:util parseArgs: turn its errors into UsageErrors that name the option and the nearest valid
// choice, and parse numeric and enumerated values strictly.

import { parseArgs, type ParseArgsConfig } from 'node:util';
import { isLanguageCode, LANGUAGE_CODES, type LanguageCode } from '../languages.js';
import { UsageError } from './usage-error.js';
import { nearestChoices, orList, suggestion } from './nearest-choice.js';

/** A command's options as node:util parseArgs takes them. */
export type Options = NonNullable<ParseArgsConfig['options']>;

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

/** parseArgs' error as one line that names the option and what to do instead. */
function usageMessage(error: Error & { code?: string }, options: Options, maxPositionals: number): string {
  const named = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1] ?? '';
  const optionNames = Object.keys(options).map((name) => `--${name}`);
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    if (optionNames.length === 0) return `unknown option '${named}': this command takes no options`;
    const near = nearestChoices(named, optionNames);
    return `unknown option '${named}'${near.length > 0 ? `; did you mean ${orList(near)}?` : `: this command takes ${optionNames.join(', ')}`}`;
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const name = named.replace(/^--/, '');
    if (options[name]?.type === 'boolean') return `${named} takes no value (write ${named} alone)`;
    return `${named} needs a value: ${named} <value> (or ${named}=<value> for one that starts with -)`;
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const argument = /argument '([^']*)'/.exec(error.message)?.[1] ?? '';
    return `unexpected argument '${argument}': this command takes ${maxPositionals === 0 ? 'options only' : `at most ${maxPositionals}`}`;
  }
  return error.message.split('. To specify')[0] ?? 'invalid arguments';
}

export function parseCommandArgs(args: readonly string[], options: Options, maxPositionals = 0): Parsed {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    const normalized = joinNegativeValues(args, options);
    parsed = parseArgs({ args: normalized, options, strict: true, allowPositionals: maxPositionals > 0 });
  } catch (error) {
    throw new UsageError(usageMessage(error as Error & { code?: string }, options, maxPositionals));
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument '${parsed.positionals[maxPositionals] ?? ''}': this command takes at most ${maxPositionals}`);
  }
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
}

/** `raw` when it is one of `choices`; otherwise a usage error naming the option and the choice meant. */
export function oneOf<const T extends string>(raw: string, name: string, choices: readonly T[]): T {
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw new UsageError(`--${name} must be ${orList(choices)}, got '${raw}'${suggestion(raw, choices).replace(/^; one of .*$/, '')}`);
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
  if (isLanguageCode(raw)) return raw;
  // `hi` or `hi-in` means hi-IN.
  const meant = LANGUAGE_CODES.filter((code) => code.toLowerCase() === raw.toLowerCase() || code.split('-')[0] === raw.toLowerCase());
  const hint = meant.length > 0 ? `; did you mean ${orList(meant)}?` : suggestion(raw, LANGUAGE_CODES).replace(/^; one of .*$/, '');
  throw new UsageError(`--${name} must be one of ${LANGUAGE_CODES.join(', ')}, got '${raw}'${hint}`);
}
