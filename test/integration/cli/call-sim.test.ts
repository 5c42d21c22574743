// `raaga call-sim` as a developer runs it: a real process against a small scripted Raaga stand-in (an HTTP server
// with the voice webhook and the media WebSocket on port 0) that talks, and clears when the caller talks over it.

import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { encodeWav, parseWav } from '../../../src/audio/wav.js';
import { parseTimeMs } from '../../../src/cli/commands/call-sim.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const AUTH_TOKEN = 'sim-token';
let dir: string;
let http: Server;
let base: string;
const starts: Record<string, any>[] = [];
const signatures: { path: string; ok: boolean }[] = [];
const dtmf: string[] = [];
const webhookPaths: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-call-sim-'));
  http = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const params = Object.fromEntries(new URLSearchParams(body));
      // Raaga's voice webhook is per account: the simulator must post to /voice/<account>.
      webhookPaths.push(req.url ?? '');
      signatures.push({ path: 'voice', ok: twilio.validateRequest(AUTH_TOKEN, String(req.headers['x-twilio-signature']), `${base}${req.url}`, params) });
      const twiml = new twilio.twiml.VoiceResponse();
      twiml.connect().stream({ url: `${base.replace('http', 'wss')}/v1/telephony/twilio/media` }).parameter({ name: 'greeting', value: 'hello' });
      res.writeHead(200, { 'content-type': 'text/xml' }).end(twiml.toString());
    });
  });
  const wss = new WebSocketServer({ server: http });
  wss.on('connection', (socket, req) => {
    const signature = req.headers['x-twilio-signature'];
    if (signature !== undefined) signatures.push({ path: 'media', ok: twilio.validateRequest(AUTH_TOKEN, String(signature), `${base.replace('http', 'wss')}/v1/telephony/twilio/media`, {}) });
    let cleared = false;
    const send = (message: object) => socket.send(JSON.stringify(message));
    socket.on('message', (data) => {
      const message = JSON.parse(data.toString());
      if (message.event === 'start') {
        starts.push(message.start);
        // The "bot" speaks 3 s in one go, a mark after each second.
        for (let s = 0; s < 3; s++) {
          for (let f = 0; f < 50; f++) send({ event: 'media', streamSid: message.streamSid, media: { payload: Buffer.alloc(160, 0x10 + s).toString('base64') } });
          send({ event: 'mark', streamSid: message.streamSid, mark: { name: `second-${s}` } });
        }
      }
      if (message.event === 'dtmf') dtmf.push(message.dtmf.digit);
      if (message.event === 'media' && !cleared && Buffer.from(message.media.payload, 'base64').some((b: number) => b !== 0xff)) {
        cleared = true;
        send({ event: 'clear', streamSid: message.streamSid });
      }
    });
  });
  http.listen(0, '127.0.0.1');
  await once(http, 'listening');
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  http.closeAllConnections();
  http.close();
  await rm(dir, { recursive: true, force: true });
});

function callSim(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'bin/raaga.mjs'), 'call-sim', ...args], { cwd: root }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('raaga call-sim', () => {
  it('goes webhook → stream, talks over the bot, and prints the timeline, barge-in and what was heard', async () => {
    const out = join(dir, 'heard.wav');
    const run = await callSim('--url', base, '--webhook', '--account', 'acct_sim', '--twilio-auth-token', AUTH_TOKEN, '--caller-say', 'रुकिए', '--at', '1.5s', '--dtmf', '5@0.5s', '--duration', '2s', '--param', 'voice=meera', '--out', out);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(signatures).toEqual([
      { path: 'voice', ok: true },
      { path: 'media', ok: true },
    ]);
    expect(webhookPaths).toEqual(['/v1/telephony/twilio/voice/acct_sim']);
    expect(starts[0]?.customParameters).toEqual({ greeting: 'hello', voice: 'meera' });
    expect(dtmf).toEqual(['5']);
    expect(run.stdout).toMatch(/Call CA\w+ \(twilio\) on wss:\/\/127\.0\.0\.1:\d+\/v1\/telephony\/twilio\/media for/);
    for (const kind of ['connected', 'start', 'first_media_in', 'dtmf_sent', 'caller_speech', 'clear_received', 'mark_echoed', 'stop_sent', 'closed']) {
      expect(run.stdout).toMatch(new RegExp(`^\\s+\\d+\\.\\d{3}s  ${kind}`, 'm'));
    }
    // The caller talks at 1.5 s: the first mark (after 1 s of audio) has played by then, the other two are cleared.
    expect(run.stdout).toMatch(/marks {8}3 received, 3 echoed \(2 by clear\)/);
    expect(run.stdout).toMatch(/barge-in {5}clear \d+ ms after the first caller speech frame/);
    expect(run.stdout).toMatch(/playout {6}3\.00 s received, 1\.\d\d s cleared, 0 underrun\(s\)/);
    const heard = parseWav(new Uint8Array(await readFile(out)));
    expect(heard.sampleRateHz).toBe(8000);
    // At least the 2 s the call lasted (a loaded machine can only make it end later).
    expect(heard.samples.length / 8000).toBeGreaterThan(1.9);
  });

  it('plays a WAV file as the caller and can drop the connection', async () => {
    const wav = join(dir, 'caller.wav');
    const tone = new Int16Array(16000).map((_, i) => Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 16000)));
    await writeFile(wav, encodeWav(tone, 16000));
    const run = await callSim('--url', base, '--api-key', 'rk_live_sim', '--caller-wav', wav, '--at', '300ms', '--duration', '1', '--end', 'drop');
    expect(run.code).toBe(0);
    expect(starts.at(-1)?.customParameters).toEqual({ raaga_api_key: 'rk_live_sim' });
    expect(run.stdout).toMatch(/^\s+\d+\.\d{3}s  dropped/m);
    expect(run.stdout).toMatch(/closed with 1006/);
  });

  it('explains bad usage in one line naming the fix, exit 2', async () => {
    const noAccount = await callSim('--url', base, '--webhook');
    expect(noAccount.code).toBe(2);
    expect(noAccount.stderr).toMatch(/--webhook needs --account/);
    const run = await callSim('--url', base, '--duration', 'soon');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--duration must be a time like 2.5s/);
    const provider = await callSim('--url', base, '--provider', 'exotell');
    expect(provider.code).toBe(2);
    expect(provider.stderr).toMatch(/^raaga call-sim: --provider must be twilio, exotel, .*, got 'exotell'; did you mean exotel\?/);
    // The credential options are the provider modules' own (`raaga telephony set`'s names).
    const oldName = await callSim('--url', base, '--auth-token', AUTH_TOKEN);
    expect(oldName.stderr).toMatch(/unknown option '--auth-token'; did you mean --twilio-auth-token or --plivo-auth-token\?/);
    expect(parseTimeMs('2.5s', 'x')).toBe(2500);
    expect(parseTimeMs('250ms', 'x')).toBe(250);
    expect(parseTimeMs('3', 'x')).toBe(3000);
  });
});
