import { renderReport } from '../../lib/report';
import { CLASSIFICATIONS } from '../../lib/model/findings';
import { CLASS_STYLES } from '../../lib/report/colors';
import { mdCode, mdText } from '../../lib/report/markdown';
import { buildFixture, FIXTURE_OPTIONS, INJECTION } from './fixture';

describe('Markdown report', () => {
  const doc = buildFixture();
  const md = renderReport(doc, 'markdown', { color: true, ...FIXTURE_OPTIONS });

  it('matches the snapshot', () => {
    expect(md).toMatchSnapshot();
  });

  it('has headings, a loops table, one table per broker and one <details> per recreation', () => {
    expect(md.startsWith('# Broker pod recreations\n')).toBe(true);
    expect(md).toContain('## Loops (2)\n\n| broker | class | count |');
    expect(md.match(/^### /gm)).toHaveLength(10);
    expect(md.match(/^<details><summary>/gm)).toHaveLength(doc.recreations.length);
    expect(md.match(/^<\/details>$/gm)).toHaveLength(doc.recreations.length);
  });

  it('uses the same class colour squares as the palette', () => {
    for (const c of CLASSIFICATIONS) expect(md).toContain(`${CLASS_STYLES[c].emoji} ${mdText(c)}`);
  });

  it('shows field diffs and both restart verdicts', () => {
    expect(md).toContain('@@ spec.containers[name=kafka].image  (by alice@example.com) @@');
    expect(md).toContain('- ghcr.io/adobe/kafka:2.13-3.7.0\n+ ghcr.io/adobe/kafka:2.13-3.7.1');
    expect(md).toContain(
      'before the koperator fix (three-way merge): **restart** · after the fix (intent diff): **no restart**',
    );
    expect(md).toContain('(three-way merge): **unknown** · after the fix (intent diff): **unknown**');
  });

  it('never lets a log value open an HTML tag outside a fenced block', () => {
    const outsideFences = md.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '');
    expect(outsideFences).not.toContain(INJECTION);
    expect(outsideFences).not.toMatch(/<(?!\/?(details|summary|br)>|https:\/\/)[a-z/]/i);
    // Inside a fence it stays verbatim, which is literal text in every renderer.
    expect(md).toContain(`+ ${INJECTION}`);
  });

  it('links the full report only over http(s)', () => {
    expect(md).toContain('[full HTML report](<https://reports.example.com/incident-42.html>)');
    const js = renderReport(doc, 'markdown', { color: false, reportUrl: 'javascript:alert(1)' });
    expect(js).not.toContain('javascript:alert(1)');
  });

  it('escapes table and inline syntax in text and code spans', () => {
    expect(mdText('a|b *c* <i>')).toBe('a\\|b \\*c\\* &lt;i&gt;');
    expect(mdCode('x`y|z')).toBe('``x`y\\|z``');
    expect(mdCode('`edge')).toBe('`` `edge ``');
  });
});
