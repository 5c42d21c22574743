// The one rule for every connection a tenant can point Raaga at (agent_url, status_webhook, the do-not-call
// webhook): resolve the host once, refuse any address that is not public unless the operator allowed its network
// (ALLOWED_PRIVATE_DESTINATIONS), and connect to exactly the address that was checked, so DNS cannot swap it.

import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress, LookupAllOptions, LookupOneOptions } from 'node:dns';
import { isIP } from 'node:net';
import { NetworkAllowList, nonPublicRange } from './ip-ranges.js';

export type Resolver = (hostname: string) => Promise<readonly LookupAddress[]>;

/** A destination that passed: the URL and the one address every connection to it uses. */
export interface CheckedDestination {
  readonly url: URL;
  readonly address: string;
  readonly family: 4 | 6;
}

export type DestinationCheck = ({ readonly ok: true } & CheckedDestination) | { readonly ok: false; readonly reason: string };

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** The `lookup` option of net, http, https and ws connections. */
export type PinnedLookup = (hostname: string, options: LookupOneOptions | LookupAllOptions | number, callback: LookupCallback) => void;

const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export class DestinationPolicy {
  readonly #allowed: NetworkAllowList;
  readonly #resolve: Resolver;

  constructor(allowPrivate: readonly string[] = [], resolve: Resolver = systemResolver) {
    this.#allowed = new NetworkAllowList(allowPrivate);
    this.#resolve = resolve;
  }

  /**
   * What can be said of a URL without resolving it: it parses, has one of `schemes`, carries no user name or
   * password, and an IP literal (or localhost) host is checked now. A sentence for the caller, or undefined.
   */
  checkForm(raw: string, schemes: readonly string[]): string | undefined {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return 'is not a valid URL';
    }
    const scheme = url.protocol.slice(0, -1);
    if (!schemes.includes(scheme)) return `must be a ${schemes.map((s) => `${s}://`).join(' or ')} URL`;
    if (url.username !== '' || url.password !== '') return 'must not carry a user name or password';
    const host = hostOf(url);
    if (isIP(host) !== 0) return this.#addressRefusal(host);
    if (host === 'localhost' || host.endsWith('.localhost')) return this.#addressRefusal('127.0.0.1');
    return undefined;
  }

  /** Resolves the URL's host and checks every address it has; the first address is the one to connect to. */
  async check(raw: string, schemes: readonly string[]): Promise<DestinationCheck> {
    const formProblem = this.checkForm(raw, schemes);
    if (formProblem !== undefined) return { ok: false, reason: formProblem };
    const url = new URL(raw);
    const host = hostOf(url);
    let addresses: readonly LookupAddress[];
    if (isIP(host) !== 0) {
      addresses = [{ address: host, family: isIP(host) }];
    } else {
      try {
        addresses = await this.#resolve(host);
      } catch {
        return { ok: false, reason: `has a host (${host}) that does not resolve` };
      }
    }
    const first = addresses[0];
    if (first === undefined) return { ok: false, reason: `has a host (${host}) that does not resolve` };
    // Every address must pass: a name that also resolves inside the network could be connected there next time.
    for (const { address } of addresses) {
      const refusal = this.#addressRefusal(address);
      if (refusal !== undefined) return { ok: false, reason: refusal };
    }
    return { ok: true, url, address: first.address, family: first.family === 6 ? 6 : 4 };
  }

  #addressRefusal(address: string): string | undefined {
    const range = nonPublicRange(address);
    if (range === undefined || this.#allowed.has(address)) return undefined;
    return `points at a ${range} address (${address}); Raaga connects only to public addresses unless its operator allows the network (ALLOWED_PRIVATE_DESTINATIONS)`;
  }
}

/** The host of a URL without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** A lookup that answers every query with the checked address: the connection goes where the check looked. */
export function pinnedLookup(destination: CheckedDestination): PinnedLookup {
  return (_hostname, options, callback) => {
    const all = typeof options === 'object' && options.all === true;
    if (all) callback(null, [{ address: destination.address, family: destination.family }]);
    else callback(null, destination.address, destination.family);
  };
}
