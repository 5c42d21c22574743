// docs/first-phone-call.md as a reader follows it: the server as `npm start` runs it (a fresh data directory, so it
// makes the development account and prints its key), then every ```sh first-call=<id>``` block of the guide, in order,
// in bash, with the account and key the banner printed, `localhost:8080` pointing at this server and `$PUBLIC_URL` at
// it too (a tunnel's stand-in). Each block must exit 0 and print what the guide tells the reader to look for; the
// blocks that need a real provider account or console are not marked and not run. `npx raaga` is the repository's own
// bin/raaga.mjs, as npx resolves it inside the clone (a shim on PATH spares npm's start-up per command).

import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const GUIDE = join(root, 'docs/first-phone-call.md');

/** What each tested block must print: what the guide tells the reader to read. */
const EXPECTED: Readonly<Record<string, readonly RegExp[]>> = {
  voices: [/"voice_name":"\w+"/],
  playground: [/first_media_in_ms: \d/, /barge_in_ms: \d/],
  'call-sim': [/Call CA\w+ \(twilio\)/, /first audio +\d+ ms after the stream opened/, /barge-in +clear \d+ ms after the first caller speech frame/],
  'exotel-set': [/Telephony settings of acct_dev updated \(exotel signatures are now required\)/],
  'exotel-sim': [/\(exotel\) on ws:\/\/127\.0\.0\.1:\d+\/v1\/telephony\/exotel\/media\/acct_dev/, /first audio +\d+ ms after the stream opened/],
  usage: [/\bcall\b.*\bcompleted\b/],
  'twilio-set': [/Telephony settings of acct_dev updated \((?=.*\btwilio\b).*signatures are now required\)/],
  'twilio-check': [/^403$/m, /Call CA\w+ \(twilio\) on wss?:\/\/127\.0\.0\.1:\d+\/v1\/telephony\/twilio\/media\/acct_dev/, /first audio +\d+ ms after the stream opened/],
  'asterisk-set': [/Telephony settings of acct_dev updated \((?=.*\basterisk\b).*signatures are now required\)/],
  'asterisk-sim': [/\(asterisk\) on ws:\/\/127\.0\.0\.1:\d+\/v1\/telephony\/asterisk\/media\/acct_dev/, /first audio +\d+ ms after the stream opened/],
};

interface Block {
  readonly id: string;
  readonly script: string;
}

/** The guide's ```sh first-call=<id> blocks, in order. */
function testedBlocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```sh first-call=([\w-]+)\n([\s\S]*?)^```$/gm)].map((match) => ({ id: match[1]!, script: match[2]! }));
}

const blocks = testedBlocks(await readFile(GUIDE, 'utf8'));
let server: ServerProcess;
let dir: string;
/** The shell environment as the last block left it (what it exported). */
let shellEnv: Record<string, string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-first-call-'));
  const dataDir = join(dir, 'data');
  server = await startServerProcess({ RAAGA_DATA_DIR: dataDir, LOG_LEVEL: 'info' }, { inheritEnv: false });
  const shim = join(dir, 'bin');
  await mkdir(shim);
  await writeFile(join(shim, 'npx'), `#!/bin/sh\n[ "$1" = raaga ] || { echo "the guide's npx is for raaga only: $*" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${join(root, 'bin/raaga.mjs')}" "$@"\n`);
  await chmod(join(shim, 'npx'), 0o755);
  const banner = server.output();
  shellEnv = {
    PATH: `${shim}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? dir,
    RAAGA_DATA_DIR: dataDir,
    RAAGA_ACCOUNT: /account: (acct_\w+)/.exec(banner)?.[1] ?? '',
    RAAGA_API_KEY: /API key: (rk_live_\w+)/.exec(banner)?.[1] ?? '',
    PUBLIC_URL: server.url,
    TWILIO_AUTH_TOKEN: 'guide-test-auth-token-0123456789',
  };
}, 60_000);

afterAll(async () => {
  await server?.kill();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** Runs one block in bash from the repository's root, in the environment the blocks before it left. */
function runBlock(block: Block): Promise<{ code: number; output: string }> {
  const state = join(dir, 'env');
  const script = `set -eu\n${block.script.replaceAll('localhost:8080', new URL(server.url).host)}\nenv -0 > '${state}'\n`;
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd: root, env: shellEnv, maxBuffer: 16 * 1024 * 1024 }, async (error, stdout, stderr) => {
      const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
      if (code === 0) shellEnv = Object.fromEntries((await readFile(state, 'utf8')).split('\0').filter((entry) => entry.includes('=')).map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

describe('docs/first-phone-call.md', () => {
  it('starts as the guide shows: the banner names the development account and its key', () => {
    expect(server.output()).toMatch(/Raaga is listening on http:\/\//);
    expect(server.output()).toMatch(/account: acct_dev \(developer plan, \d+ credits\)/);
    expect(shellEnv.RAAGA_API_KEY).toMatch(/^rk_live_/);
  });

  it('has an expectation for every tested block and a block for every expectation', () => {
    expect(blocks.map((block) => block.id).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const block of blocks) {
    it(`block ${block.id} runs and prints what the guide says to look for`, async () => {
      const run = await runBlock(block);
      expect({ code: run.code, output: run.output }).toMatchObject({ code: 0 });
      for (const pattern of EXPECTED[block.id] ?? []) expect(run.output).toMatch(pattern);
    }, 60_000);
  }

  it('the calls the guide made are the ones the server logged', () => {
    expect(server.output().match(/"msg":"call started"/g)?.length ?? 0).toBeGreaterThanOrEqual(5);
  });
});
