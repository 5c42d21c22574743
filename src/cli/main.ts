// Entry of the `raaga` operator CLI (bin/raaga.mjs loads it): reads the environment, dispatches to a command,
// and maps every failure to a one-line message and exit code 1 (never a stack trace).
// It opens the store the server uses (SQLite in RAAGA_DATA_DIR, or Redis with REDIS_URL) and may run while the
// server runs: every change is a committed transaction the server reads on its next request.

import { UsageError, type CliContext, type Command } from './cli-command.js';
import { COMMAND_SUMMARIES, type CommandName } from './command-summaries.js';

/**
 * Registry: a new command is one entry here. Commands load on use, so `raaga --help` imports none of them
 * (nor the engine, the store or zod) and answers at once.
 */
const COMMANDS: readonly { readonly name: CommandName; readonly load: () => Promise<Command> }[] = [
  { name: 'accounts', load: async () => (await import('./commands/accounts.js')).accountsCommand },
  { name: 'keys', load: async () => (await import('./commands/keys.js')).keysCommand },
  { name: 'credits', load: async () => (await import('./commands/credits.js')).creditsCommand },
  { name: 'usage', load: async () => (await import('./commands/usage.js')).usageCommand },
  { name: 'store', load: async () => (await import('./commands/store.js')).storeCommand },
  { name: 'voices', load: async () => (await import('./commands/voices.js')).voicesCommand },
  { name: 'say', load: async () => (await import('./commands/say.js')).sayCommand },
  { name: 'normalize', load: async () => (await import('./commands/normalize.js')).normalizeCommand },
  { name: 'speak', load: async () => (await import('./commands/speak.js')).speakCommand },
  { name: 'call-sim', load: async () => (await import('./commands/call-sim.js')).callSimCommand },
  { name: 'telephony', load: async () => (await import('./commands/telephony.js')).telephonyCommand },
  { name: 'twiml', load: async () => (await import('./commands/twiml.js')).twimlCommand },
];

function topHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'Usage: raaga <command> [options]',
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${COMMAND_SUMMARIES[command.name]}`),
    '',
    "Run 'raaga <command> --help' for details.",
    'Environment: RAAGA_DATA_DIR (the embedded SQLite store, default ./data), RAAGA_MODELS_DIR (default ./models),',
    '  REDIS_URL (+ REDIS_KEY_PREFIX): use the shared Redis store the servers use.',
    'Either way the CLI works while the server runs: changes apply to it at once.',
  ].join('\n');
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function runCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): Promise<number> {
  const ctxBase = {
    out: (text: string) => void process.stdout.write(`${text}\n`),
    err: (text: string) => void process.stderr.write(`${text}\n`),
  };
  const [name, ...rest] = argv;
  try {
    if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
      if (name === undefined) throw new UsageError('missing command');
      ctxBase.out(topHelp());
      return 0;
    }
    const entry = COMMANDS.find((candidate) => candidate.name === name);
    if (!entry) throw new UsageError(`unknown command '${name}'`);
    const [command, { parseConfig }, { openStore }] = await Promise.all([entry.load(), import('../config.js'), import('../store/open-store.js')]);
    const config = parseConfig(env);
    const ctx: CliContext = {
      ...ctxBase,
      dataDir: config.dataDir,
      modelsDir: config.modelsDir,
      openStore: () => openStore(config),
      readStdin,
      telephony: config.telephony,
      env,
    };
    await command.run(rest, ctx);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      ctxBase.err(`raaga: ${error.message}`);
      ctxBase.err(`Run 'raaga ${error.command ? `${error.command} ` : ''}--help' for usage.`);
      return 1;
    }
    ctxBase.err(`raaga: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await runCli(process.argv.slice(2), process.env);
