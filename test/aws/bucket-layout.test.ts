import {
  alertStateKey,
  clusterFactsPrefix,
  clusterLogsPrefix,
  clusterOfFactsPrefix,
  clusterOfLogKey,
  clusterSegment,
  defaultLayout,
  clusterOfEksLogGroup,
  eksFleetDeliveryPrefix,
  eksFleetErrorsPrefix,
  isEksFleetKey,
  factsKey,
  findingsHistoryKey,
  findingsHistoryStateKey,
  factsSnapshotKey,
  hourFactsPrefix,
  layoutProblems,
  normalisePrefix,
  parseFactsKey,
  reportHtmlKey,
  reportKey,
  sourceDigest,
  type BucketLayout,
} from '../../lib/aws/bucket-layout';

const layout = defaultLayout();
const RUN = new Date('2026-11-02T11:30:00Z');

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

  it.each<[string, string, string]>([
    ['report', reportKey(layout, 'eks-prod', RUN), 'reports/cluster=eks-prod/2026-11-02T11-30-00.000Z.json'],
    [
      'report as HTML',
      reportHtmlKey(reportKey(layout, 'eks-prod', RUN)),
      'reports/cluster=eks-prod/2026-11-02T11-30-00.000Z.html',
    ],
    ['alert state', alertStateKey(layout, 'eks-prod'), 'state/cluster=eks-prod/alerts.json'],
    [
      'findings history state',
      findingsHistoryStateKey(layout, 'eks-prod'),
      'state/cluster=eks-prod/findings-history.json',
    ],
    [
      'facts window snapshot',
      factsSnapshotKey(layout, 'eks-prod'),
      'state/cluster=eks-prod/facts-window.pack',
    ],
    [
      'findings history hour',
      findingsHistoryKey(layout, 'eks-prod', '2026-11-02-10'),
      'findings/cluster=eks-prod/dt=2026-11-02/2026-11-02-10.jsonl',
    ],
    ['EKS fleet delivery', eksFleetDeliveryPrefix(layout), 'logs/_eks/'],
    ['EKS fleet delivery errors', eksFleetErrorsPrefix(), 'firehose-errors/_eks/'],
  ])('puts the %s at %s', (_, key, expected) => expect(key).toBe(expected));

  // Prefixes as a stage param may give them: each key lands under its normalised prefix.
  const odd: BucketLayout = {
    logsPrefix: '/in/logs',
    factsPrefix: 'derived/facts//',
    reportsPrefix: 'out/reports',
    statePrefix: '/state',
    findingsPrefix: 'athena/findings',
  };
  it.each<[string, keyof BucketLayout, (l: BucketLayout) => string]>([
    ['cluster logs', 'logsPrefix', (l) => clusterLogsPrefix(l, 'c')],
    ['EKS fleet delivery', 'logsPrefix', (l) => eksFleetDeliveryPrefix(l)],
    ['facts', 'factsPrefix', (l) => factsKey(l, 'c', '2026-11-02-10', 's', 'e')],
    ['a cluster’s facts', 'factsPrefix', (l) => clusterFactsPrefix(l, 'c')],
    ['an hour’s facts', 'factsPrefix', (l) => hourFactsPrefix(l, 'c', '2026-11-02-10')],
    ['report', 'reportsPrefix', (l) => reportKey(l, 'c', RUN)],
    ['alert state', 'statePrefix', (l) => alertStateKey(l, 'c')],
    ['findings history state', 'statePrefix', (l) => findingsHistoryStateKey(l, 'c')],
    ['facts window snapshot', 'statePrefix', (l) => factsSnapshotKey(l, 'c')],
    ['findings history hour', 'findingsPrefix', (l) => findingsHistoryKey(l, 'c', '2026-11-02-10')],
  ])('builds the %s key under its normalised prefix', (_, prefix, build) => {
    const key = build(odd);
    expect(key.startsWith(normalisePrefix(odd[prefix]))).toBe(true);
    expect(key).not.toMatch(/^\/|\/\//);
  });

  it.each(['eks-prod', 'team_a-1'])('reads a stream of its own’s objects back as cluster %s', (cluster) => {
    for (const l of [layout, odd])
      expect(
        clusterOfLogKey(
          `${clusterLogsPrefix(l, cluster)}audit/firehose/2026/11/02/10/x`,
          l.logsPrefix,
          'default',
        ),
      ).toBe(cluster);
  });

  it('tells the fleet stream’s objects, whose records name their clusters by log group', () => {
    for (const l of [layout, odd]) {
      expect(isEksFleetKey(`${eksFleetDeliveryPrefix(l)}2026/11/02/10/x`, l.logsPrefix)).toBe(true);
      expect(isEksFleetKey(`${clusterLogsPrefix(l, 'eks')}2026/11/02/10/x`, l.logsPrefix)).toBe(false);
    }
    expect(clusterOfEksLogGroup('/aws/eks/team_a-1/cluster')).toBe('team_a-1');
    for (const g of [
      '/aws/eks/team_a-1/other',
      '/aws/lambda/x',
      '/aws/eks/-x/cluster',
      '/aws/eks/a/b/cluster',
    ])
      expect(clusterOfEksLogGroup(g)).toBeNull();
  });

  it.each<[string, Partial<BucketLayout>, RegExp[]]>([
    ['the defaults', {}, []],
    ['other folders, nested', { factsPrefix: 'derived/facts/', reportsPrefix: 'derived/reports/' }, []],
    ['a leading slash', { factsPrefix: '/facts' }, [/^factsPrefix "\/facts" must be written "facts\/"$/]],
    ['no trailing slash', { logsPrefix: 'logs' }, [/^logsPrefix "logs" must be written "logs\/"$/]],
    ['an empty prefix', { statePrefix: '' }, [/^statePrefix is empty/]],
    [
      'facts inside the logs',
      { factsPrefix: 'logs/facts/' },
      [/^factsPrefix "logs\/facts\/" lies inside logsPrefix "logs\/"/],
    ],
    [
      'two kinds in one folder',
      { reportsPrefix: 'state/' },
      [/^statePrefix and reportsPrefix are both "state\/"/],
    ],
    [
      'logs inside Firehose’s errors',
      { logsPrefix: 'firehose-errors/logs/' },
      [/^logsPrefix "firehose-errors\/logs\/" lies inside the Firehose errors prefix/],
    ],
  ])('layout with %s: %p', (_, change, expected) => {
    const problems = layoutProblems({ ...layout, ...change });
    expect(problems).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(problems[i]).toMatch(re));
  });
});
