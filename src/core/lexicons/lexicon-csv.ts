// Lexicons as CSV (RFC 4180, UTF-8): a header row naming the columns `language,grapheme,alias,phoneme,alphabet` (in
// any order; alias, or phoneme and alphabet, may be left out when no row uses them), then one entry a row: an alias,
// or a phoneme and its alphabet. Quoted fields may hold commas, quotes ("") and line breaks. Refusals name the line.

import { ApiError } from '../../errors.js';
import { isAliasEntry, type LexiconEntry } from '../../store/lexicon.js';
import type { EntryLabel, LexiconEntryInput } from './lexicon-rules.js';

export const CSV_COLUMNS = ['language', 'grapheme', 'alias', 'phoneme', 'alphabet'] as const;
type Column = (typeof CSV_COLUMNS)[number];

export interface CsvLexicon {
  readonly entries: readonly LexiconEntryInput[];
  readonly label: EntryLabel;
}

function refused(problem: string): ApiError {
  return new ApiError('validation_error', `The CSV file ${problem}.`);
}

/** Rows of fields, each with the line it starts on. */
function records(text: string): { readonly fields: string[]; readonly line: number }[] {
  const rows: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let i = text.startsWith('\ufeff') ? 1 : 0;
  const endRow = (): void => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) rows.push({ fields, line: rowLine });
    fields = [];
    field = '';
  };
  while (i < text.length) {
    const ch = text[i] as string;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        const next = text[i];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') throw refused(`has a character after a closing quote on line ${line}`);
        continue;
      }
      if (ch === '\n') line++;
      field += ch;
      i++;
      continue;
    }
    if (ch === '"') {
      if (field !== '') throw refused(`has a quote inside an unquoted field on line ${line} (quote the whole field, and double the quote)`);
      quoted = true;
      i++;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
      i++;
    } else if (ch === '\r' || ch === '\n') {
      endRow();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line++;
      rowLine = line;
    } else {
      field += ch;
      i++;
    }
  }
  if (quoted) throw refused(`has a quoted field that never ends (from line ${rowLine})`);
  if (field !== '' || fields.length > 0) endRow();
  return rows;
}

export function parseLexiconCsv(text: string): CsvLexicon {
  const [header, ...rows] = records(text);
  if (!header) throw refused(`is empty; its first line names the columns: ${CSV_COLUMNS.join(',')}`);
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  for (const name of columns) {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) throw refused(`names the column '${name}' on line 1; the columns are ${CSV_COLUMNS.join(', ')}`);
  }
  for (const required of ['language', 'grapheme'] as const) if (!columns.includes(required)) throw refused(`has no '${required}' column on line 1`);
  if (new Set(columns).size !== columns.length) throw refused('names a column twice on line 1');
  const lines: number[] = [];
  const entries = rows.map(({ fields, line }) => {
    if (fields.length !== columns.length) throw refused(`has ${fields.length} fields on line ${line}, where the header has ${columns.length}`);
    const cell = (name: Column): string | undefined => {
      const at = columns.indexOf(name);
      const value = at < 0 ? '' : (fields[at] as string);
      return value === '' ? undefined : value;
    };
    lines.push(line);
    const entry: LexiconEntryInput = { language: cell('language') ?? '', grapheme: cell('grapheme') ?? '' };
    const [alias, phoneme, alphabet] = [cell('alias'), cell('phoneme'), cell('alphabet')];
    return { ...entry, ...(alias !== undefined ? { alias } : {}), ...(phoneme !== undefined ? { phoneme } : {}), ...(alphabet !== undefined ? { alphabet } : {}) };
  });
  return { entries, label: (index) => `line ${lines[index] ?? '?'}` };
}

function quoted(value: string): string {
  return /[",\r\n]/u.test(value) || value !== value.trim() ? `"${value.replace(/"/gu, '""')}"` : value;
}

export function writeLexiconCsv(entries: readonly LexiconEntry[]): string {
  const rows = entries.map((entry) =>
    (isAliasEntry(entry) ? [entry.language, entry.grapheme, entry.alias, '', ''] : [entry.language, entry.grapheme, '', entry.phoneme, entry.alphabet]).map(quoted).join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}
