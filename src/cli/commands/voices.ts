// `raaga voices catalog|install|create|list|add`: the voice packs one can install (`catalog`, voices-catalog.ts) and
// their installer (`install`, voices-install.ts; `add`, voices-add.ts, for a Piper pack from anywhere), which engine
// speaks each preset voice (`list`), and custom (`vc_`) voices, a pitch/rate variation of a preset (Growth plan only).

import { randomId } from '../../store/random-id.js';
import { AccountNotFoundError, type CustomVoice } from '../../store/store.js';
import { optionalString, optionTable, parseNumberInRange, requireString } from '../arg-parsing.js';
import { commandGroup, withStore, type Subcommand } from '../cli-command.js';
import { UsageError } from '../usage-error.js';
import { COMMAND_SUMMARIES } from '../command-summaries.js';
import { readPresetVoiceNames } from '../preset-voice-names.js';
import { isoTime, json, table } from '../render.js';
import { addVoicePack } from './voices-add.js';
import { presetEngines } from '../voice-install/preset-engines.js';
import { catalogCommand } from './voices-catalog.js';
import { installCommand } from './voices-install.js';

const create: Subcommand = {
  name: 'create',
  help: `Usage: raaga voices create --account <id> --base <voice> [--name <name>] [--pitch S] [--rate R] [--json]

Creates a custom voice (id vc_…) for a Growth-plan account, derived from a preset voice.

Options:
  --account <id>   owner; must be on the growth plan (required)
  --base <voice>   preset voice_name from the catalog (required)
  --name <name>    display name (default "<base> custom")
  --pitch S        pitch shift in semitones, -12 to 12 (default 0)
  --rate R         tempo multiplier, 0.8 to 1.25 (default 1)`,
  options: optionTable({ strings: ['account', 'base', 'name', 'pitch', 'rate'], flags: ['json'] }),
  async run(parsed, ctx) {
    const accountId = requireString(parsed, 'account');
    const base = requireString(parsed, 'base');
    const pitchRaw = optionalString(parsed, 'pitch');
    const rateRaw = optionalString(parsed, 'rate');
    const pitch = pitchRaw === undefined ? 0 : parseNumberInRange(pitchRaw, 'pitch', -12, 12);
    const rate = rateRaw === undefined ? 1 : parseNumberInRange(rateRaw, 'rate', 0.8, 1.25);
    const name = optionalString(parsed, 'name') ?? `${base} custom`;

    const presets = await readPresetVoiceNames(ctx.modelsDir);
    if (!presets.has(base)) {
      throw new UsageError(`--base '${base}' is not a preset voice; known: ${[...presets].sort().join(', ')}`);
    }
    const voice = await withStore(ctx, async (store) => {
      const account = await store.getAccount(accountId);
      if (!account) throw new AccountNotFoundError(accountId);
      if (account.plan !== 'growth') {
        throw new Error(`custom voices are on the growth plan only; ${accountId} is on ${account.plan}`);
      }
      const created: CustomVoice = {
        id: randomId('vc_'),
        accountId,
        name,
        baseVoice: base,
        pitchShiftSemitones: pitch,
        rateMultiplier: rate,
        createdAtMs: Date.now(),
      };
      await store.putCustomVoice(created);
      return created;
    });
    if (parsed.values.json) ctx.out(json(voice));
    else ctx.out(`Created voice ${voice.id} "${voice.name}" for ${accountId}: base ${base}, pitch ${pitch} st, rate ${rate}.`);
  },
};

const list: Subcommand = {
  name: 'list',
  help: `Usage: raaga voices list [--account <id>] [--json]

Without --account: for every preset voice and language, the engine and pack that speak it now (an installed pack
whose file is missing falls back to the embedded eSpeak engine, as the server does). With --account: the account's
custom voices.`,
  options: { account: { type: 'string' }, json: { type: 'boolean' } },
  async run(parsed, ctx) {
    if (optionalString(parsed, 'account') === undefined) {
      const pairs = presetEngines(ctx.modelsDir);
      if (parsed.values.json) ctx.out(json(pairs));
      else ctx.out(table(['VOICE', 'LANGUAGE', 'ENGINE', 'PACK'], pairs.map((pair) => [pair.voice, pair.language, pair.engine, pair.pack ?? '-'])));
      return;
    }
    const accountId = requireString(parsed, 'account');
    const voices = await withStore(ctx, async (store) => {
      if (!(await store.getAccount(accountId))) throw new AccountNotFoundError(accountId);
      return store.listCustomVoices(accountId);
    });
    if (parsed.values.json) {
      ctx.out(json(voices));
      return;
    }
    if (voices.length === 0) {
      ctx.out(`${accountId} has no custom voices.`);
      return;
    }
    ctx.out(
      table(
        ['ID', 'NAME', 'BASE', 'PITCH', 'RATE', 'CREATED'],
        voices.map((v) => [v.id, v.name, v.baseVoice, String(v.pitchShiftSemitones), String(v.rateMultiplier), isoTime(v.createdAtMs)]),
      ),
    );
  },
};

export const voicesCommand = commandGroup('voices', COMMAND_SUMMARIES.voices, [catalogCommand, installCommand, create, list, addVoicePack]);
