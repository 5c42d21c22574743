// Headless Debian Chromium driven by playwright-core for the browser tests: a fresh profile per launch,
// no network beyond the test server, and screenshots kept in test-artifacts/ (gitignored) for a human to look at.

import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const ARTIFACTS_DIR = new URL('../../test-artifacts/', import.meta.url);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Playwright clicks count as gestures, but a test must not depend on the autoplay heuristics.
  '--autoplay-policy=no-user-gesture-required',
];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<Browser> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'raaga-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1100, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

export async function artifactPath(name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  return join(ARTIFACTS_DIR.pathname, name);
}
