// Every `raaga` command, in the order `raaga --help` lists them: a new command is one entry here. Commands load on
// use, so `raaga --help` imports none of them (nor the engine, the store or zod) and answers at once.

import type { Command } from './cli-command.js';
import type { CommandName } from './command-summaries.js';

export const COMMANDS: readonly { readonly name: CommandName; readonly load: () => Promise<Command> }[] = [
  { name: 'accounts', load: async () => (await import('./commands/accounts.js')).accountsCommand },
  { name: 'keys', load: async () => (await import('./commands/keys.js')).keysCommand },
  { name: 'credits', load: async () => (await import('./commands/credits.js')).creditsCommand },
  { name: 'usage', load: async () => (await import('./commands/usage.js')).usageCommand },
  { name: 'store', load: async () => (await import('./commands/store.js')).storeCommand },
  { name: 'voices', load: async () => (await import('./commands/voices.js')).voicesCommand },
  { name: 'lexicon', load: async () => (await import('./commands/lexicon.js')).lexiconCommand },
  { name: 'say', load: async () => (await import('./commands/say.js')).sayCommand },
  { name: 'normalize', load: async () => (await import('./commands/normalize.js')).normalizeCommand },
  { name: 'speak', load: async () => (await import('./commands/speak.js')).speakCommand },
  { name: 'call-sim', load: async () => (await import('./commands/call-sim.js')).callSimCommand },
  { name: 'telephony', load: async () => (await import('./commands/telephony.js')).telephonyCommand },
  { name: 'twiml', load: async () => (await import('./commands/twiml.js')).twimlCommand },
];
