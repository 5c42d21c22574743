// The credential formats several providers share, for their CredentialField's `format`; a format only one provider
// uses (Twilio's AC…/SK… ids, Plivo's auth id, Smartflo's path token) lives with that provider.

import { z } from 'zod';

/** Printable ASCII without spaces: SIDs, tokens and secrets are hex/base62; anything else is a paste error. */
export const Secret = z.string().regex(/^[\x21-\x7e]{8,256}$/, 'must be 8-256 printable characters without spaces');

/** `user:secret` as HTTP Basic carries it: a user without ':' and a secret of 8 or more characters. */
export const BasicCredentials = z.string().regex(/^[\x21-\x39\x3b-\x7e]{1,128}:[\x21-\x7e]{8,256}$/, 'must be user:secret (no spaces; the secret at least 8 characters)');

/** A provider REST API's origin and base path, without a trailing slash (http only for a local stand-in or proxy). */
export const ApiBaseUrl = z.string().regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*[^\s?#/])?$/, 'must be https://host[:port][/path] without a trailing slash');
