// FairJobQueue (src/engine/job-queue.ts): calls first, then one request per account in turn, FIFO within each.
import { describe, expect, it } from 'vitest';
import { FairJobQueue, type JobLane } from '../../../src/engine/job-queue.js';

const call: JobLane = { kind: 'call', owner: 'acct_a' };
const request = (owner: string): JobLane => ({ kind: 'request', owner });

function order(queue: FairJobQueue<string>): string[] {
  const out: string[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) out.push(item);
  return out;
}

describe('FairJobQueue', () => {
  it("serves a call's clauses before any request that waited longer", () => {
    const queue = new FairJobQueue<string>();
    queue.push('r1', request('acct_b'));
    queue.push('r2', request('acct_b'));
    queue.push('c1', call);
    queue.push('c2', { kind: 'call', owner: 'acct_b' });
    expect(order(queue)).toEqual(['c1', 'c2', 'r1', 'r2']);
    expect(queue.length).toBe(0);
  });

  it('shares what is left between accounts one job at a time, however many one account queued', () => {
    const queue = new FairJobQueue<string>();
    for (let i = 1; i <= 4; i++) queue.push(`big${i}`, request('acct_big'));
    queue.push('small1', request('acct_small'));
    queue.push('small2', request('acct_small'));
    queue.push('other1', request('acct_other'));
    expect(order(queue)).toEqual(['big1', 'small1', 'other1', 'big2', 'small2', 'big3', 'big4']);
  });

  it('an account that comes back after its queue emptied joins the back of the rotation', () => {
    const queue = new FairJobQueue<string>();
    queue.push('a1', request('a'));
    queue.push('b1', request('b'));
    expect(queue.shift()).toBe('a1');
    queue.push('a2', request('a'));
    queue.push('b2', request('b'));
    expect(order(queue)).toEqual(['b1', 'a2', 'b2']);
  });

  it('removes a job wherever it waits, and drains everything', () => {
    const queue = new FairJobQueue<string>();
    queue.push('c1', call);
    queue.push('r1', request('a'));
    queue.push('r2', request('b'));
    queue.push('plain');
    expect(queue.remove('r1')).toBe(true);
    expect(queue.remove('r1')).toBe(false);
    expect(queue.remove('c1')).toBe(true);
    expect(queue.length).toBe(2);
    expect(queue.drain().sort()).toEqual(['plain', 'r2']);
    expect(queue.length).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });
});
