// The import rules of the design notes (DESIGN.md, "The house in one picture"), checked by `npm test`: no upward
// imports, no cycles, and each outside dependency in its one home. A violation fails the test command.
const outside = (names) => `(^|/)node_modules/(${names.join('|')})/`;
// A provider folder is any folder of telephony/ but the call core's own (agent/, destination/, outbound/): a new provider
// needs no line here.
const providerFolder = '^src/telephony/(?!agent/|destination/|outbound/)([^/]+)/';
// A vendor dialect is any folder of api/ but the spec's own (routes/, docs/, playground/): a new dialect needs no line here.
const dialectFolder = '^src/api/(?!routes/|docs/|playground/)([^/]+)/';
// An engine kind is any folder of engine/ but the shared ones (espeak/: the embedded engine, whose phonemizer the pack
// kinds use; vad/: the barge-in detector's model): a new kind needs no line here.
const engineKindFolder = '^src/engine/(?!espeak/|vad/)([^/]+)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-cycles', severity: 'error', from: { path: '^src' }, to: { circular: true } },
    {
      name: 'fastify-only-in-the-http-surface',
      comment: 'fastify and its plugins live in api/, app.ts and main.ts.',
      severity: 'error',
      from: { path: '^src', pathNot: '^src/(api/|app\\.ts$|main\\.ts$)' },
      to: { path: outside(['fastify', '@fastify/[^/]+']) },
    },
    {
      name: 'ioredis-only-in-the-redis-store',
      severity: 'error',
      from: { path: '^src', pathNot: '^src/store/(redis/|redis-store\\.ts$)' },
      to: { path: outside(['ioredis']) },
    },
    {
      name: 'one-ioredis-client-factory',
      comment: 'Connections are made in store/redis/client.ts only (one reconnect policy); elsewhere types only.',
      severity: 'error',
      from: { path: '^src/store/', pathNot: '^src/store/redis/client\\.ts$' },
      to: { path: outside(['ioredis']), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'sqlite-only-in-the-embedded-store',
      comment: 'better-sqlite3 is opened and typed in store/sqlite/ only; SqliteStore works through it.',
      severity: 'error',
      from: { path: '^src', pathNot: '^src/store/sqlite/' },
      to: { path: outside(['better-sqlite3']) },
    },
    {
      name: 'onnxruntime-and-threads-only-in-the-engine',
      severity: 'error',
      from: { path: '^src', pathNot: '^src/engine/' },
      to: { path: `${outside(['onnxruntime-node'])}|^(node:)?worker_threads$` },
    },
    {
      name: 'prom-client-only-in-metrics',
      severity: 'error',
      from: { path: '^src', pathNot: '^src/metrics/prometheus-metrics\\.ts$' },
      to: { path: outside(['prom-client']) },
    },
    {
      name: 'audio-is-a-leaf',
      comment: 'audio/ is pure DSP and codecs: it imports nothing else of src.',
      severity: 'error',
      from: { path: '^src/audio/' },
      to: { path: '^src/', pathNot: '^src/audio/' },
    },
    {
      name: 'util-is-a-leaf',
      severity: 'error',
      from: { path: '^src/util/' },
      to: { path: '^src/', pathNot: '^src/(util/|audio/|errors\\.ts$)' },
    },
    {
      name: 'leaves-import-no-layer',
      comment: 'errors.ts, config.ts, log.ts, languages.ts and call-commands.ts are importable from anywhere, so they import no layer.',
      severity: 'error',
      from: { path: '^src/(errors|config|log|languages|call-commands)\\.ts$' },
      to: { path: '^src/(api|core|session|telephony|engine|store|cli|metrics)/' },
    },
    {
      name: 'core-below-transports',
      comment: 'core/ (use cases) never reaches up to the HTTP surface, sessions, calls or the CLI.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(api|session|telephony|cli)/|^src/(app|deps|main)\\.ts$' },
    },
    {
      name: 'engine-below-core',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/(api|core|session|telephony|store|cli)/|^src/(app|deps|main)\\.ts$' },
    },
    {
      name: 'engine-kinds-stand-alone',
      comment: 'An engine kind (src/engine/<kind>/) imports the engine layer, the shared eSpeak folder and audio/, never another kind: adding or removing one touches its folder and engines.ts only.',
      severity: 'error',
      from: { path: engineKindFolder },
      to: { path: engineKindFolder, pathNot: '^src/engine/$1/' },
    },
    {
      name: 'store-below-core',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/(api|core|session|telephony|engine|cli)/|^src/(app|deps|main)\\.ts$' },
    },
    {
      name: 'session-below-calls-and-http',
      comment: 'session/ is transport-agnostic: no HTTP surface, no provider shapes, no CLI.',
      severity: 'error',
      from: { path: '^src/session/' },
      to: { path: '^src/(api|telephony|cli)/|^src/(app|deps|main)\\.ts$' },
    },
    {
      name: 'telephony-below-http',
      severity: 'error',
      from: { path: '^src/telephony/' },
      to: { path: '^src/(api|cli)/|^src/(app|deps|main)\\.ts$' },
    },
    {
      name: 'dialects-stand-alone',
      comment: "A vendor dialect (src/api/<dialect>/: openai/, elevenlabs/) translates to Raaga's own use cases and never imports another dialect.",
      severity: 'error',
      from: { path: dialectFolder },
      to: { path: dialectFolder, pathNot: '^src/api/$1/' },
    },
    {
      name: 'spec-routes-below-the-dialects',
      comment: "The spec's routes and the shared HTTP pieces never reach into a dialect; only app.ts registers them.",
      severity: 'error',
      from: { path: '^src/(api/[^/]+\\.ts$|api/(routes|docs)/|core/|session/|telephony/|store/|engine/)' },
      to: { path: dialectFolder },
    },
    {
      name: 'provider-folders-stand-alone',
      comment: 'A provider folder (src/telephony/<provider>/) never imports another provider\'s: adding or removing one touches its folder and providers.ts only.',
      severity: 'error',
      from: { path: providerFolder },
      to: { path: providerFolder, pathNot: '^src/telephony/$1/' },
    },
    {
      name: 'provider-folders-below-the-call-core',
      comment: 'A provider module declares what differs (codec, credentials, authenticator, paths, webhooks, dialer); the call itself and the registry are above it.',
      severity: 'error',
      from: { path: providerFolder },
      to: { path: '^src/telephony/(providers|media-stream|call-assembly|stream-authentication)\\.ts$' },
    },
    {
      name: 'providers-only-through-the-registry',
      comment:
        'Routes, CLI, playground and dialers reach a provider through telephony/providers.ts, never its folder (the simulator plays the provider side and may use its wire shapes). Two transports of one provider are exempt: AudioSocket\'s TCP listener and `raaga twiml`, Twilio\'s own command.',
      severity: 'error',
      from: { path: '^src/', pathNot: `^src/(telephony/providers\\.ts$|sim/|api/audiosocket-listener\\.ts$|cli/commands/twiml\\.ts$)|${providerFolder}` },
      to: { path: providerFolder },
    },
    {
      name: 'telephony-never-imports-the-simulator',
      comment: 'sim/ plays the provider side of a call against telephony/ (it may import its message shapes); what runs in calls never depends on the test device.',
      severity: 'error',
      from: { path: '^src/telephony/' },
      to: { path: '^src/sim/' },
    },
    {
      name: 'only-the-cli-and-the-playground-use-the-simulator',
      comment: 'The simulator is not production code: only `raaga call-sim` (cli/) and the playground route dial it (tests and benches too, which are not cruised).',
      severity: 'error',
      from: { path: '^src', pathNot: '^src/(sim/|cli/|api/routes/playground-call\\.ts$)' },
      to: { path: '^src/sim/' },
    },
    {
      name: 'simulator-below-the-http-surface',
      comment: 'sim/ dials a server over its sockets; it never reaches into the HTTP surface that serves the playground.',
      severity: 'error',
      from: { path: '^src/sim/' },
      to: { path: '^src/api/' },
    },
    {
      name: 'client-has-no-server-code',
      comment: 'The published client (raaga/client) ships alone: only type-level imports of the API schemas.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/', pathNot: '^src/client/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'nothing-imports-the-cli-or-the-entry-points',
      severity: 'error',
      from: { path: '^src', pathNot: '^src/(cli/|main\\.ts$|deps\\.ts$|app\\.ts$)' },
      to: { path: '^src/cli/|^src/(main|deps|app)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
