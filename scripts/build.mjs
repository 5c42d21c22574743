// `npm run build` (and `prepare`, so `npm ci` builds too): compiles src/ to dist/, copies what the compiled code
// reads from beside itself (worker bootstrap, playground and docs pages), and builds the client package
// (packages/client). Plain Node, so it needs nothing but tsc.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });

/** Every file under src/ that is not TypeScript is an asset the compiled code loads by path. */
function copyAssets(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) copyAssets(path);
    else if (extname(name) !== '.ts') cpSync(path, join(dist, relative(src, path)));
  }
}
copyAssets(src);

// The client as a package of its own (packages/client, published as @raaga/client): JavaScript + declarations only.
rmSync(join(root, 'packages/client/dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', join(root, 'packages/client/tsconfig.json')], { stdio: 'inherit' });
