// One line per `raaga` command for `raaga --help` and each command's own help, kept apart from the commands so the
// top-level help loads none of them. A group's line names each of its subcommands (test/unit/cli/command-help.test.ts).

export const COMMAND_SUMMARIES = {
  accounts: 'Create, list and show accounts (plan, balance, keys, custom voices).',
  keys: 'Create, list, revoke and hash API keys.',
  credits: "Add credits to an account's balance.",
  usage: "Print an account's usage ledger: totals by day, voice, language or key, or every record (CSV for invoicing).",
  store: 'Export the store (accounts, keys, balances, voices, telephony settings, lexicons) to JSON, or import it: moves between SQLite and Redis.',
  voices: 'Install voice packs (catalog, install, add), list the engine each preset voice speaks with, create custom (vc_) voices.',
  lexicon: "An account's pronunciation lexicons: list, show, set and delete entries and lexicons; import and export them as CSV or W3C PLS.",
  say: 'Synthesize text to an audio file on this machine, with the engine the server would use for that voice (an installed pack, else eSpeak).',
  normalize: 'Print the words the engine is given for a text (numbers, dates, identifiers read out).',
  speak: 'Synthesize text on a running server (HTTP or WebSocket) into an audio file.',
  'call-sim': "Play a telephony provider's side of one phone call against a Raaga server (timeline, barge-in, what the caller heard).",
  telephony: "Set, show or clear an account's telephony settings: each provider's credentials, outbound-call rules, default call parameters.",
  twiml: 'Print <Connect><Stream> TwiML for serving your own TwiML.',
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;
