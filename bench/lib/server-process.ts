// The real server as its own process (`node` with the server's V8 flags and `--import tsx src/main.ts`, embedded
// store in a temp dir, accounts provisioned from a file), so that a bench's clients and simulated peers do not share the server's event loop.
// Reads the listening URL from its banner; scrapes GET /metrics; reports the process's CPU time from /proc.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateApiKey, hashApiKey } from '../../src/store/api-key.js';
import { SqliteStore } from '../../src/store/sqlite-store.js';
import { SERVER_NODE_FLAGS } from '../../src/server-node-flags.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

export interface ServerProcess {
  readonly base: string;
  readonly pid: number;
  /** The server's RAAGA_DATA_DIR (its embedded store; another SqliteStore may open it to read, as the CLI does). */
  readonly dataDir: string;
  readonly accounts: readonly { id: string; key: string }[];
  /** The AudioSocket listener, when the env set AUDIOSOCKET_PORT. */
  readonly audioSocket: { readonly host: string; readonly port: number } | undefined;
  /** GET /metrics as text. */
  metrics(): Promise<string>;
  /** User + system CPU seconds the process has used so far (Linux /proc; NaN elsewhere). */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

export interface ServerProcessOptions {
  readonly env?: Record<string, string>;
  readonly accounts?: number;
  /** Account ids instead of acct_bench_0…; each gets one key. */
  readonly accountIds?: readonly string[];
  /** Runs on the embedded store of the server's data dir before the server starts (e.g. telephony settings). */
  readonly prepare?: (store: SqliteStore, accounts: readonly { id: string; key: string }[]) => Promise<void>;
  /** Runs on the data dir once the store is closed, before the server starts (e.g. records written with SQL). */
  readonly prepareDataDir?: (dataDir: string) => Promise<void> | void;
}

export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'raaga-bench-server-'));
  const ids = options.accountIds ?? Array.from({ length: options.accounts ?? 8 }, (_, i) => `acct_bench_${i}`);
  const accounts = ids.map((id) => ({ id, key: generateApiKey() }));
  // Accounts are made here, on the server's own data dir, before it starts (the accounts file is applied again at
  // start: idempotent). Unless `prepare` says otherwise they take unsigned provider requests, as a local setup does:
  // the benches dial Twilio's webhook and stream without signatures.
  const store = await SqliteStore.open({ dataDir: join(dir, 'data') });
  for (const account of accounts) {
    await store.createAccount({ id: account.id, plan: 'growth', credits: 1_000_000_000 });
    await store.addKeyHash(account.id, hashApiKey(account.key));
  }
  if (options.prepare) await options.prepare(store, accounts);
  else for (const account of accounts) await store.putTelephonySettings({ accountId: account.id, allowUnsigned: true, updatedAtMs: Date.now() });
  await store.close();
  await options.prepareDataDir?.(join(dir, 'data'));
  await writeFile(
    join(dir, 'accounts.json'),
    JSON.stringify({ accounts: accounts.map((a) => ({ id: a.id, plan: 'growth', credits: 1_000_000_000, keys: [a.key] })) }),
  );
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server only, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg.length > 0);
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, ...nodeArgs, '--import', 'tsx', join(root, 'src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RAAGA_DATA_DIR: join(dir, 'data'),
      RAAGA_ACCOUNTS_FILE: join(dir, 'accounts.json'),
      METRICS_TOKEN,
      REDIS_URL: '',
      // The bench's agents and webhook receivers listen on loopback.
      ALLOWED_PRIVATE_DESTINATIONS: '127.0.0.0/8',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const { base, audioSocket } = await listeningUrl(child);
  child.stdout!.resume();
  return {
    base,
    audioSocket,
    pid: child.pid!,
    dataDir: join(dir, 'data'),
    accounts,
    metrics: async () => (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text(),
    cpuSeconds: () => processCpuSeconds(child.pid!),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** User + system CPU seconds of a process, all its threads (Linux /proc; NaN elsewhere). */
function processCpuSeconds(pid: number): number {
  try {
    // After the command name: state is field 3; utime and stime are fields 14 and 15, in USER_HZ (100) ticks.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/** The HTTP URL and the AudioSocket listener from the banner (written in one piece, so both are there at once). */
async function listeningUrl(child: ChildProcess): Promise<{ base: string; audioSocket: { host: string; port: number } | undefined }> {
  let out = '';
  for await (const chunk of child.stdout!) {
    out += String(chunk);
    const match = /listening on (http:\/\/\S+)/.exec(out);
    if (match) {
      const audio = /AudioSocket on (\S+):(\d+)/.exec(out);
      return { base: match[1]!.replace('localhost', '127.0.0.1'), audioSocket: audio ? { host: audio[1]!, port: Number(audio[2]) } : undefined };
    }
  }
  throw new Error(`server exited before listening:\n${out}`);
}
