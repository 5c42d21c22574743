// The server's V8 flags (src/server-node-flags.ts) are what every way of starting it passes: npm start, the
// container image, the systemd unit and the other commands of docs/operations.md, the process tests and the benches.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { missingServerNodeFlags, SERVER_NODE_FLAGS } from '../../src/server-node-flags.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

describe('the server node flags', () => {
  it('npm start passes them', () => {
    const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
    expect(start).toBe(['node', ...SERVER_NODE_FLAGS, 'dist/main.js'].join(' '));
  });

  it('the container image passes them', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'))?.[1];
    expect(JSON.parse(cmd ?? '[]')).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/main.js']);
  });

  it('every command of docs/operations.md that starts the server passes them', () => {
    const starts = read('docs/operations.md').split('\n').filter((line) => /\bnode\b.*dist\/main\.js/.test(line));
    expect(starts.length).toBeGreaterThanOrEqual(3);
    for (const line of starts) for (const flag of SERVER_NODE_FLAGS) expect(line).toContain(`node ${flag}`);
  });

  it('the process tests and the benches start the server with them', () => {
    expect(read('test/helpers/server-process.ts')).toContain("[...SERVER_NODE_FLAGS, 'dist/main.js']");
    expect(read('bench/lib/server-process.ts')).toContain('[...SERVER_NODE_FLAGS, ...nodeArgs');
  });

  it('names the flags a process was started without', () => {
    expect(missingServerNodeFlags([])).toEqual([...SERVER_NODE_FLAGS]);
    expect(missingServerNodeFlags(['--inspect', ...SERVER_NODE_FLAGS])).toEqual([]);
  });
});
