#!/usr/bin/env node
// Entry for `npx raaga`: loads the TypeScript CLI through tsx so there is no build step.
import { register } from 'tsx/esm/api';
register();
await import(new URL('../src/cli/main.ts', import.meta.url).href);
