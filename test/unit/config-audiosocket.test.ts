// The AudioSocket listener's configuration: off unless a port is given, never without the account it bills, and
// an allow-list of addresses or CIDR blocks checked at start.

import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../src/config.js';

describe('AudioSocket configuration', () => {
  it('is off by default', () => {
    expect(parseConfig({}).telephony.audioSocket).toBeUndefined();
  });

  it('with a port and an account: loopback only, unless AUDIOSOCKET_ALLOW says otherwise', () => {
    expect(parseConfig({ AUDIOSOCKET_PORT: '9092', AUDIOSOCKET_ACCOUNT: 'acct_pbx' }).telephony.audioSocket).toEqual({ host: '127.0.0.1', port: 9092, accountId: 'acct_pbx', allow: ['127.0.0.1/32', '::1/128'] });
    const wide = parseConfig({ AUDIOSOCKET_PORT: '9092', AUDIOSOCKET_ACCOUNT: 'acct_pbx', AUDIOSOCKET_HOST: '0.0.0.0', AUDIOSOCKET_ALLOW: ' 10.0.0.0/8, 192.168.1.7 ,fd00::/8' });
    expect(wide.telephony.audioSocket).toMatchObject({ host: '0.0.0.0', allow: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8'] });
  });

  it('refuses a port without the account, and blocks that are not addresses', () => {
    expect(() => parseConfig({ AUDIOSOCKET_PORT: '9092' })).toThrow(/AUDIOSOCKET_ACCOUNT: required with AUDIOSOCKET_PORT/);
    expect(() => parseConfig({ AUDIOSOCKET_PORT: '9092', AUDIOSOCKET_ACCOUNT: 'acct_pbx', AUDIOSOCKET_ALLOW: '10.0.0.0/33' })).toThrow(ConfigError);
    expect(() => parseConfig({ AUDIOSOCKET_PORT: '9092', AUDIOSOCKET_ACCOUNT: 'acct_pbx', AUDIOSOCKET_ALLOW: 'pbx.local' })).toThrow(/pbx.local is not an address or CIDR block/);
    expect(() => parseConfig({ AUDIOSOCKET_PORT: '70000', AUDIOSOCKET_ACCOUNT: 'acct_pbx' })).toThrow(/AUDIOSOCKET_PORT/);
    expect(() => parseConfig({ AUDIOSOCKET_PORT: '9092', AUDIOSOCKET_ACCOUNT: 'bob' })).toThrow(/AUDIOSOCKET_ACCOUNT/);
  });
});
