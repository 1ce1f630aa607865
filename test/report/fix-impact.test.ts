// The fix impact leads every human format, and only where the summary has one.
import { fixImpactOf } from '../../lib/analyze/fix-impact';
import type { FindingsDocument } from '../../lib/model/findings';
import { renderReport, type ReportFormat } from '../../lib/report';
import { buildFixture, FIXTURE_OPTIONS } from './fixture';

function withImpact(): FindingsDocument {
  const doc = buildFixture();
  return { ...doc, summary: { ...doc.summary, fixImpact: fixImpactOf(doc.recreations) } };
}

/** Where the first line of the findings proper starts in each format. */
const FINDINGS_START: Record<Exclude<ReportFormat, 'json'>, RegExp> = {
  table: /koperator-audit: \d+ broker pod recreations?/,
  markdown: /\*\*\d+ recreations?\*\* of/,
  html: /<section class="card" id="timeline">/,
};

describe('fix impact in the reports', () => {
  it.each(Object.keys(FINDINGS_START) as Array<keyof typeof FINDINGS_START>)(
    '%s: says it before any other finding',
    (format) => {
      const doc = withImpact();
      const fi = doc.summary.fixImpact as ReturnType<typeof fixImpactOf>;
      expect(fi.recreations).toBe(doc.recreations.length);
      const text = renderReport(doc, format, { ...FIXTURE_OPTIONS, color: false });
      const head = `ith koperator 0.30.0-rc1, ${fi.avoidableWithFix} of ${fi.recreations} recreations`;
      const at = text.indexOf(head);
      expect(at).toBeGreaterThan(-1);
      expect(at).toBeLessThan(text.search(FINDINGS_START[format]));
    },
  );

  it.each(Object.keys(FINDINGS_START) as Array<keyof typeof FINDINGS_START>)(
    '%s: says nothing of it for findings made without one',
    (format) => {
      expect(renderReport(buildFixture(), format, { ...FIXTURE_OPTIONS, color: false })).not.toContain(
        'would not have happened',
      );
    },
  );

  it('breaks it down by broker in the HTML, the brokers it saves most first', () => {
    const doc = withImpact();
    const html = renderReport(doc, 'html', { ...FIXTURE_OPTIONS, color: false });
    const section = html.slice(
      html.indexOf('id="fix-impact"'),
      html.indexOf('</section>', html.indexOf('id="fix-impact"')),
    );
    const rows = [
      ...section.matchAll(
        /<tr><td><code>([^<]+)<\/code><\/td><td class="num">(\d+)<\/td><td class="num">(\d+)<\/td>/g,
      ),
    ];
    const brokers = new Set(doc.recreations.map((r) => `${r.namespace}/${r.kafkaCluster} #${r.brokerId}`));
    expect(rows.map((r) => r[1]).sort()).toEqual([...brokers].map((b) => b.replace(/&/g, '&amp;')).sort());
    expect(rows.reduce((n, r) => n + Number(r[2]), 0)).toBe(doc.recreations.length);
    const avoidable = (doc.summary.fixImpact as ReturnType<typeof fixImpactOf>).avoidableWithFix;
    expect(avoidable).toBeGreaterThan(0);
    expect(rows.reduce((n, r) => n + Number(r[3]), 0)).toBe(avoidable);
    // Sorted by what the fix saves: avoidable counts never rise down the rows that have any.
    const counts = rows.map((r) => Number(r[3]));
    expect(counts.indexOf(0) === -1 || counts.slice(counts.indexOf(0)).every((c) => c === 0)).toBe(true);
  });
});
