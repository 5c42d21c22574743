// The server as operators run it (`node --import tsx src/main.ts`) for e2e tests: spawned on a free port, its
// stdout and stderr kept, the listening URL read from its banner. `kill()` is SIGKILL (cleanup); tests that exercise
// graceful shutdown send SIGTERM through `child` and await `exited`.

import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../src/server-node-flags.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** The exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** SIGKILL unless it already exited; resolves once it has. */
  kill(): Promise<void>;
}

export interface ServerProcessOptions {
  /**
   * Start from this test process's environment (default). False: only PATH and HOME, so nothing from the
   * developer's shell (REDIS_URL, RAAGA_*) reaches the server.
   */
  readonly inheritEnv?: boolean;
  readonly startTimeoutMs?: number;
  /** Called as soon as the process is spawned, before it listens (a test that acts on its start-up). */
  readonly onSpawn?: (child: ChildProcess) => void;
}

/** Spawns the server with HOST=127.0.0.1, PORT=0, TTS_WORKERS=1, LOG_LEVEL=warn and `env` on top. */
export async function startServerProcess(env: Record<string, string>, options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const inherited = options.inheritEnv === false ? { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' } : process.env;
  // The compiled server, as `npm start` runs it (`npm test` builds dist/ first). Load shedding is off unless a test
  // sets it, as in-process test servers read a quiet loop: on noisy shared cores a real reading would refuse calls
  // at random (test/e2e/call-admission.test.ts drives shedding with an injected lag).
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, 'dist/main.js'], {
    cwd: root,
    env: { ...inherited, HOST: '127.0.0.1', PORT: '0', TTS_WORKERS: '1', LOG_LEVEL: 'warn', ALLOWED_PRIVATE_DESTINATIONS: '127.0.0.0/8,::1/128', TELEPHONY_SHED_LAG_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), options.startTimeoutMs ?? 25_000);
    const check = (): void => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error(`server exited:\n${out}`));
    });
  }).catch(async (error: unknown) => {
    await kill();
    throw error;
  });
  return { child, url, output: () => out, exited, kill };
}
