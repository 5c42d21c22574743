// The operator's accounts file (RAAGA_ACCOUNTS_FILE): its zod schema, and idempotent provisioning of the
// store from it at startup. The file seeds accounts; it is not the live ledger (balances live in the store).

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { hashApiKey, isWellFormedApiKey } from '../../store/api-key.js';
import { ACCOUNT_ID_PATTERN, type AccountDirectory } from '../../store/store.js';

export const AccountsFileSchema = z
  .object({
    accounts: z.array(
      z
        .object({
          id: z.string().regex(ACCOUNT_ID_PATTERN, 'must be 1-64 letters, digits, _ or -'),
          plan: z.enum(['free', 'developer', 'growth']),
          /** Opening balance only: applied when the account is created, never again. */
          credits: z.number().int().nonnegative(),
          // The message never echoes the value: a near-miss key is still a secret. A key may be given as its hash
          // (`sha256:<64 hex>`, what `raaga keys hash` prints), so the file need not hold any key in clear.
          keys: z
            .array(z.string().refine((key) => isWellFormedApiKey(key) || HASHED_KEY.test(key), 'must be a well-formed API key (rk_live_ + 32 or more letters and digits) or its hash (sha256: + 64 hex digits)'))
            .default([]),
        })
        .strict(),
    ),
  })
  .strict();

export type AccountsFile = z.infer<typeof AccountsFileSchema>;

/** A key written as its SHA-256 (lowercase hex) instead of in clear. */
const HASHED_KEY = /^sha256:[0-9a-f]{64}$/;

/** The stored hash of a key as the file gives it: hashed here, or already hashed. */
export function keyHashOf(key: string): string {
  return HASHED_KEY.test(key) ? key.slice('sha256:'.length) : hashApiKey(key);
}

export class AccountsFileError extends Error {
  readonly path: string;
  constructor(path: string, problem: string) {
    super(`accounts file ${path}: ${problem}`);
    this.name = 'AccountsFileError';
    this.path = path;
  }
}

export interface ApplySummary {
  /** Accounts created with the file's credits as opening balance. */
  readonly created: number;
  /** Existing accounts whose plan changed to match the file. */
  readonly updated: number;
  readonly keysAdded: number;
  /** Keys in the file that were revoked earlier: they stay revoked (remove them from the file). */
  readonly keysSkippedRevoked: number;
}

/** `accounts[2].keys[0]` from a zod issue path. */
function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || '(root)';
}

/** Reads and validates the file; errors name the file, the entry index and the field. */
export async function readAccountsFile(path: string): Promise<AccountsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new AccountsFileError(path, `cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AccountsFileError(path, `invalid JSON (${(error as Error).message})`);
  }
  const parsed = AccountsFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`);
    throw new AccountsFileError(path, problems.join('; '));
  }
  const seenIds = new Map<string, number>();
  const seenKeys = new Map<string, string>();
  parsed.data.accounts.forEach((account, i) => {
    const earlier = seenIds.get(account.id);
    if (earlier !== undefined) throw new AccountsFileError(path, `accounts[${i}].id: duplicate of accounts[${earlier}].id`);
    seenIds.set(account.id, i);
    account.keys.forEach((key, j) => {
      const where = `accounts[${i}].keys[${j}]`;
      const hash = keyHashOf(key);
      const first = seenKeys.get(hash);
      if (first !== undefined) throw new AccountsFileError(path, `${where}: same key as ${first}`);
      seenKeys.set(hash, where);
    });
  });
  return parsed.data;
}

/**
 * Provisions the store from the file, idempotently, so the server can apply it on every start:
 * - a missing account is created with the file's `credits` as its opening balance;
 * - an existing account keeps its balance (top-ups go through `raaga credits add`), gets the file's plan,
 *   and gets any keys it does not have yet;
 * - keys in the store but no longer in the file are NOT revoked (revoke with `raaga keys revoke`), and a key
 *   revoked earlier stays revoked even if still listed.
 * Everything is checked before the first write, so a bad file changes nothing.
 */
export async function applyAccountsFile(store: AccountDirectory, path: string): Promise<ApplySummary> {
  const file = await readAccountsFile(path);
  const plan = await Promise.all(
    file.accounts.map(async (entry, i) => {
      const keys = await Promise.all(
        entry.keys.map(async (key, j) => {
          const hash = keyHashOf(key);
          const record = await store.getKeyHashRecord(hash);
          if (record && record.accountId !== entry.id) {
            throw new AccountsFileError(path, `accounts[${i}].keys[${j}]: this key already belongs to another account`);
          }
          return { hash, record };
        }),
      );
      return { entry, existing: await store.getAccount(entry.id), keys };
    }),
  );

  let created = 0;
  let updated = 0;
  let keysAdded = 0;
  let keysSkippedRevoked = 0;
  for (const { entry, existing, keys } of plan) {
    if (!existing) {
      await store.createAccount({ id: entry.id, plan: entry.plan, credits: entry.credits });
      created++;
    } else if (existing.plan !== entry.plan) {
      await store.setPlan(entry.id, entry.plan);
      updated++;
    }
    for (const { hash, record } of keys) {
      if (record?.revoked) keysSkippedRevoked++;
      if (record) continue;
      await store.addKeyHash(entry.id, hash);
      keysAdded++;
    }
  }
  return { created, updated, keysAdded, keysSkippedRevoked };
}
