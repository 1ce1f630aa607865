// Live drift (drift.md) in every human format: a section that names each drift's pod, who,
// the declared and written values and whether it stands; in HTML also a timeline mark per
// drift on its broker's row; and a plain sentence when there is none.
import { renderReport, type ReportFormat } from '../../lib/report';
import { buildFixture, INJECTION, SCRIPT_BREAKOUT } from './fixture';

const doc = buildFixture();
const drifts = doc.drifts!;

describe.each<[ReportFormat, string, string]>([
  ['table', 'Live drift (3, 1 standing)', 'No one but the operator changed a running broker pod.'],
  ['markdown', '## Live drift (3, 1 standing)', 'No one but the operator changed a running broker pod.'],
  ['html', 'Live drift (3, 1 standing)', 'No one but the operator changed a running broker pod.'],
])('%s report', (format, heading, none) => {
  const text = renderReport(doc, format, { color: false, width: 100 });

  it('has a drift section naming each pod, its writer, values and state', () => {
    expect(text).toContain(heading);
    for (const d of drifts) expect(text).toContain(d.pod.name);
    expect(text).toContain('bob@corp.example');
    expect(text).toContain('ghcr.io/adobe/kafka:2.13-4.0.0');
    expect(text).toContain('ghcr.io/adobe/kafka:2.13-3.9.1');
    expect(text).toContain('2500m');
    expect(text).toMatch(/stands|STANDS/);
    expect(text).toContain('pod deleted 2026-11-02 10:50:00');
    expect(text).toContain('reverted 2026-11-02 10:20:00');
  });

  it('lists standing tamper first', () => {
    const first = text.indexOf('events-0-xklrp', text.indexOf(heading));
    const ended = text.indexOf('events-1-n7l72', text.indexOf(heading));
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(ended);
  });

  it('says so when there is none', () => {
    const empty = renderReport({ ...doc, drifts: [] }, format, { color: false, width: 100 });
    expect(empty).toContain(none);
    expect(empty).not.toContain('events-0-xklrp');
  });
});

describe('HTML drift marks', () => {
  const html = renderReport(doc, 'html', { color: false });

  it('draws one timeline mark per drift, tamper marked as such', () => {
    const marks = html.match(/<path class="drift-mark"[^>]*>/g) ?? [];
    expect(marks).toHaveLength(drifts.length);
    expect(marks.filter((m) => m.includes('data-severity="tamper"'))).toHaveLength(2);
    expect(marks.filter((m) => m.includes('data-stands="true"'))).toHaveLength(1);
  });

  it('gives a drift-only broker a row of its own', () => {
    expect(html).toContain('<title>kafka/events #0</title>');
  });

  it('escapes what a writer or a value holds', () => {
    expect(html).not.toContain(INJECTION);
    expect(html).not.toContain(SCRIPT_BREAKOUT);
    expect(html).toContain('carol &lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('the HTML timeline legend keys every mark it draws', () => {
  it.each([
    ['with drifts', doc, true],
    ['without', { ...doc, drifts: [] }, false],
  ])('%s', (_name, d, keyed) => {
    const html = renderReport(d, 'html', { color: false });
    const legend = /<div class="legend">.*?<\/div>/s.exec(html)![0];
    expect(html.includes('class="drift-mark"') && /<g class="drifts">/.test(html)).toBe(keyed);
    expect(legend.includes('id="legend-drift"')).toBe(keyed);
  });
});
