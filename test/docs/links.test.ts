// The documentation a newcomer reads: every relative link finds its file and every anchor a
// heading of its target, in the README, docs/, infra/, bench/, examples/ and SECURITY.md;
// the README stays short and leads to every page of docs/.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { anchors, linkProblem, relativeLinks, slug } from './markdown-links';

const ROOT = path.resolve(__dirname, '..', '..');

/** examples/**\/README.md, every depth. */
function exampleReadmes(): string[] {
  return readdirSync(path.join(ROOT, 'examples'), { recursive: true, encoding: 'utf8' })
    .filter((f) => path.basename(f) === 'README.md')
    .map((f) => path.join('examples', f));
}

const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .sort();
const FILES = [
  'README.md',
  'SECURITY.md',
  'bench/README.md',
  ...DOCS.map((f) => `docs/${f}`),
  ...readdirSync(path.join(ROOT, 'infra'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `infra/${f}`),
  ...exampleReadmes(),
];

const problems = (files: string[], root = ROOT): string[] =>
  files.flatMap((f) =>
    relativeLinks(path.join(root, f), readFileSync(path.join(root, f), 'utf8')).flatMap((l) => {
      const p = linkProblem(l);
      return p ? [`${f}:${l.line}: (${l.target}) ${p.split(root + path.sep).join('')}`] : [];
    }),
  );

describe('documentation links', () => {
  it('reads the pages it should', () => {
    expect(FILES).toEqual(
      expect.arrayContaining([
        'docs/cli.md',
        'docs/exit-codes.md',
        'docs/output.md',
        'docs/deploying.md',
        'docs/alerts.md',
        'docs/athena.md',
        'infra/README-deploy.md',
        'infra/log-shipping.md',
        'examples/README.md',
        'examples/pods/README.md',
      ]),
    );
  });

  it('every relative link finds its file, and every anchor a heading of its target', () => {
    expect(
      FILES.flatMap((f) => relativeLinks(f, readFileSync(path.join(ROOT, f), 'utf8'))).length,
    ).toBeGreaterThan(50);
    expect(problems(FILES)).toEqual([]);
  });

  it('the README is at most 400 lines and links every page of docs/', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    expect(readme.split('\n').length - 1).toBeLessThanOrEqual(400);
    const linked = new Set(relativeLinks('README.md', readme).map((l) => l.target.split('#')[0]));
    expect(DOCS.filter((d) => !linked.has(`docs/${d}`))).toEqual([]);
  });

  it('every page of docs/ opens with its title and a paragraph', () => {
    for (const d of DOCS) {
      const [title, blank, first] = readFileSync(path.join(ROOT, 'docs', d), 'utf8').split('\n');
      expect([d, /^# \S/.test(title!), blank, /^[^#|`\s-]/.test(first!)]).toEqual([d, true, '', true]);
    }
  });
});

describe('the link check itself', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug("Checked against AWS's rules, offline")).toBe('checked-against-awss-rules-offline');
    expect(slug('Time to alert: the evidence asks for the analysis')).toBe(
      'time-to-alert-the-evidence-asks-for-the-analysis',
    );
    expect(slug('Least privilege (`infra/iam.yml`)')).toBe('least-privilege-infraiamyml');
    expect(slug('Reading on every core: `--workers`')).toBe('reading-on-every-core---workers');
    expect(slug('snake_case and [a link](x.md)')).toBe('snake_case-and-a-link');
    expect([...anchors('# A\n\n## A\n\n```\n# not a heading\n```\n\n### A\n')]).toEqual(['a', 'a-1', 'a-2']);
  });

  it('skips URLs and code, and reads images and reference definitions', () => {
    const text = [
      '[site](https://example.com) [mail](mailto:x@example.com) `[code](nowhere.md)`',
      '![picture](pic.png) [page](other.md#part "title")',
      '```',
      '[in a block](nowhere.md)',
      '```',
      '[ref]: ref.md',
    ].join('\n');
    expect(relativeLinks('a.md', text).map((l) => [l.line, l.target])).toEqual([
      [2, 'pic.png'],
      [2, 'other.md#part'],
      [6, 'ref.md'],
    ]);
  });

  it('fails on a planted broken link and a planted bad anchor, in-page or in another file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'doc-links-'));
    try {
      writeFileSync(path.join(dir, 'other.md'), '# Other\n\n## Its part\n');
      writeFileSync(
        path.join(dir, 'page.md'),
        [
          '# Page',
          '',
          '## Here',
          '',
          '[fine](other.md#its-part) [fine too](#here) [a folder](.)',
          '[broken](missing.md) [bad anchor](other.md#no-such-part) [bad in-page](#nowhere)',
        ].join('\n'),
      );
      expect(problems(['page.md'], dir)).toEqual([
        `page.md:6: (missing.md) no such file: missing.md`,
        'page.md:6: (other.md#no-such-part) no heading with anchor #no-such-part in other.md',
        'page.md:6: (#nowhere) no heading with anchor #nowhere in page.md',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
