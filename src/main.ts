// The server process: parse config from the environment, build deps, provision accounts, warm the engine,
// listen, and drain on SIGTERM (drainApp: live calls go on, new ones are refused), then flush the store.

import { buildApp, drainApp } from './app.js';
import { ConfigError, parseConfig } from './config.js';
import { applyAccountsFile } from './core/accounts/accounts-file.js';
import { accountsAllowingUnsigned, ensureDevAccount } from './core/accounts/dev-account.js';
import { warmUpTextFrontEnd } from './core/text/front-end-warm-up.js';
import { buildDeps } from './deps.js';
import { MetricsListener } from './api/metrics-listener.js';
import { isLoopbackHost } from './api/metrics-access.js';
import { createLogger } from './log.js';
import { missingServerNodeFlags } from './server-node-flags.js';
import { describeStore } from './store/open-store.js';
import { SqliteStore } from './store/sqlite-store.js';

async function main(): Promise<void> {
  let config;
  try {
    config = parseConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`raaga: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const deps = await buildDeps(config, logger);
  const missingFlags = missingServerNodeFlags();
  if (missingFlags.length > 0) {
    logger.warn({ missing: missingFlags }, `node was started without ${missingFlags.join(' ')}: the server runs, with more CPU spent on garbage collection (npm start passes it; docs/operations.md)`);
  }
  logger.info({ store: describeStore(config) }, 'store opened');
  if (deps.store instanceof SqliteStore && deps.store.migration) {
    logger.info({ ...deps.store.migration }, 'store.json imported into the SQLite store (the file was kept as a backup)');
  }

  if (config.accountsFile) {
    const summary = await applyAccountsFile(deps.store, config.accountsFile);
    logger.info({ ...summary, file: config.accountsFile }, 'accounts file applied');
  }
  const devKey = await ensureDevAccount(deps.store);
  const unsigned = await accountsAllowingUnsigned(deps.store);
  if (unsigned.length > 0) {
    // Anyone who can reach the port can run calls billed to these accounts: say so at every start.
    logger.warn(
      { accounts: unsigned },
      'accounts accept provider webhooks and media streams without provider credentials (allow-unsigned); set their credentials with raaga telephony set and --allow-unsigned false before exposing this server',
    );
  }

  const started = Date.now();
  await deps.engine.start();
  logger.info({ engine: deps.engine.name, workers: deps.engine.load().workers, ms: Date.now() - started }, 'engine warmed');
  warmUpTextFrontEnd();
  // Calls hear nothing until the VAD model is loaded; a failed load is logged in deps and leaves speech barge-in off.
  await deps.telephony?.vad?.ready().catch(() => undefined);

  const app = buildApp(deps);
  const address = await app.listen({ host: config.host, port: config.port });
  // Load shedding judges lag while serving only: what start-up cost the loop so far is no load.
  deps.startLagMonitor();
  const audioSocket = await app.audioSocket?.listen();
  const metricsListener =
    config.metricsListener && deps.metrics
    ? new MetricsListener({ ...config.metricsListener, metrics: deps.metrics, access: { token: config.metricsToken, loopbackOnly: isLoopbackHost(config.metricsListener.host) }, timeouts: config.httpTimeouts })
    : undefined;
  const metricsAddress = await metricsListener?.listen();
  if (metricsAddress) logger.info({ host: metricsAddress.address, port: metricsAddress.port }, 'metrics listening');
  else if (config.metricsToken === undefined && !isLoopbackHost(config.host)) {
    logger.warn({ host: config.host }, 'GET /metrics is refused on this public listener: set METRICS_TOKEN, or METRICS_PORT for a loopback listener of its own');
  }
  // Plain lines for the human who just typed `npm start`; the JSON log has the same facts.
  const banner = [`\nRaaga is listening on ${address.replace('0.0.0.0', 'localhost')}\n`];
  if (audioSocket) banner.push(`Asterisk AudioSocket on ${audioSocket.address}:${audioSocket.port} (billed to ${config.telephony.audioSocket?.accountId})\n`);
  if (devKey) {
    banner.push(
      `No accounts were configured, so a development account was created:\n` +
        `  account: ${devKey.accountId} (developer plan, ${devKey.credits} credits)\n` +
        `  API key: ${devKey.key}\n` +
        `The key is shown only now; keep it. Try:\n` +
        `  curl -s ${address.replace('0.0.0.0', 'localhost')}/v1/voices -H "Authorization: Bearer ${devKey.key}"\n\n`,
    );
  }
  let stopping = false;
  const stop = async (signal: string): Promise<void> => {
    if (stopping) {
      // A second signal: the operator will not wait. Whatever is live is cut; reservations expire on their own.
      logger.warn({ signal }, 'second signal: stopping at once');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, graceMs: config.shutdownGraceMs, callDrainLimitMs: config.callDrainLimitMs }, 'shutting down');
    try {
      await drainApp(app, deps, logger, { graceMs: config.shutdownGraceMs, callDrainLimitMs: config.callDrainLimitMs });
      await metricsListener?.close();
      await deps.close();
      logger.info('stopped');
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // After the handlers: a supervisor may send SIGTERM as soon as it reads the address, and before them Node's
  // default action would kill the process without the graceful shutdown.
  // One write, so a reader never sees the address without the key that goes with it.
  process.stdout.write(banner.join(''));
}

main().catch((error: unknown) => {
  process.stderr.write(`raaga: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
