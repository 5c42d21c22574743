// Bad usage of a `raaga` command: the CLI prints one line naming what is wrong and how to fix it, and exits 2
// (other failures exit 1), never with a stack trace.

export class UsageError extends Error {
  /** The command path whose `--help` the user should read, e.g. `accounts create`. */
  readonly command: string | undefined;
  constructor(message: string, command?: string) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}
