// Entry of the `raaga` operator CLI (bin/raaga.mjs loads it): reads the environment, dispatches to a command,
// and maps every failure to one line on stderr: bad usage exits 2 naming the option and the fix, any other failure
// exits 1 (never a stack trace).
// It opens the store the server uses (SQLite in RAAGA_DATA_DIR, or Redis with REDIS_URL) and may run while the
// server runs: every change is a committed transaction the server reads on its next request.

import { readFileSync } from 'node:fs';
import type { CliContext } from './cli-command.js';
import { COMMANDS } from './command-registry.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';
import { orList, suggestion } from './nearest-choice.js';
import { UsageError } from './usage-error.js';

/** Exit statuses: 0 done, 1 the command failed, 2 it was called wrongly. */
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;

/** The package's version; package.json sits two levels up from src/cli/ and from dist/cli/ alike. */
function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? 'unknown';
}

function topHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'Usage: raaga <command> [options]',
    '       raaga --version',
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
  const names = COMMANDS.map((command) => command.name);
  try {
    if (name === '--help' || name === '-h' || name === 'help') {
      ctxBase.out(topHelp());
      return 0;
    }
    if (name === '--version' || name === '-V' || name === 'version') {
      ctxBase.out(`raaga ${version()}`);
      return 0;
    }
    if (name === undefined) throw new UsageError(`missing command: ${orList(names)}`);
    const entry = COMMANDS.find((candidate) => candidate.name === name);
    if (!entry) throw new UsageError(`unknown ${name.startsWith('-') ? 'option' : 'command'} '${name}'${suggestion(name, [...names, '--help', '--version'])}`);
    const [command, { parseConfig }, { openStore }] = await Promise.all([entry.load(), import('../config.js'), import('../store/open-store.js')]);
    const config = parseConfig(env);
    const ctx: CliContext = {
      ...ctxBase,
      dataDir: config.dataDir,
      modelsDir: config.modelsDir,
      openStore: () => openStore(config),
      readStdin,
      telephony: config.telephony,
      config,
      env,
    };
    await command.run(rest, ctx);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      ctxBase.err(`raaga${error.command ? ` ${error.command}` : ''}: ${error.message} (see 'raaga ${error.command ? `${error.command} ` : ''}--help')`);
      return EXIT_USAGE;
    }
    ctxBase.err(`raaga${name === undefined ? '' : ` ${name}`}: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  }
}

process.exitCode = await runCli(process.argv.slice(2), process.env);
