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
    expect(md).toMatch(
      /## Loops \(2\)\n\n(\*\*active\*\* = still looping at the end of the logs, [^\n]+\n\n)?\| broker \| class \| count \|/,
    );
    // One heading per broker, and one for what to do.
    expect(md.match(/^### /gm)).toHaveLength(11);
    expect(md).toContain('### What to do');
    expect(md.match(/^<details><summary>/gm)).toHaveLength(doc.recreations.length);
    expect(md.match(/^<\/details>$/gm)).toHaveLength(doc.recreations.length);
  });

  it('puts a banner naming each failed input above everything else', () => {
    const failed = {
      ...doc,
      summary: {
        ...doc.summary,
        inputsOpened: 3,
        inputErrors: [{ input: '/var/log/audti/', reason: 'no such file or folder' }],
      },
    };
    const out = renderReport(failed, 'markdown', { color: false });
    const banner = out.indexOf('> **1 input could not be read**: this report covers only the rest.');
    expect(banner).toBeGreaterThan(0);
    expect(banner).toBeLessThan(out.indexOf('**16 recreations**'));
    expect(out).toContain('> - `/var/log/audti/`: no such file or folder');
    const none = { ...failed, summary: { ...failed.summary, inputsOpened: 0 } };
    expect(renderReport(none, 'markdown', { color: false })).toContain(
      '**No input could be read** (1 input failed): this is not an all-clear.',
    );
  });

  it('says active is relative to the end of the logs, and when that is', () => {
    const withEnd = { ...doc, summary: { ...doc.summary, dataEndsAt: '2026-11-02T11:30:00.000000Z' } };
    expect(renderReport(withEnd, 'markdown', { color: false })).toContain(
      '**active** = still looping at the end of the logs, 2026-11-02 11:30:00 UTC (the newest event read, not now).',
    );
  });

  it('writes each distinct recommendation once', () => {
    const twice = {
      ...doc,
      loops: [...doc.loops, { ...doc.loops[0], brokerId: '9', firstAt: '2026-11-02T11:30:00Z' }],
    };
    const out = renderReport(twice, 'markdown', { color: false });
    const text = mdText(doc.loops[0].recommendation);
    expect(out.split(text).length - 1).toBe(1);
  });

  it('uses the same class colour squares as the palette', () => {
    for (const c of CLASSIFICATIONS) expect(md).toContain(`${CLASS_STYLES[c].emoji} ${mdText(c)}`);
  });

  it('shows field diffs and both restart verdicts', () => {
    expect(md).toContain('@@ spec.containers[name=kafka].image  (by alice@example.com) @@');
    expect(md).toContain('ghcr.io/adobe/kafka:2.13-3.7.0 → ghcr.io/adobe/kafka:2.13-3.7.1');
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
    expect(md).toContain(`(unset) → ${INJECTION}`);
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
