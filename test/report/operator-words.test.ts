// Every report names another operator's members in its words: a NiFiKop node is "NiFiKop
// (NifiCluster nifi/prod, node 2)" in the table, the Markdown and the HTML (its rows, its loop,
// its timeline), never "nifi/prod #2", and is never one of koperator's brokers, even one of the
// same namespace, cluster name and id. koperator's labels are as they were.
import type { FindingsDocument, Loop, Recreation } from '../../lib/model/findings';
import {
  brokerKey,
  brokerLabel,
  compareBrokers,
  deletionsPhrase,
  groupByBroker,
  headlineOf,
} from '../../lib/report/format';
import { renderReport } from '../../lib/report';
import { rowsForHour } from '../../lib/history/findings-rows';
import { buildFixture, FIXTURE_OPTIONS } from './fixture';

const NIFI = 'NiFiKop (NifiCluster nifi/prod, node 2)';
const KAFKA = 'nifi/prod #2';

function rec(operator: string | undefined, pod: string, at: string): Recreation {
  return {
    namespace: 'nifi',
    ...(operator ? { operator } : {}),
    kafkaCluster: 'prod',
    brokerId: '2',
    deletedPod: {
      name: pod,
      uid: `uid-${pod}`,
      deletedAt: at,
      deletedBy: 'system:serviceaccount:nifikop:nifikop',
    },
    createdPod: { name: `${pod}-next`, uid: `uid-${pod}-next`, createdAt: at },
    classification: 'external-mutation-revert',
    fields: [
      {
        path: 'spec.containers[name=nifi].image',
        from: 'apache/nifi:2.0.0',
        to: 'mirror/nifi:2.0.0',
        by: 'mirror/pods',
      },
    ],
    wouldRestart: { threeWayMerge: true, intentDiff: true },
    evidence: [`audit:${pod}`],
  };
}

const LOOP: Loop = {
  namespace: 'nifi',
  operator: 'nifikop',
  kafkaCluster: 'prod',
  brokerId: '2',
  classification: 'external-mutation-revert',
  count: 3,
  firstAt: '2026-11-02T10:00:00.000000Z',
  lastAt: '2026-11-02T10:02:00.000000Z',
  periodSeconds: 60,
  fields: ['spec.containers[name=nifi].image'],
  mutators: ['mirror/pods'],
  active: true,
  recommendation:
    'NiFiKop re-creates the node pod because mirror/pods changed spec.containers[name=nifi].image it declares.',
  stoppedByVersion: null,
};

function doc(): FindingsDocument {
  const base = buildFixture();
  const byVersion = { '<1.12': true, '1.12-1.13': false, '1.14': false, '>=1.15': false };
  const nifi = ['a', 'b', 'c']
    .map((s, i) => rec('nifikop', `prod-2-node${s}xxxx`, `2026-11-02T10:0${i}:00.000000Z`))
    .map((r) => ({ ...r, wouldRestartByVersion: byVersion }));
  // A koperator broker with the same namespace, cluster name and id: another member.
  const kafka = rec(undefined, 'prod-2-kxxxx', '2026-11-02T10:05:00.000000Z');
  return { ...base, recreations: [...base.recreations, ...nifi, kafka], loops: [...base.loops, LOOP] };
}

describe('another operator in the reports', () => {
  it('labels, keys and order: its words, apart from a koperator broker of the same names', () => {
    const [n, k] = [rec('nifikop', 'p', 'x'), rec(undefined, 'q', 'x')];
    expect(brokerLabel(n)).toBe(NIFI);
    expect(brokerLabel(k)).toBe(KAFKA);
    expect(brokerKey(n)).not.toBe(brokerKey(k));
    expect(brokerKey(k)).toBe(JSON.stringify(['nifi', 'prod', '2']));
    expect(compareBrokers(k, n)).toBeLessThan(0);
    expect(
      groupByBroker(doc().recreations)
        .filter((g) => g.key.includes('"prod"'))
        .map((g) => g.label),
    ).toEqual([KAFKA, NIFI]);
  });

  it.each(['table', 'markdown', 'html'] as const)(
    '%s: the node in NiFiKop’s words, the broker in koperator’s',
    (format) => {
      const out = renderReport(doc(), format, { ...FIXTURE_OPTIONS, color: false, width: 200 });
      // Markdown escapes `#`; NiFiKop's label has nothing to escape.
      expect(out).toContain(NIFI);
      expect(out).toContain(format === 'markdown' ? 'nifi/prod \\#2' : KAFKA);
    },
  );

  it('its verdicts are its answers by version, not koperator’s two', () => {
    const md = renderReport(doc(), 'markdown', { ...FIXTURE_OPTIONS, color: false });
    expect(md).toContain(
      'Would restart — by version: **NiFiKop &lt;1.12 restart · 1.12-1.13 no restart · 1.14 no restart · &gt;=1.15 no restart**',
    );
    const html = renderReport(doc(), 'html', { ...FIXTURE_OPTIONS, color: false });
    expect(html).toContain('1.12-1.13 no restart · 1.14 no restart');
    expect(html).toContain("verdict('Would restart, by version', r.verdict.before)");
  });

  it('html: the timeline row names the operator and the node', () => {
    const out = renderReport(doc(), 'html', { ...FIXTURE_OPTIONS, color: false });
    expect(out).toContain('<tspan class="ns">NiFiKop nifi/</tspan>prod <tspan class="id">node 2</tspan>');
    expect(out).toContain('<tspan class="ns">nifi/</tspan>prod <tspan class="id">#2</tspan>');
  });

  it('Athena rows: operator nifikop on its rows, null on koperator’s, no koperator verdict for it', () => {
    const rows = rowsForHour(doc(), {
      cluster: 'eks-prod',
      hour: '2026-11-02-10',
      runAt: '2026-11-02T12:00:00Z',
      loopStartedAt: (l) => l.firstAt,
    });
    const nifi = rows.filter((r) => r.operator === 'nifikop');
    expect(nifi.map((r) => r.record_type).sort()).toEqual(['loop', 'recreation', 'recreation', 'recreation']);
    for (const r of nifi.filter((x) => x.record_type === 'recreation')) {
      expect([r.kafka_cluster, r.broker_id, r.would_restart_three_way, r.would_restart_intent]).toEqual([
        'prod',
        '2',
        null,
        null,
      ]);
      expect(r.loop_id).toBe(nifi.find((x) => x.record_type === 'loop')!.loop_id);
    }
    const kafka = rows.find((r) => r.deleted_pod === 'prod-2-kxxxx')!;
    expect([kafka.operator, kafka.would_restart_three_way, kafka.loop_id]).toEqual([null, true, null]);
  });
});

describe('the headline counts each operator’s members in its own noun', () => {
  const doc = (recreations: Recreation[]): FindingsDocument =>
    ({ recreations, loops: [], fights: [], drifts: [], summary: {} }) as unknown as FindingsDocument;
  const kafka = (pod: string, id: string): Recreation => ({
    ...rec(undefined, pod, '2026-08-13T09:00:00Z'),
    brokerId: id,
  });
  const nifi = (pod: string): Recreation => rec('nifikop', pod, '2026-08-13T09:01:00Z');

  it.each<[string, Recreation[], string]>([
    ['koperator alone', [kafka('k-1', '1'), kafka('k-2', '2')], '2 broker pod recreations across 2 brokers'],
    ['NiFiKop alone', [nifi('n-a'), nifi('n-b')], '2 NiFi node pod recreations across 1 NiFi node'],
    [
      'both',
      [kafka('k-1', '1'), nifi('n-a'), nifi('n-b')],
      '3 pod recreations across 1 broker and 1 NiFi node',
    ],
  ])('%s', (_, recreations, phrase) => {
    const d = doc(recreations);
    expect(deletionsPhrase(headlineOf(d))).toBe(phrase);
    expect(renderReport(d, 'table', { ...FIXTURE_OPTIONS, color: false })).toContain(
      `koperator-audit: ${phrase}`,
    );
  });
});
