// The ElevenLabs dialect's routes, all under ELEVENLABS_PREFIX: the HTTP text-to-speech, the voice list and the
// streaming-input sockets. Their errors leave in ElevenLabs' envelope (elevenlabs-errors.ts, listed with the app's error dialects).

import type { FastifyInstance } from 'fastify';
import type { ApiContext } from '../context.js';
import type { OpenSockets } from '../open-sockets.js';
import { requireElevenLabsAccount } from './elevenlabs-auth.js';
import { registerElevenLabsHttp } from './elevenlabs-http.js';
import { registerElevenLabsSockets } from './elevenlabs-socket.js';
import { registerElevenLabsVoices } from './elevenlabs-voices.js';

export function registerElevenLabsRoutes(app: FastifyInstance, ctx: ApiContext, openSockets: OpenSockets): void {
  const requireAccount = requireElevenLabsAccount(ctx);
  registerElevenLabsHttp(app, ctx, requireAccount);
  registerElevenLabsVoices(app, ctx, requireAccount);
  registerElevenLabsSockets(app, ctx, openSockets);
}
