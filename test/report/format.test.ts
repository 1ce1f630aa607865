import {
  flattenSummary,
  formatDuration,
  formatRange,
  formatTimestamp,
  formatValue,
  groupByBroker,
  truncateMiddle,
} from '../../lib/report/format';
import { escapeBreakable, escapeHtml, jsonForScript, safeHref } from '../../lib/report/html/escape';
import { niceTicks, renderTimeline } from '../../lib/report/html/timeline';
import { sanitizeForTerminal, wrap } from '../../lib/report/text-table';
import { buildFixture, INJECTION, SCRIPT_BREAKOUT } from './fixture';

describe('report text helpers', () => {
  it('formats periods the way people say them', () => {
    expect(formatDuration(9.6)).toBe('9.6s');
    expect(formatDuration(10)).toBe('10s');
    expect(formatDuration(61)).toBe('1m01s');
    expect(formatDuration(5400)).toBe('1h30m');
    expect(formatDuration(90000)).toBe('1d01h');
    expect(formatDuration(Number.NaN)).toBe('?');
  });

  it('formats times in UTC and keeps unparseable ones as given', () => {
    expect(formatTimestamp('2026-11-02T10:37:39.689748Z')).toBe('2026-11-02 10:37:39');
    expect(formatTimestamp('not a time')).toBe('not a time');
    expect(formatRange('2026-11-02T10:00:00Z', '2026-11-02T11:00:00Z')).toBe(
      '2026-11-02 10:00:00 → 11:00:00',
    );
    expect(formatRange('2026-11-02T23:00:00Z', '2026-11-03T01:00:00Z')).toBe(
      '2026-11-02 23:00:00 → 2026-11-03 01:00:00',
    );
  });

  it('writes values compactly', () => {
    expect(formatValue('500m')).toBe('500m');
    expect(formatValue(null)).toBe('(unset)');
    expect(formatValue([{ a: 1 }])).toBe('[{"a":1}]');
    expect(truncateMiddle('spec.containers[name=kafka].resources.requests.cpu', 20)).toBe(
      'spec.conta…uests.cpu',
    );
  });

  it('flattens any summary shape into rows, with a limit', () => {
    const { rows, omitted } = flattenSummary(
      {
        files: 3,
        byFormat: { audit: 2 },
        skipped: [{ file: 'x', reason: 'y' }],
        tags: ['a', 'b'],
        empty: {},
      },
      5,
    );
    expect(rows).toEqual([
      ['files', '3'],
      ['byFormat.audit', '2'],
      ['skipped[0].file', 'x'],
      ['skipped[0].reason', 'y'],
      ['tags', 'a, b'],
    ]);
    expect(omitted).toBe(1);
  });

  it('groups brokers by namespace, cluster and numeric id', () => {
    const labels = groupByBroker(buildFixture().recreations).map((g) => g.label);
    expect(labels).toEqual([
      'kafka/events-kafka #0',
      'kafka/events-kafka #1',
      'kafka/events-kafka #2',
      'kafka/events-kafka #5',
      'kafka/orders-kafka #0',
      'kafka/orders-kafka #1',
      'kafka/orders-kafka #2',
      'kafka/orders-kafka #3',
      'kafka/pipeline-kafka #4',
      'staging/logs-kafka #0',
    ]);
  });

  it('wraps paths between segments', () => {
    expect(wrap('spec.affinity.podAntiAffinity.preferredDuringScheduling', 20)).toEqual([
      'spec.affinity.',
      'podAntiAffinity.',
      'preferredDuringSched',
      'uling',
    ]);
    expect(wrap('short', 20)).toEqual(['short']);
  });

  it('shows control characters as escapes in the terminal', () => {
    expect(sanitizeForTerminal('a\u001b[31mb\nc')).toBe('a\\u001b[31mb\\u000ac');
  });
});

describe('HTML escaping', () => {
  it('escapes text and attributes', () => {
    expect(escapeHtml(INJECTION)).toBe('&lt;img src=x onerror=alert(1)&gt;');
    expect(escapeHtml(`"'&`)).toBe('&quot;&#39;&amp;');
    expect(escapeBreakable('a.b/<c>[d]')).toBe('a.<wbr>b/<wbr>&lt;c&gt;<wbr>[d]');
  });

  it('embeds JSON that cannot close its script element and still parses', () => {
    const value = { s: SCRIPT_BREAKOUT, t: '<!-- \u2028 &' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('links only http(s) URLs', () => {
    expect(safeHref('https://x.example/r.html')).toBe('https://x.example/r.html');
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref(undefined)).toBeNull();
  });
});

describe('timeline SVG', () => {
  it('marks every recreation and draws one band per loop, escaping every attribute', () => {
    const doc = buildFixture();
    doc.recreations[0].deletedPod.uid = '"><script>alert(1)</script>';
    const { svg, bins } = renderTimeline(doc);
    const marks = svg.match(/<circle class="mark[^>]*>/g) ?? [];
    const binned = bins.reduce((n, b) => n + b.length, 0);
    expect(marks.length - bins.length + binned).toBe(doc.recreations.length);
    expect(svg.match(/<rect class="loop-band"/g)).toHaveLength(doc.loops.length);
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('data-uid="&quot;&gt;&lt;script&gt;');
  });

  it('still draws a mark for a recreation whose time does not parse', () => {
    const doc = buildFixture();
    doc.recreations[0].deletedPod.deletedAt = 'garbage';
    expect(renderTimeline(doc).svg).toMatch(/<circle class="mark[^"]*"[^>]*data-undated="true"/);
  });

  it('picks round tick steps', () => {
    const start = Date.parse('2026-11-02T09:58:00Z');
    const { step, ticks } = niceTicks(start, start + 90 * 60000, 8);
    expect(step).toBe(15 * 60000);
    expect(new Date(ticks[0]).toISOString()).toBe('2026-11-02T10:00:00.000Z');
  });
});
