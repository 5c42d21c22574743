// The providers the simulator can play, apart from the dialer itself so the CLI can validate --provider without
// loading ws, twilio and every dialect.

import type { ProviderName } from '../telephony/stream-provider.js';

export const SIMULATED_PROVIDERS = ['twilio', 'smartflo', 'exotel', 'plivo', 'asterisk', 'audiosocket'] as const satisfies readonly ProviderName[];
export type SimulatedProvider = (typeof SIMULATED_PROVIDERS)[number];
