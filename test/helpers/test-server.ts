// Starts the real app (real eSpeak workers, SqliteStore on a temp dir) on port 0 for e2e tests,
// and provisions accounts with keys. One engine is shared per test file to keep the suite fast.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { WebSocketSettings } from '../../src/api/context.js';
import { buildApp, closeApp, type AppDeps } from '../../src/app.js';
import { parseConfig, type Config } from '../../src/config.js';
import { buildDeps, type Deps, type DepsOverrides } from '../../src/deps.js';
import { generateApiKey, hashApiKey } from '../../src/store/api-key.js';
import type { Plan, Store } from '../../src/store/store.js';

export interface TestServer {
  readonly url: string;
  readonly deps: Deps;
  readonly dataDir: string;
  /** host:port of the AudioSocket listener, when AUDIOSOCKET_PORT was set. */
  readonly audioSocket: { readonly host: string; readonly port: number } | undefined;
  /** Creates an account with one key (more with `extraKeys`) and returns the keys in clear. */
  account(plan: Plan, credits: number, extraKeys?: number): Promise<{ id: string; keys: string[] }>;
  close(options?: { keepData?: boolean }): Promise<void>;
}

export const LOOPBACK_DESTINATIONS = '127.0.0.0/8,::1/128';

const QUIET_EVENT_LOOP = { p99Ms: () => 0 };

export async function startTestServer(
  env: Record<string, string> = {},
  overrides: DepsOverrides & { dataDir?: string; webSocket?: WebSocketSettings; logger?: Logger; app?: (deps: Deps) => Partial<AppDeps> } = {},
): Promise<TestServer> {
  const dataDir = overrides.dataDir ?? (await mkdtemp(join(tmpdir(), 'raaga-test-')));
  // The prompt cache is off unless a test turns it on: a suite that repeats a text would otherwise test the cache's
  // replay instead of synthesis (test/e2e/prompt-cache.test.ts covers the cache on every endpoint).
  // Agents and webhook receivers in tests listen on loopback, which the destination policy refuses unless allowed;
  // the security tests pass ALLOWED_PRIVATE_DESTINATIONS: '' to see the default.
  const config: Config = parseConfig({
    TTS_WORKERS: '2',
    LOG_LEVEL: 'silent',
    PROMPT_CACHE_MAX_BYTES: '0',
    ALLOWED_PRIVATE_DESTINATIONS: LOOPBACK_DESTINATIONS,
    ...env,
    RAAGA_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  // Call admission reads a quiet event loop unless a test sets one: the tests' own peers share this loop on noisy
  // cores, and a real reading would shed their calls at random (test/e2e/call-admission.test.ts drives it).
  const deps = await buildDeps(config, overrides.logger ?? pino({ level: 'silent' }), { eventLoopLag: QUIET_EVENT_LOOP, ...overrides });
  await deps.engine.start();
  // `app` swaps parts the app is built from (e.g. a synthesis service with other limits).
  const appDeps: AppDeps = { ...deps, ...overrides.app?.(deps) };
  const app = buildApp(overrides.webSocket ? { ...appDeps, webSocket: { ...appDeps.webSocket, ...overrides.webSocket } } : appDeps);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const audioSocket = await app.audioSocket?.listen();
  return {
    url: address,
    deps,
    dataDir,
    audioSocket: audioSocket ? { host: audioSocket.address, port: audioSocket.port } : undefined,
    async account(plan, credits, extraKeys = 0) {
      return provisionAccount(deps.store, plan, credits, extraKeys);
    },
    async close(options = {}) {
      await closeApp(app, 0, () => deps.shutdownController.abort('shutdown'));
      await deps.close();
      if (!options.keepData && !overrides.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function provisionAccount(store: Store, plan: Plan, credits: number, extraKeys = 0): Promise<{ id: string; keys: string[] }> {
  const account = await store.createAccount({ plan, credits });
  const keys: string[] = [];
  for (let i = 0; i <= extraKeys; i++) {
    const key = generateApiKey();
    await store.addKeyHash(account.id, hashApiKey(key));
    keys.push(key);
  }
  return { id: account.id, keys };
}

export function authHeaders(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
}

export const HINDI_SENTENCE = 'नमस्ते, आपका खाता सक्रिय है।';
