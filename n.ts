import { normalizeText } from './src/core/text/normalize-text.js';
const lang = process.argv[2] as any;
for (const t of process.argv.slice(3)) console.log(`${t} => ${normalizeText(t, lang)}`);
