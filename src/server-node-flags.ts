// The V8 flags the server process runs with (`npm start`, the Dockerfile, the systemd unit in docs/operations.md,
// the benches and the process tests; test/unit/server-node-flags.test.ts holds them to this list). V8 reads them
// when the process starts, so they cannot be set from inside.
//
// --initial-old-space-size: the old generation of every heap (the event loop's and each worker thread's) is
// collected first at 64 MB instead of at V8's default limit for its live size. A speaking call or a clause leaves
// short-lived objects that survive a scavenge or two; with the defaults the engine threads (about 10 MB live) ran a
// full collection every quarter second and the event loop one every second under calls, and the concurrent marking
// of those collections was a sixth to a quarter of the server's CPU (bench/server-cpu.ts, bench/telephony.ts,
// docs/performance.md). The price: each heap may hold up to that much garbage, 10-25 MiB more resident memory.
export const SERVER_NODE_FLAGS: readonly string[] = ['--initial-old-space-size=64'];

/** The flags of SERVER_NODE_FLAGS this process was not started with (node's execArgv). */
export function missingServerNodeFlags(execArgv: readonly string[] = process.execArgv): string[] {
  return SERVER_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}
