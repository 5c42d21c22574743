// Random identifiers for stored records (`acct_…`, `vc_…`): lowercase base32 so they are URL- and shell-safe.

import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** `prefix` + `length` base32 chars; 32 divides 256, so masking a byte to 5 bits has no bias. */
export function randomId(prefix: string, length = 12): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const byte of bytes) out += BASE32[byte & 31];
  return out;
}
