// One line per `raaga` command for `raaga --help` and each command's own help, kept apart from the commands so the
// top-level help loads none of them.

export const COMMAND_SUMMARIES = {
  accounts: 'Create, list and inspect accounts.',
  keys: 'Create, list, revoke and hash API keys.',
  credits: 'Top up account balances.',
  usage: "Print an account's usage ledger: totals by day, voice, language or key, or every record (CSV for invoicing).",
  store: 'Export the store (accounts, keys, balances, voices, telephony settings) to JSON, or import it: moves between SQLite and Redis.',
  voices: 'Create and list custom (vc_) voices (Growth plan); add neural voice packs.',
  say: 'Synthesize text to an audio file with the embedded engine.',
  normalize: 'Print the words the engine is given for a text (numbers, dates, identifiers read out).',
  speak: 'Synthesize text on a running server (HTTP or WebSocket) into an audio file.',
  'call-sim': "Simulate Twilio's side of a phone call against a Raaga server (timeline, barge-in, heard audio).",
  telephony: "An account's Twilio credentials and default call parameters",
  twiml: 'Print <Connect><Stream> TwiML for serving your own TwiML',
} as const;

export type CommandName = keyof typeof COMMAND_SUMMARIES;
