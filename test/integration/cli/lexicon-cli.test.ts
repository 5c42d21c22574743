// `raaga lexicon` and `raaga normalize --lexicon` as an operator runs them: real processes through bin/raaga.mjs on a
// real SQLite store in a temp dir. A CSV and a PLS file imported and exported back unchanged, entries set and deleted,
// bad files refused naming the problem with nothing stored, the lexicons in `raaga store export`, and the words the
// engine is given with a lexicon file or a stored lexicon.

import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../../src/store/sqlite-store.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
let dir: string;
let dataDir: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function raaga(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [join(root, 'bin/raaga.mjs'), ...args],
      { cwd: root, env: { ...process.env, REDIS_URL: '', RAAGA_DATA_DIR: dataDir } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    if (stdin !== undefined) child.stdin?.end(stdin);
  });
}

const CSV = [
  'language,grapheme,alias,phoneme,alphabet',
  'hi-IN,HDFC,एच डी एफ सी,,',
  'hi-IN,AT&T,"ए टी एंड टी, ""ग्लोबल""",,',
  'en-IN,Zomato,,zoʊˈmɑːtoʊ,ipa',
  'ta-IN,Chennai,சென்னை,,',
].join('\r\n');

const PLS = `<?xml version="1.0" encoding="UTF-8"?>
<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="x-sampa" xml:lang="hi-IN">
  <lexeme><grapheme>Nykaa</grapheme><alias>नायका</alias></lexeme>
  <lexeme><grapheme>Swiggy</grapheme><phoneme>"swIgi</phoneme></lexeme>
</lexicon>
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'raaga-lexicon-cli-'));
  dataDir = join(dir, 'data');
  const store = await SqliteStore.open({ dataDir });
  await store.createAccount({ id: 'acct_l', plan: 'growth', credits: 1000 });
  await store.close();
  await writeFile(join(dir, 'brands.csv'), `${CSV}\r\n`);
  await writeFile(join(dir, 'shops.pls'), PLS);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('raaga lexicon', () => {
  it('imports a CSV file and exports it back unchanged', async () => {
    const imported = await raaga(['lexicon', 'import', '--account', 'acct_l', 'brands', join(dir, 'brands.csv')]);
    expect(imported).toMatchObject({ code: 0, stdout: "Imported 4 entries into 'brands' (4 entries in all).\n" });
    expect(imported.stderr).toBe('1 phoneme entry stored; no engine takes phonemes yet, so their words are spoken as written.\n');
    const exported = await raaga(['lexicon', 'export', '--account', 'acct_l', 'brands']);
    expect(exported.code).toBe(0);
    // In the stores' order (by language, then grapheme), the same entries to the byte.
    const sorted = [CSV.split('\r\n')[0], CSV.split('\r\n')[3], CSV.split('\r\n')[2], CSV.split('\r\n')[1], CSV.split('\r\n')[4]].join('\r\n');
    expect(exported.stdout).toBe(`${sorted}\n`);
    await writeFile(join(dir, 'again.csv'), `${exported.stdout}`);
    await raaga(['lexicon', 'import', '--account', 'acct_l', 'copy', join(dir, 'again.csv')]);
    expect((await raaga(['lexicon', 'export', '--account', 'acct_l', 'copy'])).stdout).toBe(exported.stdout);
  });

  it('imports a PLS file and exports it back: its entries, the same document for one language', async () => {
    const imported = await raaga(['lexicon', 'import', '--account', 'acct_l', 'shops', join(dir, 'shops.pls')]);
    expect(imported).toMatchObject({ code: 0, stdout: "Imported 2 entries into 'shops' (2 entries in all).\n" });
    const output = join(dir, 'shops-out.pls');
    expect(await raaga(['lexicon', 'export', '--account', 'acct_l', 'shops', '--output', output])).toMatchObject({ code: 0, stderr: `Exported 2 entries of 'shops' to ${output}.\n` });
    const written = await readFile(output, 'utf8');
    expect(written).toBe(
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<lexicon version="1.0" xmlns="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="hi-IN">',
        '  <lexeme><grapheme>Nykaa</grapheme><alias>नायका</alias></lexeme>',
        '  <lexeme><grapheme>Swiggy</grapheme><phoneme alphabet="x-sampa">&quot;swIgi</phoneme></lexeme>',
        '</lexicon>',
        '',
      ].join('\n'),
    );
    await raaga(['lexicon', 'import', '--account', 'acct_l', 'shops-copy', output]);
    expect((await raaga(['lexicon', 'export', '--account', 'acct_l', 'shops-copy', '--format', 'pls'])).stdout).toBe(written);
    // A lexicon of several languages is one PLS document a language.
    const several = await raaga(['lexicon', 'export', '--account', 'acct_l', 'brands', '--format', 'pls']);
    expect(several).toMatchObject({ code: 2, stderr: expect.stringContaining("a PLS document holds one language; 'brands' has en-IN, hi-IN, ta-IN: pass --language") });
    expect((await raaga(['lexicon', 'export', '--account', 'acct_l', 'brands', '--format', 'pls', '--language', 'ta-IN'])).stdout).toContain('<grapheme>Chennai</grapheme><alias>சென்னை</alias>');
  });

  it('--replace makes the entries of the file\'s languages the file\'s, keeping other languages', async () => {
    await writeFile(join(dir, 'only-hdfc.csv'), 'language,grapheme,alias\nhi-IN,HDFC,एचडीएफसी\n');
    await raaga(['lexicon', 'import', '--account', 'acct_l', 'copy', join(dir, 'only-hdfc.csv'), '--replace']);
    const shown = await raaga(['lexicon', 'show', '--account', 'acct_l', 'copy', '--json']);
    expect(JSON.parse(shown.stdout).entries).toEqual([
      { language: 'en-IN', grapheme: 'Zomato', phoneme: 'zoʊˈmɑːtoʊ', alphabet: 'ipa' },
      { language: 'hi-IN', grapheme: 'HDFC', alias: 'एचडीएफसी' },
      { language: 'ta-IN', grapheme: 'Chennai', alias: 'சென்னை' },
    ]);
  });

  it('sets, shows, lists and deletes entries and lexicons', async () => {
    expect(await raaga(['lexicon', 'set', '--account', 'acct_l', 'default', '--language', 'hi-IN', '--grapheme', 'SBI', '--alias', 'एस बी आई'])).toMatchObject({
      code: 0,
      stdout: "Set hi-IN 'SBI' in 'default' (1 entry).\n",
    });
    const shown = await raaga(['lexicon', 'show', '--account', 'acct_l', 'default']);
    expect(shown.stdout).toBe('LANGUAGE  GRAPHEME  SAYS\nhi-IN     SBI       एस बी आई\n');
    const listed = await raaga(['lexicon', 'list', '--account', 'acct_l', '--json']);
    expect(JSON.parse(listed.stdout).map((l: { name: string }) => l.name)).toEqual(['brands', 'copy', 'default', 'shops', 'shops-copy']);
    expect(await raaga(['lexicon', 'delete', '--account', 'acct_l', 'default', '--language', 'hi-IN', '--grapheme', 'sbi'])).toMatchObject({ code: 0 });
    expect(JSON.parse((await raaga(['lexicon', 'show', '--account', 'acct_l', 'default', '--json'])).stdout).entries).toEqual([]);
    expect((await raaga(['lexicon', 'delete', '--account', 'acct_l', 'default', '--language', 'hi-IN', '--grapheme', 'SBI'])).stderr).toMatch(/has no hi-IN entry 'SBI'/);
    expect(await raaga(['lexicon', 'delete', '--account', 'acct_l', 'shops-copy'])).toMatchObject({ code: 0, stdout: "Deleted lexicon 'shops-copy'.\n" });
    expect((await raaga(['lexicon', 'show', '--account', 'acct_l', 'shops-copy'])).stderr).toMatch(/no lexicon 'shops-copy'/);
  });

  it('refuses bad files naming the problem, storing nothing', async () => {
    const cases: [string, string, RegExp][] = [
      ['not-xml.pls', 'HDFC,एच डी एफ सी\n', /The PLS file is not well-formed XML: text outside the root element \(line 1, column 1\)/],
      ['sapi.pls', '<lexicon xml:lang="hi-IN" alphabet="sapi"><lexeme><grapheme>a</grapheme><phoneme>x</phoneme></lexeme></lexicon>', /names the alphabet 'sapi' on <lexicon>, which Raaga does not know \(use ipa or x-sampa\)/],
      ['tamil.csv', 'language,grapheme,alias\nhi-IN,Nykaa,x\nhi-IN,சென்னை,चेन्नई\n', /Lexicon line 3: 'grapheme' has 'ச' \(U\+0B9A\), a Tamil letter, but the entry is hi-IN/],
      ['loop.csv', 'language,grapheme,alias\nen-IN,HDFC,HDFC Bank\n', /Lexicon line 2: 'alias' says 'HDFC' again/],
    ];
    for (const [file, text, message] of cases) {
      await writeFile(join(dir, file), text);
      const refused = await raaga(['lexicon', 'import', '--account', 'acct_l', 'refused', join(dir, file)]);
      expect(refused.code, file).toBe(1);
      expect(refused.stderr).toMatch(message);
    }
    expect((await raaga(['lexicon', 'show', '--account', 'acct_l', 'refused'])).stderr).toMatch(/no lexicon 'refused'/);
    expect((await raaga(['lexicon', 'import', '--account', 'acct_l', 'x', join(dir, 'brands.txt')])).stderr).toMatch(/pass --format csv or --format pls/);
    expect((await raaga(['lexicon', 'import', '--account', 'acct_nobody', 'x', join(dir, 'brands.csv')])).stderr).toMatch(/account acct_nobody does not exist/);
  });

  it('moves with raaga store export', async () => {
    const exported = JSON.parse((await raaga(['store', 'export'])).stdout) as { lexicons: { accountId: string; name: string }[] };
    // default stays stored, empty, once an entry of it was deleted.
    expect(exported.lexicons.map((l) => l.name)).toEqual(['brands', 'copy', 'default', 'shops']);
  });
});

describe('raaga normalize --lexicon', () => {
  it('gives the engine what a lexicon file says, and what a stored lexicon says', async () => {
    const fromFile = await raaga(['normalize', '--language', 'hi-IN', '--lexicon', join(dir, 'brands.csv'), 'आपका HDFC खाता, AT&T से।']);
    expect(fromFile).toMatchObject({ code: 0, stdout: 'आपका एच डी एफ सी खाता, ए टी एंड टी, "ग्लोबल" से।\n' });
    const stored = await raaga(['normalize', '--language', 'hi-IN', '--account', 'acct_l', '--lexicon', 'shops', 'Nykaa और Swiggy।']);
    expect(stored).toMatchObject({ code: 0, stdout: 'नायका और Swiggy।\n', stderr: 'note: 1 phoneme entry is spoken as written: no engine takes phonemes yet.\n' });
    expect((await raaga(['normalize', '--language', 'hi-IN', '--lexicon', 'shops', 'x'])).stderr).toMatch(/--lexicon shops names a stored lexicon: give --account/);
    expect((await raaga(['normalize', '--language', 'hi-IN', 'आपका HDFC खाता'])).stdout).toBe('आपका HDFC खाता\n');
  });
});
