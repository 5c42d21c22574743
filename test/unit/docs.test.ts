// The documentation holds together: every relative link and anchor in README.md, CONTRIBUTING.md and docs/ resolves,
// every `docs/….md` a doc or a source file names exists, nothing points outside the repository, every doc is in the
// index (docs/README.md) and says in its first paragraph who it is for, and README's Layout names every src/ folder.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const markdownIn = (dir: string): string[] => readdirSync(join(root, dir)).filter((name) => name.endsWith('.md')).map((name) => join(dir, name));
const DOCS = [...markdownIn('docs'), ...markdownIn('docs/notes')];
const ALL = ['README.md', 'CONTRIBUTING.md', ...DOCS];
const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/** The text outside fenced code blocks and inline code, where Markdown links live. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const match of markdown.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const slug = match[1]!.toLowerCase().replace(/[^\p{L}\p{M}\p{N} _-]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    out.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return out;
}

/** Relative link targets (`[text](target)`), without external URLs. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(root, path)).isDirectory() ? sourceFiles(path) : /\.(ts|mjs|cjs|sh)$/.test(name) ? [path] : [];
  });
}

describe('the documentation', () => {
  it.each(ALL)('%s: every relative link and anchor resolves', (doc) => {
    const broken: string[] = [];
    for (const target of links(read(doc))) {
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? doc : relative(root, join(root, dirname(doc), decodeURI(path)));
      if (!existsSync(join(root, file))) {
        broken.push(`${target} (no file ${file})`);
        continue;
      }
      if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(decodeURIComponent(anchor))) broken.push(`${target} (no heading #${anchor} in ${file})`);
    }
    expect(broken).toEqual([]);
  });

  it('every docs/….md that a doc or a source file names exists', () => {
    const files = [...ALL, ...sourceFiles('src'), ...sourceFiles('scripts'), ...sourceFiles('bench'), ...sourceFiles('test')];
    const missing = files.flatMap((file) => [...read(file).matchAll(/(?<![\w./-])docs\/(?:notes\/)?[a-z0-9-]+\.md\b/g)].map((match) => match[0]).filter((named) => !existsSync(join(root, named))).map((named) => `${file}: ${named}`));
    expect(missing).toEqual([]);
  });

  it('points nowhere outside the repository', () => {
    const outside = ALL.flatMap((doc) => [...read(doc).matchAll(/(?:\.\.\/)*\bshared\/(?:spec|research|DESIGN)[\w./-]*|\bresearch\/[\w-]+\.md/g)].map((match) => `${doc}: ${match[0]}`));
    expect(outside).toEqual([]);
  });

  it('lists every doc in the index, which each opens by saying who it is for', () => {
    const index = read('docs/README.md');
    const indexed = new Set(links(index).map((target) => relative(root, join(root, 'docs', target.split('#')[0]!))));
    expect(DOCS.filter((doc) => doc !== 'docs/README.md' && !indexed.has(doc))).toEqual([]);
    for (const doc of ['CONTRIBUTING.md', ...DOCS]) {
      const firstParagraph = (read(doc).replace(/^#[^\n]*\n+/, '').split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ');
      expect({ doc, says: /^For [^.:]+?:/.test(firstParagraph), opening: firstParagraph.slice(0, 80) }).toMatchObject({ says: true });
    }
  });

  it("README's Layout names every folder of src/", () => {
    const readme = read('README.md');
    const layout = readme.slice(readme.indexOf('## Layout'), readme.indexOf('\n## ', readme.indexOf('## Layout') + 1));
    const folders = readdirSync(join(root, 'src')).filter((name) => statSync(join(root, 'src', name)).isDirectory());
    expect(folders.filter((folder) => !layout.includes(`\`${folder}/\``))).toEqual([]);
  });
});
