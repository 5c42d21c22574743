// The valid choices nearest to a mistyped one (a command, a subcommand, an option, a value), for usage errors that
// say what was meant: "unknown option '--vocie'; did you mean --voice?".

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The choices the user most likely meant: those a few edits away (the closest first), else those that contain
 * what was typed or that it contains (`--auth-token` → `--twilio-auth-token`, `--plivo-auth-token`). Empty when
 * nothing is close: then the caller lists every choice.
 */
export function nearestChoices(typed: string, choices: readonly string[]): string[] {
  const wanted = typed.toLowerCase();
  if (wanted === '') return [];
  const allowed = Math.max(1, Math.min(3, Math.floor(wanted.length / 3)));
  const scored = choices.map((choice) => ({ choice, distance: editDistance(wanted, choice.toLowerCase()) })).filter((entry) => entry.distance <= allowed);
  if (scored.length > 0) {
    const best = Math.min(...scored.map((entry) => entry.distance));
    return scored.filter((entry) => entry.distance === best).map((entry) => entry.choice);
  }
  const bare = (text: string) => text.toLowerCase().replace(/^-+/, '');
  const core = bare(wanted);
  return core.length < 3 ? [] : choices.filter((choice) => bare(choice).includes(core) || core.includes(bare(choice)));
}

/** "a", "a or b", "a, b or c". */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** `; did you mean x?`, or `; one of a, b or c` when nothing is close (nothing when there are too many to list). */
export function suggestion(typed: string, choices: readonly string[], listAtMost = 12): string {
  const near = nearestChoices(typed, choices);
  if (near.length > 0) return `; did you mean ${orList(near)}?`;
  return choices.length <= listAtMost ? `; one of ${orList(choices)}` : '';
}
