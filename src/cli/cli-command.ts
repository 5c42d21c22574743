// The shapes every `raaga` command shares: the context main.ts builds from the environment, the command and
// subcommand interfaces the dispatcher walks, and UsageError (bad usage: exit 1, message, no stack trace).

import type { Store } from '../store/store.js';
import type { TelephonyConfig } from '../config.js';

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
  /** The environment, for commands that read a secret from it (e.g. RAAGA_API_KEY) rather than from argv. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface Command {
  readonly name: string;
  /** One line for `raaga --help`. */
  readonly summary: string;
  /** `args` excludes the command name itself. */
  run(args: readonly string[], ctx: CliContext): Promise<void>;
}

export interface Subcommand {
  readonly name: string;
  /** Full help text, starting with the usage line. */
  readonly help: string;
  run(args: readonly string[], ctx: CliContext): Promise<void>;
}

export class UsageError extends Error {
  /** The command path whose `--help` the user should read, e.g. `accounts create`. */
  readonly command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

export function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

/** A command made of subcommands (`raaga accounts create …`), with help at each level. */
export function commandGroup(name: string, summary: string, subcommands: readonly Subcommand[]): Command {
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
    async run(args, ctx) {
      const [subName, ...rest] = args;
      if (subName === undefined || subName === '--help' || subName === '-h' || subName === 'help') {
        if (subName === undefined) throw new UsageError('missing subcommand', name);
        ctx.out(help);
        return;
      }
      const sub = subcommands.find((candidate) => candidate.name === subName);
      if (!sub) throw new UsageError(`unknown subcommand '${name} ${subName}'`, name);
      if (wantsHelp(rest)) {
        ctx.out(sub.help);
        return;
      }
      try {
        await sub.run(rest, ctx);
      } catch (error) {
        if (error instanceof UsageError && error.command === undefined) {
          throw new UsageError(error.message, `${name} ${sub.name}`);
        }
        throw error;
      }
    },
  };
}

/** A command without subcommands (`raaga say …`): prints its help on --help and names itself in usage errors. */
export function singleCommand(name: string, summary: string, sub: Omit<Subcommand, 'name'>): Command {
  return {
    name,
    summary,
    async run(args, ctx) {
      if (wantsHelp(args)) {
        ctx.out(sub.help);
        return;
      }
      try {
        await sub.run(args, ctx);
      } catch (error) {
        if (error instanceof UsageError && error.command === undefined) throw new UsageError(error.message, name);
        throw error;
      }
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
