// The shapes every `raaga` command shares: the context main.ts builds from the environment, the command and
// subcommand interfaces the dispatcher walks (each declares its options, which the dispatcher parses with), and
// UsageError (bad usage: one line naming the option and the fix, exit 2, no stack trace).

import type { Store } from '../store/store.js';
import type { Config, TelephonyConfig } from '../config.js';
import { parseCommandArgs, type Options, type Parsed } from './arg-parsing.js';
import { orList, suggestion } from './nearest-choice.js';
import { UsageError } from './usage-error.js';

export interface CliContext {
  /** Where the embedded store lives (RAAGA_DATA_DIR). */
  readonly dataDir: string;
  /** Where voice packs and the model manifest live (RAAGA_MODELS_DIR). */
  readonly modelsDir: string;
  /** Opens the same store the server uses; the caller closes it. */
  readonly openStore: () => Promise<Store>;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly readStdin: () => Promise<string>;
  /** PUBLIC_URL and the call defaults, for `raaga twiml`. */
  readonly telephony?: TelephonyConfig;
  /** The whole configuration, for commands that build what the server builds (`raaga say`'s engine). */
  readonly config?: Config;
  /** The environment, for commands that read a secret from it (e.g. RAAGA_API_KEY) rather than from argv. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** What one invocation (`raaga say`, `raaga voices install`) takes, says and does. */
export interface CommandSpec {
  /**
   * Full help text, starting with the usage line. Every `--option` it names is one of `options` and every option is
   * named in it (test/unit/cli/command-help.test.ts).
   */
  readonly help: string;
  /** The options its parser takes: the dispatcher parses the arguments with exactly these. */
  readonly options: Options;
  /** Positional arguments it takes at most (default 0). */
  readonly positionals?: number;
  run(parsed: Parsed, ctx: CliContext): Promise<void>;
}

export interface Subcommand extends CommandSpec {
  readonly name: string;
}

export interface Command {
  readonly name: string;
  /** One line for `raaga --help`; a group's names each of its subcommands. */
  readonly summary: string;
  /** `raaga <name> --help`. */
  readonly help: string;
  /** A group's subcommands; empty for a single command. */
  readonly subcommands: readonly Subcommand[];
  /** A single command's own invocation; undefined for a group. */
  readonly spec: CommandSpec | undefined;
  /** `args` excludes the command name itself. */
  run(args: readonly string[], ctx: CliContext): Promise<void>;
}

export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/** Parses the arguments with the spec's options and runs it; a usage error names this command path. */
async function invoke(path: string, spec: CommandSpec, args: readonly string[], ctx: CliContext): Promise<void> {
  try {
    await spec.run(parseCommandArgs(args, spec.options, spec.positionals ?? 0), ctx);
  } catch (error) {
    if (error instanceof UsageError && error.command === undefined) throw new UsageError(error.message, path);
    throw error;
  }
}

/** A command made of subcommands (`raaga accounts create …`), with help at each level. */
export function commandGroup(name: string, summary: string, subcommands: readonly Subcommand[]): Command {
  const names = subcommands.map((sub) => sub.name);
  const help = [
    `Usage: raaga ${name} <subcommand> [options]`,
    '',
    summary,
    '',
    'Subcommands:',
    ...subcommands.map((sub) => `  ${(sub.help.split('\n')[0] ?? '').replace(/^Usage: /, '')}`),
    '',
    `Run 'raaga ${name} <subcommand> --help' for details.`,
  ].join('\n');
  return {
    name,
    summary,
    help,
    subcommands,
    spec: undefined,
    async run(args, ctx) {
      const [subName, ...rest] = args;
      if (subName === undefined || subName === '--help' || subName === '-h' || subName === 'help') {
        if (subName === undefined) throw new UsageError(`missing subcommand: ${orList(names)}`, name);
        ctx.out(help);
        return;
      }
      const sub = subcommands.find((candidate) => candidate.name === subName);
      if (!sub) throw new UsageError(`unknown subcommand '${name} ${subName}'${suggestion(subName, names)}`, name);
      if (wantsHelp(rest)) {
        ctx.out(sub.help);
        return;
      }
      await invoke(`${name} ${sub.name}`, sub, rest, ctx);
    },
  };
}

/** A command without subcommands (`raaga say …`): prints its help on --help and names itself in usage errors. */
export function singleCommand(name: string, summary: string, spec: CommandSpec): Command {
  return {
    name,
    summary,
    help: spec.help,
    subcommands: [],
    spec,
    async run(args, ctx) {
      if (wantsHelp(args)) {
        ctx.out(spec.help);
        return;
      }
      await invoke(name, spec, args, ctx);
    },
  };
}

/** Opens the store, runs `fn`, and always closes it (flushing every write). */
export async function withStore<T>(ctx: CliContext, fn: (store: Store) => Promise<T>): Promise<T> {
  const store = await ctx.openStore();
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
