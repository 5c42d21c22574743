import { normalizeText } from './src/core/text/normalize-text.js';
import { readFileSync } from 'node:fs';
const [lang, file] = process.argv.slice(2) as [any, string];
for (const t of readFileSync(file, 'utf8').split('\n').filter(Boolean)) console.log(`  [${JSON.stringify(t).replace(/^"|"$/g, "'")}, '${normalizeText(t, lang)}'],`);
