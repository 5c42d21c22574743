// Browser WebSocket authentication: the key offered as the `raaga.key.<key>` subprotocol, `raaga` selected back.

import { describe, expect, it } from 'vitest';
import { authorizationFromUpgrade, offeredSubprotocols, selectSubprotocol } from '../../../src/api/websocket-key-protocol.js';

const KEY = `rk_live_${'a1'.repeat(20)}`;

describe('websocket key subprotocol', () => {
  it('parses the offered list, however it was split', () => {
    expect(offeredSubprotocols(`raaga, raaga.key.${KEY}`)).toEqual(['raaga', `raaga.key.${KEY}`]);
    expect(offeredSubprotocols(['raaga', ` raaga.key.${KEY} `])).toEqual(['raaga', `raaga.key.${KEY}`]);
    expect(offeredSubprotocols(undefined)).toEqual([]);
  });

  it('takes the key from the subprotocol only when there is no Authorization header', () => {
    expect(authorizationFromUpgrade(undefined, `raaga, raaga.key.${KEY}`)).toBe(`Bearer ${KEY}`);
    expect(authorizationFromUpgrade('Bearer other', `raaga, raaga.key.${KEY}`)).toBe('Bearer other');
    expect(authorizationFromUpgrade(undefined, 'raaga')).toBeUndefined();
    expect(authorizationFromUpgrade(undefined, undefined)).toBeUndefined();
  });

  it('selects the fixed `raaga`, never the key', () => {
    expect(selectSubprotocol(new Set([`raaga.key.${KEY}`, 'raaga']))).toBe('raaga');
    expect(selectSubprotocol(new Set([`raaga.key.${KEY}`]))).toBe(false);
    expect(selectSubprotocol(new Set())).toBe(false);
  });
});
