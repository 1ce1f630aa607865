// Strings in findings come from the logs (pod and label names, webhook configuration
// names, user names, field values), so anyone who can create a pod or a webhook shapes
// them. Each output must neutralise them for its medium: no markup in the HTML report,
// raw HTML in Markdown only inside code, no mentions or links in Slack, no terminal
// escapes in the table, ASCII-only SNS subjects.
import fc from 'fast-check';
import type { Recreation } from '../../lib/model/findings';
import type { FindingsDocument } from '../../lib/model/findings';
import { buildSnsMessage, toAlertMessage } from '../../lib/notify/message';
import { buildSlackPayload } from '../../lib/notify/slack';
import { buildChatNotification } from '../../lib/notify/chat';
import { buildEmailText } from '../../lib/notify/email';
import { renderReport } from '../../lib/report';

const PAYLOADS: readonly string[] = [
  '</script><script>alert(1)</script>',
  '<img src=x onerror=alert(2)>',
  '<!-- x --><svg onload=alert(3)>',
  'x` <img src=x onerror=alert(4)> `y',
  'a\n```\n<img src=x onerror=alert(5)>\n```\n',
  '<!channel> <https://evil.example|click here> @here',
  '\u001b[2J\u001b]0;pwned\u0007\r\u001b[31mred',
  '\u202e\u0000\u2028\u2029',
];

function recreationWith(p: string): Recreation {
  return {
    namespace: `kafka${p}`,
    kafkaCluster: `c${p}`,
    brokerId: `0${p}`,
    deletedPod: { name: `c-0-x${p}`, uid: `u${p}`, deletedAt: '2026-11-02T10:00:00Z', deletedBy: `eve${p}` },
    createdPod: { name: `c-0-y${p}`, uid: 'u2', createdAt: '2026-11-02T10:00:05Z' },
    classification: 'external-mutation-revert',
    fields: [{ path: `metadata.labels.x${p}`, from: p, to: { nested: [p] }, by: `hook${p}` }],
    wouldRestart: { threeWayMerge: true, intentDiff: false },
    evidence: [`e${p}`],
  };
}

function docWith(p: string): FindingsDocument {
  const r = recreationWith(p);
  const loop = {
    namespace: r.namespace,
    kafkaCluster: r.kafkaCluster,
    brokerId: r.brokerId,
    classification: r.classification,
    count: 3,
    firstAt: '2026-11-02T10:00:00Z',
    lastAt: '2026-11-02T10:00:00Z',
    periodSeconds: 8,
    fields: [r.fields[0].path],
    mutators: [String(r.fields[0].by)],
    active: true,
    recommendation: `fix ${p}`,
  };
  return { recreations: [r], loops: [loop], summary: { inputs: [p] } } as unknown as FindingsDocument;
}

const render = (doc: FindingsDocument, format: 'html' | 'markdown' | 'table'): string =>
  renderReport(doc, format, {
    color: false,
    inputs: [String((doc.summary as { inputs: string[] }).inputs[0])],
    generatedAt: '2026-11-02T12:00:00Z',
  });

/** Markdown with code spans and fenced blocks removed: what a renderer would treat as markup. */
function outsideCode(md: string): string {
  return md.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1\s*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
}

/** Every text Slack renders as mrkdwn, wherever it sits in the blocks. */
function mrkdwnTexts(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(mrkdwnTexts);
  if (typeof v !== 'object' || v === null) return [];
  const o = v as Record<string, unknown>;
  const own = o.type === 'mrkdwn' && typeof o.text === 'string' ? [o.text] : [];
  return [...own, ...Object.values(o).flatMap(mrkdwnTexts)];
}

describe('hostile strings in findings', () => {
  const benignHtml = render(docWith('plain'), 'html');
  const scriptTags = (s: string): number => s.split(/<script/i).length - 1;

  it.each(PAYLOADS)('HTML report: no markup from %j', (p) => {
    const html = render(docWith(p), 'html');
    expect(scriptTags(html)).toBe(scriptTags(benignHtml));
    // Escaped text (`&lt;img ... onerror=...`) is harmless; a raw tag is not. The page
    // draws its own <svg>, so only the payload's own tags are looked for.
    expect(html).not.toMatch(/<img|<svg onload|<!-- x/i);
  });

  it.each(PAYLOADS)('Markdown report: raw HTML from %j only inside code', (p) => {
    const md = render(docWith(p), 'markdown');
    expect(outsideCode(md)).not.toMatch(/<img|<svg|<script|<!-- x/i);
  });

  it.each(PAYLOADS)('table: no terminal control characters from %j', (p) => {
    // eslint-disable-next-line no-control-regex
    expect(render(docWith(p), 'table')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it.each(PAYLOADS)('Slack and SNS: no mentions, links or control characters from %j', (p) => {
    const doc = docWith(p);
    const ctx = { window: { from: '2026-11-02T09:00:00Z', to: '2026-11-02T12:00:00Z' }, report: null };
    const m = toAlertMessage(
      { kind: 'recreation', event: 'recreation', id: 'i', cluster: `k${p}`, recreation: doc.recreations[0] },
      ctx,
    );
    const payload = buildSlackPayload(m);
    // Slack parses mentions and links in mrkdwn (and the fallback text), never in plain_text.
    const mrkdwn = [payload.text, ...mrkdwnTexts(payload.blocks)];
    expect(mrkdwn.length).toBeGreaterThan(3);
    for (const t of mrkdwn) expect(t).not.toMatch(/<!channel>|<!here>|<https?:/);
    const sns = buildSnsMessage(m);
    expect(sns.subject).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(sns.body)).toMatchObject({ id: 'i' }); // still valid JSON
  });

  it.each(PAYLOADS)('chat and email: no mentions, links, control or bidi characters from %j', (p) => {
    const doc = docWith(p);
    const ctx = { window: { from: '2026-11-02T09:00:00Z', to: '2026-11-02T12:00:00Z' }, report: null };
    for (const m of [
      toAlertMessage(
        {
          kind: 'recreation',
          event: 'recreation',
          id: 'i',
          cluster: `k${p}`,
          recreation: doc.recreations[0],
        },
        ctx,
      ),
      toAlertMessage(
        {
          kind: 'loop',
          event: 'loop-started',
          id: 'l',
          cluster: `k${p}`,
          loop: doc.loops[0],
          totalCount: 3,
          latest: doc.recreations[0],
        },
        ctx,
      ),
    ]) {
      const n = buildChatNotification(m);
      const texts = [n.content.title, n.content.description, ...n.content.nextSteps, n.metadata.summary];
      for (const t of texts) {
        expect(t).not.toMatch(/<!channel>|<!here>|<https?:|(^|\s)@here/);
        // eslint-disable-next-line no-control-regex
        expect(t.replace(/\n/g, '')).not.toMatch(/[\u0000-\u001f\u007f\u202a-\u202e\u2028\u2029]/);
      }
      // One line per fact: nothing from the logs adds a line (a fake list item or heading).
      expect(n.content.title).not.toContain('\n');
      const email = buildEmailText(m);
      // eslint-disable-next-line no-control-regex
      expect(email).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f\u202a-\u202e\u2028\u2029]/);
    }
  });

  it('property: any string in every field renders in every format without markup or a throw', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 64 }), (s) => {
        const p = `<img src=x onerror=alert(9)>${s}`;
        const doc = docWith(p);
        const html = render(doc, 'html');
        expect(scriptTags(html)).toBe(scriptTags(benignHtml));
        expect(html).not.toContain('<img');
        expect(outsideCode(render(doc, 'markdown'))).not.toContain('<img');
      }),
      { seed: 20261102, numRuns: 150 },
    );
  });
});
