// The published client declares its types by hand (it ships without server code or zod); these checks fail to
// compile (`npm test` runs tsc over the tests) when they drift from what the server's schemas accept or send.

import { expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { SynthesisResultSchema, VoicesByLanguageSchema, VoicesByVoiceSchema } from '../../../src/api/response-schemas.js';
import type { SynthesisBodySchema } from '../../../src/api/synthesis-request.js';
import type { ConfigMessageSchema } from '../../../src/api/websocket-messages.js';
import type { WebSocketServerMessage } from '../../../src/api/websocket-server-messages.js';
import type { SessionConfig, ServerMessage, SynthesisRequest, SynthesisResult, VoicesByLanguage, VoicesByVoice } from '../../../src/client/types.js';

it('the client types are exactly the server schemas', () => {
  expectTypeOf<SynthesisRequest>().toEqualTypeOf<z.input<typeof SynthesisBodySchema>>();
  expectTypeOf<SynthesisResult>().toEqualTypeOf<z.output<typeof SynthesisResultSchema>>();
  expectTypeOf<VoicesByLanguage>().toEqualTypeOf<z.output<typeof VoicesByLanguageSchema>>();
  expectTypeOf<VoicesByVoice>().toEqualTypeOf<z.output<typeof VoicesByVoiceSchema>>();
  expectTypeOf<SessionConfig>().toEqualTypeOf<Omit<z.input<typeof ConfigMessageSchema>, 'type'>>();
  expectTypeOf<ServerMessage>().toEqualTypeOf<WebSocketServerMessage>();
});
