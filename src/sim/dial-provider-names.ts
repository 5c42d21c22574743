// The providers the simulator can play: every provider of telephony/providers.ts (dial-provider.ts has an entry for
// each, by type). Apart from the dialer itself so the CLI can validate --provider without loading ws and every dialect.

import { PROVIDER_NAMES, type ProviderName } from '../telephony/providers.js';

export const SIMULATED_PROVIDERS: readonly ProviderName[] = PROVIDER_NAMES;
export type SimulatedProvider = ProviderName;
