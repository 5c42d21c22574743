// One turn of the event loop for code that loops over many pieces (clauses, cached pieces, base64 slices): timers,
// socket reads and every live call's frame pacing run before the loop goes on, whatever resolved in between.

import { setImmediate as nextTurn } from 'node:timers/promises';

export function eventLoopTurn(): Promise<void> {
  return nextTurn();
}
