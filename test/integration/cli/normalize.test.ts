// `raaga normalize` as an operator runs it: the compiled CLI in a real process, text as an argument or on stdin,
// and the exact words the server's front end gives the engine for the same text.

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { splitUtterance } from '../../../src/core/text/split-utterance.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function normalize(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [join(root, 'bin/raaga.mjs'), 'normalize', ...args], { cwd: root }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin!.end(stdin ?? '');
  });
}

it('prints the words the engine reads: numbers, money, dates and times in words', async () => {
  const run = await normalize(['--language', 'en-IN', 'Pay ₹1,250.50 by 12/05/2024, 5:30 PM.']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('Pay one thousand two hundred fifty rupees and fifty paise by twelfth May twenty twenty-four, five thirty PM.\n');
});

it('is the same text the synthesis path hands the engine, chunk by chunk', async () => {
  const text = 'आपका OTP 482913 है। कृपया ₹2,00,000 जमा करें; कॉल 9876543210 पर करें।';
  const run = await normalize(['--language', 'hi-IN', text]);
  const chunks = splitUtterance(text, { firstChunkMaxChars: 100, maxChunkChars: 200, language: 'hi-IN' });
  expect(run.stdout).toBe(`${chunks.map((chunk) => chunk.text).join(' ')}\n`);
  expect(run.stdout).toContain('दो लाख रुपये');
});

it('reads stdin when no text is given: one output line per input line, blank lines kept', async () => {
  const run = await normalize(['--language', 'hi-IN'], 'मेरा खाता 12345 है।\n\n₹500 दीजिए\n');
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('मेरा खाता बारह हज़ार तीन सौ पैंतालीस है।\n\nपाँच सौ रुपये दीजिए\n');
});

it('--ssml reads the input as one SSML-lite document, <speak> added when missing', async () => {
  const run = await normalize(['--language', 'en-IN', '--ssml', 'Your code is <say-as interpret-as="digits">4096</say-as>.']);
  expect(run.code).toBe(0);
  expect(run.stdout).toBe('Your code is four zero nine six.\n');
});

it('exits 2 with a message that says what to fix: unknown language, malformed SSML, no text', async () => {
  const language = await normalize(['--language', 'xx-IN', 'hello']);
  expect(language.code).toBe(2);
  expect(language.stdout).toBe('');
  expect(language.stderr).toMatch(/--language must be one of en-IN, hi-IN, .*got 'xx-IN'/);
  const ssml = await normalize(['--language', 'hi-IN', '--ssml', '<say-as interpret-as="digits">abc</say-as>']);
  expect(ssml.code).toBe(2);
  expect(ssml.stderr).toMatch(/Invalid SSML .* at character \d+ .*not a digit string/);
  const unclosed = await normalize(['--language', 'hi-IN', '--ssml', 'नमस्ते <break time="300ms">']);
  expect(unclosed.code).toBe(2);
  expect(unclosed.stderr).toMatch(/Invalid SSML/);
  const empty = await normalize(['--language', 'hi-IN'], '');
  expect(empty.code).toBe(2);
  expect(empty.stderr).toMatch(/text to normalize is required/);
});

it('shows how identifiers, fractions and Hinglish sentences are read', async () => {
  const run = await normalize(['--language', 'en-IN'], 'Flight 6E-2134, PNR 4521873690. Deliver to MG Road, Pune 411001.\nAapka loan 2½ lakh ka hai, 5:30 baje tak pay karein.\n');
  expect(run.code).toBe(0);
  expect(run.stdout).toBe(
    'Flight six E, two one three four, PNR four five two one eight, seven three six nine zero. Deliver to MG Road, Pune four one one, zero zero one.\n' +
      'Aapka loan dhaai lakh ka hai, saadhe paanch baje tak pay karein.\n',
  );
});
