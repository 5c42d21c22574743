// The telephony providers Raaga speaks, in the order every list of them shows (API documents, `raaga telephony set`,
// the playground's picker). Adding a provider is its folder (src/telephony/<provider>/, a ProviderModule) and one
// line here; its routes, CLI options, picker entry and dialer derive from this list. Nothing else names one.

import { asteriskModule } from './asterisk/asterisk-module.js';
import { audioSocketModule } from './audiosocket/audiosocket-module.js';
import { exotelModule } from './exotel/exotel-module.js';
import type { ProviderDialer } from './outbound/dialer.js';
import { plivoModule } from './plivo/plivo-module.js';
import type { ProviderModule } from './provider-module.js';
import { smartfloModule } from './twilio/smartflo-module.js';
import { twilioModule } from './twilio/twilio-module.js';

const MODULES = [twilioModule, exotelModule, plivoModule, smartfloModule, asteriskModule, audioSocketModule] as const satisfies readonly ProviderModule[];

export type ProviderName = (typeof MODULES)[number]['name'];
export const PROVIDERS: readonly ProviderModule<ProviderName>[] = MODULES;

type Names<T extends readonly { readonly name: string }[]> = { readonly [I in keyof T]: T[I]['name'] };
export const PROVIDER_NAMES = MODULES.map((module) => module.name) as unknown as Names<typeof MODULES>;

/** The module of a provider, or undefined for a name this Raaga does not have. */
export function providerModule(name: string): ProviderModule | undefined {
  return PROVIDERS.find((module) => module.name === name);
}

/** The providers that place calls (POST /v1/calls), with their dialers. */
export type OutboundProviderName = Extract<(typeof MODULES)[number], { readonly dialer: ProviderDialer }>['name'];
export const OUTBOUND_PROVIDERS = PROVIDERS.flatMap((module) => (module.dialer ? [module.name] : [])) as unknown as readonly [OutboundProviderName, ...OutboundProviderName[]];

/** The dialer of a provider that places calls, or undefined. */
export function providerDialer(name: string): ProviderDialer | undefined {
  return providerModule(name)?.dialer;
}

/** The providers offered in the playground's picker. */
export type PlaygroundProviderName = Extract<(typeof MODULES)[number], { readonly playground: object }>['name'];
export const PLAYGROUND_PROVIDERS = PROVIDERS.flatMap((module) => (module.playground ? [module.name] : [])) as unknown as readonly [
  PlaygroundProviderName,
  ...PlaygroundProviderName[],
];
