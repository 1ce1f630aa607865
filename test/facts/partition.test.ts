import {
  alertStateKey,
  clusterOfFactsPrefix,
  clusterOfLogKey,
  clusterSegment,
  defaultLayout,
  factsKey,
  hourOf,
  hoursInWindow,
  normalisePrefix,
  parseFactsKey,
  partitionFactsByHour,
  reportKey,
  sourceDigest,
} from '../../lib/facts/partition';
import type { OperatorFact } from '../../lib/model/facts';

const layout = defaultLayout();

describe('bucket layout', () => {
  it.each([
    ['logs', 'logs/'],
    ['/logs/', 'logs/'],
    ['a/b//', 'a/b/'],
    ['', ''],
  ])('normalises prefix %j to %j', (p, expected) => expect(normalisePrefix(p)).toBe(expected));

  it.each([
    ['logs/eks-prod/audit/x.gz', 'eks-prod'],
    ['logs/x.gz', 'default'],
    ['other/eks-prod/x.gz', 'default'],
    ['logs//x.gz', 'default'],
  ])('cluster of %s is %s', (key, cluster) => expect(clusterOfLogKey(key, 'logs/', 'default')).toBe(cluster));

  it.each([
    ['2026-11-02T10:59:59.999999Z', '2026-11-02-10'],
    ['2026-11-02T11:00:00+01:00', '2026-11-02-10'],
    ['not a time', null],
  ])('hour of %s is %s', (at, hour) => expect(hourOf(at)).toBe(hour));

  it('lists every hour overlapping a window', () => {
    expect(hoursInWindow(new Date('2026-11-02T08:30:00Z'), new Date('2026-11-02T10:00:00Z'))).toEqual([
      '2026-11-02-08',
      '2026-11-02-09',
      '2026-11-02-10',
    ]);
  });

  it('names facts by source key and ETag: same object, same key; new content, new key', () => {
    const k1 = factsKey(layout, 'eks-prod', '2026-11-02-10', 'logs/eks-prod/a.gz', '"0123abcd"');
    expect(k1).toBe(factsKey(layout, 'eks-prod', '2026-11-02-10', 'logs/eks-prod/a.gz', '0123abcd'));
    expect(k1).not.toBe(factsKey(layout, 'eks-prod', '2026-11-02-10', 'logs/eks-prod/a.gz', '4567'));
    expect(k1).toMatch(/^facts\/cluster=eks-prod\/hour=2026-11-02-10\/[0-9a-f]{40}\.jsonl\.gz$/);
    expect(parseFactsKey(layout, k1)).toEqual({
      cluster: 'eks-prod',
      hour: '2026-11-02-10',
      digest: sourceDigest('logs/eks-prod/a.gz', '0123abcd'),
    });
    expect(parseFactsKey(layout, 'facts/cluster=x/hour=2026-11-02-10/readme.txt')).toBeNull();
  });

  it('keeps odd cluster names to one key segment and reads them back', () => {
    expect(clusterSegment('team a/prod')).toBe('team%20a%2Fprod');
    const key = factsKey(layout, 'team a/prod', '2026-11-02-10', 's', 'e');
    expect(parseFactsKey(layout, key)?.cluster).toBe('team a/prod');
    expect(clusterOfFactsPrefix(layout, 'facts/cluster=team%20a%2Fprod/')).toBe('team a/prod');
  });

  it('puts reports and state beside the facts, per cluster', () => {
    expect(reportKey(layout, 'eks-prod', new Date('2026-11-02T11:30:00Z'))).toBe(
      'reports/cluster=eks-prod/2026-11-02T11-30-00.000Z.json',
    );
    expect(alertStateKey(layout, 'eks-prod')).toBe('state/cluster=eks-prod/alerts.json');
  });

  it('splits facts by hour and sets untimed ones apart', () => {
    const f = (at: string): OperatorFact => ({
      type: 'operator',
      at,
      src: { source: 's', line: 1 },
      msg: 'm',
      level: 'info',
      kafkaCluster: null,
      namespace: null,
      pod: null,
      brokerId: null,
      fields: {},
    });
    const { byHour, untimed } = partitionFactsByHour([
      f('2026-11-02T10:01:00Z'),
      f('2026-11-02T11:00:00Z'),
      f('2026-11-02T10:59:00Z'),
      f('?'),
    ]);
    expect([...byHour.entries()].map(([h, l]) => [h, l.length])).toEqual([
      ['2026-11-02-10', 2],
      ['2026-11-02-11', 1],
    ]);
    expect(untimed).toHaveLength(1);
  });
});
