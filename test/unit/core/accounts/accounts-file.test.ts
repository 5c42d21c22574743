// Accounts file provisioning: idempotent across restarts, never resets balances, clear errors naming fields.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountsFileError, applyAccountsFile } from '../../../../src/core/accounts/accounts-file.js';
import { accountsAllowingUnsigned, DEV_ACCOUNT_ID, ensureDevAccount } from '../../../../src/core/accounts/dev-account.js';
import { generateApiKey, hashApiKey, isWellFormedApiKey } from '../../../../src/store/api-key.js';
import { SqliteStore } from '../../../../src/store/sqlite-store.js';
import { PLAN_LIMITS } from '../../../../src/store/store.js';
import { TEST_USAGE } from '../../../helpers/store-contract.js';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-accounts-'));
  path = join(dir, 'accounts.json');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const writeAccounts = (value: unknown) => writeFile(path, typeof value === 'string' ? value : JSON.stringify(value));

describe('applyAccountsFile', () => {
  it('is idempotent and never resets a spent balance; applies plan changes and new keys', async () => {
    const store = await SqliteStore.open({ dataDir: join(dir, 'data') });
    const [k1, k2, k3] = [generateApiKey(), generateApiKey(), generateApiKey()];
    await writeAccounts({
      accounts: [
        { id: 'acct_1', plan: 'free', credits: 100_000, keys: [k1] },
        { id: 'acct_2', plan: 'growth', credits: 5 },
      ],
    });
    expect(await applyAccountsFile(store, path)).toEqual({ created: 2, updated: 0, keysAdded: 1, keysSkippedRevoked: 0 });
    expect((await store.findAccountByKeyHash(hashApiKey(k1 ?? '')))?.id).toBe('acct_1');

    // Spend some credits, as the server would.
    const admitted = await store.admit({
      accountId: 'acct_1',
      limits: PLAN_LIMITS.free,
      countRate: true,
      reservation: { id: 'r', credits: 300, ttlMs: 60_000 },
    });
    expect(admitted.ok).toBe(true);
    await store.settle('acct_1', 'r', 250, TEST_USAGE);

    expect(await applyAccountsFile(store, path)).toEqual({ created: 0, updated: 0, keysAdded: 0, keysSkippedRevoked: 0 });
    expect((await store.getAccount('acct_1'))?.credits).toBe(99_750);

    await writeAccounts({
      accounts: [
        { id: 'acct_1', plan: 'developer', credits: 100_000, keys: [k1, k2] },
        { id: 'acct_2', plan: 'growth', credits: 999 },
      ],
    });
    expect(await applyAccountsFile(store, path)).toEqual({ created: 0, updated: 1, keysAdded: 1, keysSkippedRevoked: 0 });
    expect(await store.getAccount('acct_1')).toMatchObject({ plan: 'developer', credits: 99_750 });
    expect((await store.getAccount('acct_2'))?.credits).toBe(5);
    expect((await store.findAccountByKeyHash(hashApiKey(k2 ?? '')))?.id).toBe('acct_1');

    // A key revoked with the CLI stays revoked; keys dropped from the file stay live.
    await store.revokeKeyHash(hashApiKey(k1 ?? ''));
    await writeAccounts({ accounts: [{ id: 'acct_1', plan: 'developer', credits: 1, keys: [k1, k3] }] });
    expect(await applyAccountsFile(store, path)).toEqual({ created: 0, updated: 0, keysAdded: 1, keysSkippedRevoked: 1 });
    expect(await store.findAccountByKeyHash(hashApiKey(k1 ?? ''))).toBeNull();
    expect((await store.findAccountByKeyHash(hashApiKey(k2 ?? '')))?.id).toBe('acct_1');
    expect((await store.getAccount('acct_2'))?.credits).toBe(5);
    await store.close();
  });

  it('names the file, entry index and field of a bad key without echoing it', async () => {
    const store = new SqliteStore();
    await writeAccounts({
      accounts: [
        { id: 'acct_1', plan: 'free', credits: 1, keys: [generateApiKey()] },
        { id: 'acct_2', plan: 'free', credits: 1, keys: ['rk_live_secretbuttooshort'] },
      ],
    });
    const error = await applyAccountsFile(store, path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccountsFileError);
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('accounts[1].keys[0]');
    expect((error as Error).message).not.toContain('secretbuttooshort');
    expect(await store.listAccounts()).toEqual([]); // nothing applied
  });

  it.each([
    [{ accounts: [{ id: 'acct_1', plan: 'gold', credits: 1 }] }, 'accounts[0].plan'],
    [{ accounts: [{ id: 'acct_1', plan: 'free', credits: -5 }] }, 'accounts[0].credits'],
    [{ accounts: [{ id: 'acct_1', plan: 'free' }] }, 'accounts[0].credits'],
    [{ accounts: [{ id: 'bad id', plan: 'free', credits: 1 }] }, 'accounts[0].id'],
    [{ accounts: [{ id: 'a', plan: 'free', credits: 1 }, { id: 'a', plan: 'free', credits: 1 }] }, 'accounts[1].id: duplicate'],
    [{ acounts: [] }, 'accounts'],
    ['{ not json', 'invalid JSON'],
  ])('rejects %j naming %s', async (content, expected) => {
    await writeAccounts(content);
    await expect(applyAccountsFile(new SqliteStore(), path)).rejects.toThrow(expected);
  });

  it('takes keys as their sha256 hash, so the file need hold no key in clear; the same key twice is refused', async () => {
    const store = new SqliteStore();
    const key = generateApiKey();
    await writeAccounts({ accounts: [{ id: 'acct_h', plan: 'free', credits: 10, keys: [`sha256:${hashApiKey(key)}`] }] });
    expect(await applyAccountsFile(store, path)).toMatchObject({ created: 1, keysAdded: 1 });
    expect((await store.findAccountByKeyHash(hashApiKey(key)))?.id).toBe('acct_h');
    await writeAccounts({ accounts: [{ id: 'acct_h', plan: 'free', credits: 10, keys: [key, `sha256:${hashApiKey(key)}`] }] });
    await expect(applyAccountsFile(store, path)).rejects.toThrow('accounts[0].keys[1]: same key as accounts[0].keys[0]');
    await writeAccounts({ accounts: [{ id: 'acct_h', plan: 'free', credits: 10, keys: ['sha256:ABC'] }] });
    await expect(applyAccountsFile(store, path)).rejects.toThrow(/or its hash \(sha256: \+ 64 hex digits\)/);
  });

  it('rejects a missing file and a key that belongs to another account', async () => {
    await expect(applyAccountsFile(new SqliteStore(), join(dir, 'none.json'))).rejects.toThrow(/none\.json.*ENOENT/);
    const store = new SqliteStore();
    const key = generateApiKey();
    await store.createAccount({ id: 'acct_other', plan: 'free', credits: 0 });
    await store.addKeyHash('acct_other', hashApiKey(key));
    await writeAccounts({ accounts: [{ id: 'acct_1', plan: 'free', credits: 1, keys: [key] }] });
    await expect(applyAccountsFile(store, path)).rejects.toThrow('accounts[0].keys[0]: this key already belongs to another account');
    expect(await store.getAccount('acct_1')).toBeNull();
  });
});

describe('ensureDevAccount', () => {
  it('creates acct_dev with a working key only when the store is empty', async () => {
    const store = new SqliteStore();
    const dev = await ensureDevAccount(store);
    expect(dev).not.toBeNull();
    expect(dev?.accountId).toBe(DEV_ACCOUNT_ID);
    expect(isWellFormedApiKey(dev?.key ?? '')).toBe(true);
    expect(await store.findAccountByKeyHash(hashApiKey(dev?.key ?? ''))).toMatchObject({
      id: 'acct_dev',
      plan: 'developer',
      credits: 1_000_000,
    });
    expect(await ensureDevAccount(store)).toBeNull();
    // Like every account, it takes provider requests only with the provider's credentials.
    expect(await store.getTelephonySettings(DEV_ACCOUNT_ID)).toBeNull();
    expect(await accountsAllowingUnsigned(store)).toEqual([]);
    await store.putTelephonySettings({ accountId: DEV_ACCOUNT_ID, allowUnsigned: true, updatedAtMs: 1 });
    expect(await accountsAllowingUnsigned(store)).toEqual([DEV_ACCOUNT_ID]);

    const other = new SqliteStore();
    await other.createAccount({ plan: 'free', credits: 0 });
    expect(await ensureDevAccount(other)).toBeNull();
    expect(await other.getAccount(DEV_ACCOUNT_ID)).toBeNull();
  });
});
