// The providers the simulator can play: every provider of telephony/providers.ts, in its order (dial-provider.ts has an
// entry for each, by type, and re-exports this list).

import { PROVIDER_NAMES, type ProviderName } from '../telephony/providers.js';

export const SIMULATED_PROVIDERS: readonly ProviderName[] = PROVIDER_NAMES;
export type SimulatedProvider = ProviderName;
