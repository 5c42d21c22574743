// Server configuration: one zod schema over the environment, every default documented in README's config table.
// Only main.ts (and the CLI's main) pass process.env in; everything else receives a parsed Config.

import { availableParallelism } from 'node:os';
import { z } from 'zod';

const intFromEnv = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const ConfigSchema = z.object({
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: intFromEnv(0, 65535).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RAAGA_DATA_DIR: z.string().min(1).default('./data'),
  RAAGA_ACCOUNTS_FILE: z.string().min(1).optional(),
  RAAGA_MODELS_DIR: z.string().min(1).default('./models'),
  /** 0 = one worker per core. */
  TTS_WORKERS: intFromEnv(0, 64).default(0),
  TTS_QUEUE_SIZE: intFromEnv(1, 10_000).default(64),
  MAX_BODY_BYTES: intFromEnv(1024, 10 * 1024 * 1024).default(64 * 1024),
  SLOT_LEASE_MS: intFromEnv(1000, 600_000).default(30_000),
  RESERVATION_TTL_MS: intFromEnv(10_000, 86_400_000).default(15 * 60_000),
  SHUTDOWN_GRACE_MS: intFromEnv(0, 300_000).default(10_000),
  /** Cap on the first streamed chunk so the first audio leaves early (code points). */
  FIRST_CHUNK_MAX_CHARS: intFromEnv(20, 3000).default(100),
});

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly logLevel: z.infer<typeof ConfigSchema>['LOG_LEVEL'];
  readonly dataDir: string;
  readonly accountsFile: string | undefined;
  readonly modelsDir: string;
  readonly ttsWorkers: number;
  readonly ttsQueueSize: number;
  readonly maxBodyBytes: number;
  readonly slotLeaseMs: number;
  readonly reservationTtlMs: number;
  readonly shutdownGraceMs: number;
  readonly firstChunkMaxChars: number;
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function parseConfig(env: Readonly<Record<string, string | undefined>>): Config {
  // Empty strings mean "unset": shells and compose files often export VAR= for defaults.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = ConfigSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT,
    logLevel: e.LOG_LEVEL,
    dataDir: e.RAAGA_DATA_DIR,
    accountsFile: e.RAAGA_ACCOUNTS_FILE,
    modelsDir: e.RAAGA_MODELS_DIR,
    ttsWorkers: e.TTS_WORKERS === 0 ? availableParallelism() : e.TTS_WORKERS,
    ttsQueueSize: e.TTS_QUEUE_SIZE,
    maxBodyBytes: e.MAX_BODY_BYTES,
    slotLeaseMs: e.SLOT_LEASE_MS,
    reservationTtlMs: e.RESERVATION_TTL_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    firstChunkMaxChars: e.FIRST_CHUNK_MAX_CHARS,
  };
}
