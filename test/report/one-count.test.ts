// Every number a person reads about the deletions names the same thing in every format: the
// bundled examples' document (a downscale among its deletions) is rendered as table,
// Markdown, HTML, JSON summary, alerts and Athena rows, the numbers are parsed back out of
// each, and compared with the counts the document itself gives.
import * as path from 'path';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { RecreationSpool } from '../../lib/analyze/recreation-spool';
import { isBrokerRemoval } from '../../lib/analyze/removal';
import type { AlertEvent } from '../../lib/alerts/types';
import { hourOfMs, rowsForHour } from '../../lib/history/findings-rows';
import type { FindingsDocument, Recreation } from '../../lib/model/findings';
import { buildChatNotification } from '../../lib/notify/chat';
import { buildEmailText } from '../../lib/notify/email';
import { buildSnsMessage, toAlertMessage } from '../../lib/notify/message';
import { buildSlackPayload } from '../../lib/notify/slack';
import { spoolByCluster } from '../../lib/pipeline/analyze-inputs';
import { renderReport } from '../../lib/report';
import { brokerKey } from '../../lib/report/format';

const ROOT = path.resolve(__dirname, '../..');

/** The examples analysed as the CLI does, in this process (so the code under test is this tree's). */
async function examples(): Promise<FindingsDocument> {
  const spool = new RecreationSpool();
  try {
    const found = await spoolByCluster(
      [path.join(ROOT, 'examples/logs')],
      undefined,
      defaultAnalysisOptions(),
      {},
      {},
      spool,
    );
    return { ...found, recreations: spool.toArray() };
  } finally {
    spool.close();
  }
}

let doc: FindingsDocument;
let removed: Recreation[];
let recreated: Recreation[];
let truth: { deletions: number; recreations: number; removals: number; brokers: number };
let avoidable: number;

beforeAll(async () => {
  doc = await examples();
  removed = doc.recreations.filter(isBrokerRemoval);
  recreated = doc.recreations.filter((r) => !isBrokerRemoval(r));
  truth = {
    deletions: doc.recreations.length,
    recreations: recreated.length,
    removals: removed.length,
    brokers: new Set(recreated.map(brokerKey)).size,
  };
  avoidable = (doc.summary.fixImpact as { avoidableWithFix: number }).avoidableWithFix;
});
/** The numbers a pattern captures, as numbers (thousands separators dropped). */
function numbers(text: string, pattern: RegExp): number[] {
  const m = pattern.exec(text);
  if (!m) throw new Error(`${pattern} not found in:\n${text.slice(0, 2000)}`);
  return m.slice(1).map((n) => Number(n.replace(/,/g, '')));
}

function sum(text: string, pattern: RegExp): number {
  return [...text.matchAll(pattern)].reduce((n, m) => n + Number(m[1]), 0);
}

it('the examples hold a downscale: the case the counts could disagree on', () => {
  expect(truth.removals).toBeGreaterThan(0);
  expect(truth.recreations).toBeGreaterThan(0);
  // A broker with only its removal is no broker re-created.
  expect(new Set(doc.recreations.map(brokerKey)).size).toBeGreaterThan(truth.brokers);
});

const render = (format: 'table' | 'markdown' | 'html') =>
  renderReport(doc, format, { color: false, width: 400, inputs: ['examples/logs'] });

describe.each([
  {
    format: 'table' as const,
    headline:
      /(\d+) broker pod deletions: (\d+) recreations across (\d+) brokers, (\d+) brokers? removed \(downscale\)/,
    fix: /(\d+) of (\d+) recreations/,
    tally: /(?:^|·| {2})\s*[a-z-]+ (\d+)(?=\s|$)/gm,
    tallyLine: (t: string) => t.split('\n').filter((l) => /^ {2}[a-z-]+ \d+/.test(l) && !l.includes(':')),
  },
  {
    format: 'markdown' as const,
    headline:
      /\*\*(\d+) deletions\*\*: \*\*(\d+) recreations\*\* of \*\*(\d+) brokers\*\*, \*\*(\d+) brokers? removed\*\*/,
    fix: /(\d+) of (\d+) recreations/,
    tally: /[a-z-]+ (\d+)(?= ·|\s*$)/g,
    tallyLine: (t: string) => t.split('\n').filter((l) => /^\S+ external-mutation-revert \d+ · /.test(l)),
  },
  {
    format: 'html' as const,
    headline:
      /<title>koperator-audit: (\d+) broker pod deletions: (\d+) recreations across (\d+) brokers, (\d+) brokers? removed/,
    fix: /<h2>With koperator [^<]*?(\d+) of (\d+) recreations/,
    tally: /<span class="n">(\d+)<\/span>/g,
    tallyLine: (t: string) => [/<div class="legend">.*?<\/div>/s.exec(t)![0]],
  },
])('$format', ({ format, headline, fix, tally, tallyLine }) => {
  it('the headline: deletions, recreations, the brokers re-created, removals', () => {
    const [deletions, recreations, brokers, removals] = numbers(render(format), headline);
    expect({ deletions, recreations, brokers, removals }).toEqual(truth);
  });

  it('the fix line counts recreations only: a removal is never avoidable', () => {
    expect(numbers(render(format), fix)).toEqual([avoidable, truth.recreations]);
  });

  it('the class tally adds up to the recreations', () => {
    const lines = tallyLine(render(format)).join('\n');
    expect(lines).not.toBe('');
    expect(sum(lines, tally)).toBe(truth.recreations);
  });
});

describe('html, beside its headline', () => {
  const tile = (label: string) =>
    numbers(render('html'), new RegExp(`<b>([\\d,]+)</b><span>${label}</span>`))[0];

  it('the tiles and the list title count as the headline does', () => {
    const html = render('html');
    expect(tile('recreations')).toBe(truth.recreations);
    expect(tile('brokers')).toBe(truth.brokers);
    expect(tile('brokers? removed \\(downscale\\)')).toBe(truth.removals);
    expect(numbers(html, /<h2>Recreations \((\d+)\) and brokers removed \((\d+)\)<\/h2>/)).toEqual([
      truth.recreations,
      truth.removals,
    ]);
  });

  it('the class filter counts each class without the removals, and the removals apart', () => {
    const html = render('html');
    const select = /<select id="filter-class"[^>]*>(.*?)<\/select>/s.exec(html)![1];
    expect(sum(select.replace(/broker-removed.*$/s, ''), /\((\d+)\)<\/option>/g)).toBe(truth.recreations);
    expect(numbers(select, /value="broker-removed">[^<]*\((\d+)\)<\/option>/)).toEqual([truth.removals]);
  });
});

it('the JSON summary: recreations and brokerRemovals add up to the entries, as fixImpact counts', () => {
  const s = doc.summary as {
    recreations: number;
    brokerRemovals: number;
    fixImpact: { recreations: number };
  };
  expect({ recreations: s.recreations, removals: s.brokerRemovals, fix: s.fixImpact.recreations }).toEqual({
    recreations: truth.recreations,
    removals: truth.removals,
    fix: truth.recreations,
  });
});

describe('alerts', () => {
  const ctx = { window: { from: '2026-05-04T08:00:00Z', to: '2026-05-04T10:00:00Z' }, report: null };
  const recreationAlert = (r: Recreation): AlertEvent => ({
    kind: 'recreation',
    event: 'recreation',
    id: r.deletedPod.name,
    cluster: 'examples',
    recreation: r,
  });
  const texts = (ev: AlertEvent) => {
    const m = toAlertMessage(ev, ctx);
    return {
      slack: JSON.stringify(buildSlackPayload(m)),
      chat: JSON.stringify(buildChatNotification(m)),
      email: buildEmailText(m),
      sns: buildSnsMessage(m).subject,
    };
  };

  const channels = ['slack', 'chat', 'email', 'sns'] as const;
  it.each(channels)('a removal is announced as one, never as a pod re-created (%s)', (channel) => {
    const text = texts(recreationAlert(removed[0]))[channel];
    expect(text).toMatch(/broker removed/i);
    expect(text).not.toMatch(/re-created/i);
  });

  it.each(channels)('a recreation is still announced as one (%s)', (channel) => {
    expect(texts(recreationAlert(recreated[0]))[channel]).toMatch(/re-created/i);
  });

  it('a loop alert counts the loop’s recreations, as the reports do', () => {
    for (const loop of doc.loops) {
      const ev: AlertEvent = {
        kind: 'loop',
        event: 'loop-started',
        id: loop.firstAt,
        cluster: 'examples',
        loop,
        totalCount: loop.count,
        latest: null,
      };
      const { email } = texts(ev);
      expect(numbers(email, /Count: +(\d+) recreation/)).toEqual([loop.count]);
    }
  });
});

it('Athena rows: a recreation row per recreation, the removal flagged apart, avoidable as fixImpact', () => {
  const times = doc.recreations.map((r) => Date.parse(r.deletedPod.deletedAt));
  const rows = [];
  for (let t = Math.min(...times); t <= Math.max(...times) + 3_600_000; t += 3_600_000)
    rows.push(
      ...rowsForHour(doc, {
        cluster: 'examples',
        hour: hourOfMs(t),
        runAt: '2026-05-04T10:00:00Z',
        loopStartedAt: (l) => l.firstAt,
      }),
    );
  const recs = rows.filter((r) => r.record_type === 'recreation');
  expect({
    recreations: recs.filter((r) => r.broker_removed === false).length,
    removals: recs.filter((r) => r.broker_removed === true).length,
    avoidable: recs.filter((r) => r.fix_verdict === 'avoidable').length,
  }).toEqual({ recreations: truth.recreations, removals: truth.removals, avoidable });
});
