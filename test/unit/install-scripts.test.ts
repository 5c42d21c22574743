// npm's install-script policy in package.json (`allowScripts`) covers every package of the lockfile that has an install
// script, so `npm ci` warns of no unreviewed script, and denies onnxruntime-node's (both the pinned one and the one
// kokoro-js brings), whose script would download GPU files: the CPU binary it needs ships in its package.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string): unknown => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
const pkg = read('package.json') as { allowScripts?: Record<string, boolean> };
const lock = read('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };

describe('install scripts', () => {
  it('every package with an install script is allowed or denied, and nothing else is listed', () => {
    const withScripts = new Set(Object.entries(lock.packages).filter(([, entry]) => entry.hasInstallScript).map(([path]) => path.replace(/^.*node_modules\//, '')));
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual([...withScripts].sort());
  });

  it("onnxruntime-node's install script is denied, and the project .npmrc makes it skip where npm runs it anyway", () => {
    expect(pkg.allowScripts?.['onnxruntime-node']).toBe(false);
    expect(pkg.allowScripts?.['better-sqlite3']).toBe(true); // its native build
    const npmrc = new URL('../../.npmrc', import.meta.url);
    const settings = existsSync(npmrc) ? readFileSync(npmrc, 'utf8').split('\n').filter((line) => line.trim() !== '' && !/^\s*[#;]/.test(line)) : [];
    // Offline, the script's download would fail `npm ci`: both of its flags (1.30's and 1.21's) say skip.
    expect(settings).toEqual(['onnxruntime-node-install=skip', 'onnxruntime-node-install-cuda=skip']);
  });
});
