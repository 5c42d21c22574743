// The one error for a Flite voice file Raaga will not use (missing, unreadable, not a .flitevox, truncated, of another
// language, or refused by flite itself); its message always names the file.

export class FliteVoiceError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`flite voice ${path} ${problem}`);
    this.name = 'FliteVoiceError';
  }
}
