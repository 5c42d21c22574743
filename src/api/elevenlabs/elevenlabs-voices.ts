// GET …/voices in ElevenLabs' shape (`{"voices":[{"voice_id","name","category","labels"}]}`), which LiveKit's
// `listVoices()` reads: the preset voices (`premade`) and, on the Growth plan, the account's custom `vc_` voices
// (`cloned`). Not rate counted, like GET /v1/voices.

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { storeCall } from '../../core/store-call.js';
import type { Account } from '../../store/store.js';
import type { ApiContext } from '../context.js';
import { ELEVENLABS_PREFIX } from './elevenlabs-auth.js';

export function registerElevenLabsVoices(app: FastifyInstance, ctx: ApiContext, onRequest: (request: FastifyRequest) => Promise<void>): void {
  app.get(`${ELEVENLABS_PREFIX}/voices`, { onRequest, schema: { hide: true } }, async (request) => {
    const account = request.account as Account;
    const presets = Object.entries(ctx.catalog.groupByVoice()).map(([name, voice]) => ({
      voice_id: name,
      name,
      category: 'premade',
      labels: { gender: voice.gender, languages: voice.languages.join(' ') },
    }));
    // Custom voices speak on the Growth plan only: another plan's would be refused, so they are not offered.
    const custom = account.plan === 'growth' ? await storeCall(() => ctx.store.listCustomVoices(account.id)) : [];
    const cloned = custom.map((voice) => ({ voice_id: voice.id, name: voice.name, category: 'cloned', labels: { base_voice: voice.baseVoice } }));
    return { voices: [...presets, ...cloned] };
  });
}
