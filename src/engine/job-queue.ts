// The order in which waiting synthesis jobs reach a free worker: a phone call's clauses first (each has a playout
// deadline: a caller hears the gap), then API requests, one job per account in turn, so one tenant's many long
// requests cannot make another's wait behind all of them. FIFO within a call lane and within an account.

/** Who a job is for: the worker pool schedules by it. Absent: an API request of no particular account. */
export interface JobLane {
  readonly kind: 'call' | 'request';
  /** The account whose request it is (fair share between accounts). */
  readonly owner: string;
}

const UNOWNED: JobLane = { kind: 'request', owner: '' };

export class FairJobQueue<T> {
  readonly #calls: T[] = [];
  /** Waiting requests per account; an account's turn comes in the order accounts were first seen waiting. */
  readonly #requests = new Map<string, T[]>();
  #length = 0;

  get length(): number {
    return this.#length;
  }

  push(item: T, lane: JobLane = UNOWNED): void {
    this.#length++;
    if (lane.kind === 'call') {
      this.#calls.push(item);
      return;
    }
    const waiting = this.#requests.get(lane.owner);
    if (waiting) waiting.push(item);
    else this.#requests.set(lane.owner, [item]);
  }

  /** The next job to run, or undefined when none waits. */
  shift(): T | undefined {
    const call = this.#calls.shift();
    if (call !== undefined) {
      this.#length--;
      return call;
    }
    for (const [owner, waiting] of this.#requests) {
      const item = waiting.shift() as T;
      // The account goes to the back of the rotation (or leaves it when it has nothing more waiting).
      this.#requests.delete(owner);
      if (waiting.length > 0) this.#requests.set(owner, waiting);
      this.#length--;
      return item;
    }
    return undefined;
  }

  /** Takes a job out wherever it waits (its caller gave up); false when it was not waiting. */
  remove(item: T): boolean {
    const at = this.#calls.indexOf(item);
    if (at >= 0) {
      this.#calls.splice(at, 1);
      this.#length--;
      return true;
    }
    for (const [owner, waiting] of this.#requests) {
      const index = waiting.indexOf(item);
      if (index < 0) continue;
      waiting.splice(index, 1);
      if (waiting.length === 0) this.#requests.delete(owner);
      this.#length--;
      return true;
    }
    return false;
  }

  /** Every waiting job, the queue left empty. */
  drain(): T[] {
    const all = [...this.#calls.splice(0), ...[...this.#requests.values()].flat()];
    this.#requests.clear();
    this.#length = 0;
    return all;
  }
}
