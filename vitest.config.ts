import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Bounds that only catch hangs: no test measures time against them (see README, "Install and pass the tests").
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Much of the suite waits on real sockets, worker threads and child processes rather than the CPU, so three
    // files at a time finish sooner than vitest's default of one per spare core (one, on a 2-core machine).
    maxWorkers: 3,
  },
});
