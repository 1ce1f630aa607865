import {
  analyzeConfigFromEnv,
  dispatchConfigFromEnv,
  ingestConfigFromEnv,
  notifyConfigFromEnv,
  reportLinkFunctionConfigFromEnv,
} from '../../lib/aws/env-config';

describe('function configuration from the environment', () => {
  it('ingest: bucket required, layout and cluster defaults', () => {
    expect(ingestConfigFromEnv({ BUCKET: 'b' })).toEqual({
      factsBucket: 'b',
      layout: {
        logsPrefix: 'logs/',
        factsPrefix: 'facts/',
        reportsPrefix: 'reports/',
        statePrefix: 'state/',
        findingsPrefix: 'findings/',
      },
      defaultCluster: 'default',
      operatorLogGroups: new Map(),
      trigger: null,
    });
    expect(() => ingestConfigFromEnv({})).toThrow(/BUCKET is not set/);
    expect(
      ingestConfigFromEnv({ BUCKET: 'b', FACTS_BUCKET: 'f', LOGS_PREFIX: 'raw/', MAX_LINE_BYTES: '1024' }),
    ).toMatchObject({ factsBucket: 'f', layout: { logsPrefix: 'raw/' }, maxLineBytes: 1024 });
  });

  it.each([
    ['', []],
    ['containerinsights', []],
    ['containerinsights, prod-eu=/fluent-bit/prod-eu/op', [['/fluent-bit/prod-eu/op', 'prod-eu']]],
  ])(
    'ingest: the operator log groups that do not name their cluster, from EKS_OPERATOR_LOGS %j',
    (v, want) => {
      expect([...ingestConfigFromEnv({ BUCKET: 'b', EKS_OPERATOR_LOGS: v }).operatorLogGroups]).toEqual(want);
    },
  );

  it('ingest: refuses an EKS_OPERATOR_LOGS entry that is not a pair', () => {
    expect(() => ingestConfigFromEnv({ BUCKET: 'b', EKS_OPERATOR_LOGS: 'prod-eu' })).toThrow(
      /EKS_OPERATOR_LOGS: eksOperatorLogs: "prod-eu" is neither containerinsights nor <cluster>=<log group>/,
    );
  });

  it.each([
    [{}, null],
    [
      { ANALYSIS_QUEUE_URL: 'https://q/a.fifo' },
      { queueUrl: 'https://q/a.fifo', maxAgeSeconds: 900, operatorUsers: [] },
    ],
    [
      { ANALYSIS_QUEUE_URL: 'https://q/a.fifo', ANALYSIS_MAX_AGE: '5m', OPERATOR_USERS: 'u1, u2' },
      { queueUrl: 'https://q/a.fifo', maxAgeSeconds: 300, operatorUsers: ['u1', 'u2'] },
    ],
  ])('ingest: the analysis on evidence from %j', (extra, trigger) => {
    expect(ingestConfigFromEnv({ BUCKET: 'b', ...extra }).trigger).toEqual(trigger);
  });

  it('ingest: a wrong ANALYSIS_MAX_AGE is refused', () => {
    expect(() =>
      ingestConfigFromEnv({ BUCKET: 'b', ANALYSIS_QUEUE_URL: 'https://q/a.fifo', ANALYSIS_MAX_AGE: 'soon' }),
    ).toThrow(/ANALYSIS_MAX_AGE must be a duration/);
  });

  it('analyze: defaults are a 6 h window, 1 h of context, loops of 3 within 10 min, pre-signed report links for 24 h, no chat topic', () => {
    const c = analyzeConfigFromEnv({ BUCKET: 'b', TOPIC_ARN: 'arn:t' });
    expect(c).toMatchObject({
      lookbackSeconds: 21600,
      contextSeconds: 3600,
      reportLink: { mode: 'presigned', expiresSeconds: 86400 },
      chatTopicArn: '',
      eksClusterArns: {},
      eventBus: '',
      findings: { prefix: 'findings/', settleSeconds: 3600 },
    });
    expect(c.analysis).toMatchObject({ loopMinCount: 3, loopMaxGapSeconds: 600 });
    expect(c.alerts).toMatchObject({
      escalationFactor: 2,
      recreationClasses: ['external-mutation-revert', 'unknown'],
      loopMaxGapSeconds: 600,
    });
  });

  it.each([
    [{ LOOKBACK: '90m' }, { lookbackSeconds: 5400 }],
    [{ CONTEXT: '0' }, { contextSeconds: 0 }],
    [
      { FINDINGS_SETTLE: '0', FINDINGS_PREFIX: 'athena/' },
      { findings: { prefix: 'athena/', settleSeconds: 0 } },
    ],
    [{ FINDINGS_SETTLE: '30m' }, { findings: { settleSeconds: 1800 } }],
    [
      { REPORT_LINK: 'presigned', REPORT_URL_EXPIRES: '2h' },
      { reportLink: { mode: 'presigned', expiresSeconds: 7200 } },
    ],
    [
      {
        REPORT_LINK: 'function',
        REPORT_LINK_URL: 'https://abc123.lambda-url.eu-west-1.on.aws',
        REPORT_LINK_SECRET: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:links-AbCdEf',
        REPORT_URL_EXPIRES: '30d',
        REPORTS_PREFIX: '/audit/reports',
      },
      {
        reportLink: {
          mode: 'function',
          baseUrl: 'https://abc123.lambda-url.eu-west-1.on.aws/',
          secretId: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:links-AbCdEf',
          expiresSeconds: 30 * 86_400,
          reportsPrefix: 'audit/reports/',
        },
      },
    ],
    [
      { REPORT_LINK: 'function', REPORT_LINK_URL: 'https://x.on.aws/', REPORT_LINK_SECRET: 's' },
      { reportLink: { expiresSeconds: 7 * 86_400, reportsPrefix: 'reports/' } },
    ],
    [
      { REPORT_LINK: 'url', REPORT_BASE_URL: 'https://d111.cloudfront.net/audit' },
      { reportLink: { mode: 'url', baseUrl: 'https://d111.cloudfront.net/audit/' } },
    ],
    [
      {
        CHAT_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:chat',
        EKS_CLUSTER_ARNS:
          'prod=arn:aws:eks:eu-west-1:123456789012:cluster/prod-eks, dev=arn:aws:eks:eu-west-1:123456789012:cluster/dev',
        EVENT_BUS: 'default',
      },
      {
        chatTopicArn: 'arn:aws:sns:eu-west-1:123456789012:chat',
        eksClusterArns: {
          prod: 'arn:aws:eks:eu-west-1:123456789012:cluster/prod-eks',
          dev: 'arn:aws:eks:eu-west-1:123456789012:cluster/dev',
        },
        eventBus: 'default',
      },
    ],
    [{ LOOP_MAX_GAP: '5m' }, { analysis: { loopMaxGapSeconds: 300 }, alerts: { loopMaxGapSeconds: 300 } }],
    [
      { OPERATOR_USERS: 'system:serviceaccount:kafka:kafka-operator' },
      { analysis: { operatorUsers: ['system:serviceaccount:kafka:kafka-operator'] } },
    ],
  ])('analyze %j', (env, expected) =>
    expect(analyzeConfigFromEnv({ BUCKET: 'b', TOPIC_ARN: 't', ...env })).toMatchObject(expected),
  );

  it.each([
    [{ TOPIC_ARN: 't' }, /BUCKET/],
    [{ BUCKET: 'b' }, /TOPIC_ARN/],
    [{ BUCKET: 'b', TOPIC_ARN: 't', LOOKBACK: 'soon' }, /LOOKBACK must be a duration/],
    [{ BUCKET: 'b', TOPIC_ARN: 't', REPORT_LINK: 'http' }, /REPORT_LINK/],
    [{ BUCKET: 'b', TOPIC_ARN: 't', REPORT_LINK: 's3' }, /never s3:\/\/ URIs/],
    [{ BUCKET: 'b', TOPIC_ARN: 't', REPORT_LINK: 'url' }, /REPORT_BASE_URL/],
    [{ BUCKET: 'b', TOPIC_ARN: 't', REPORT_LINK: 'url', REPORT_BASE_URL: 'http://x.example' }, /https/],
    [{ BUCKET: 'b', TOPIC_ARN: 't', EKS_CLUSTER_ARNS: 'prod=arn:aws:s3:::b' }, /EKS_CLUSTER_ARNS/],
    [
      { BUCKET: 'b', TOPIC_ARN: 't', EKS_CLUSTER_ARN_PREFIX: 'arn:aws:eks:eu-west-1:123456789012:cluster' },
      /EKS_CLUSTER_ARN_PREFIX must be/,
    ],
    [{ BUCKET: 'b', TOPIC_ARN: 't', REPORT_LINK: 'presigned', REPORT_URL_EXPIRES: '8d' }, /7 days/],
    [
      { BUCKET: 'b', TOPIC_ARN: 't', REPORT_LINK: 'function', REPORT_LINK_SECRET: 's' },
      /needs REPORT_LINK_URL/,
    ],
    [
      { BUCKET: 'b', TOPIC_ARN: 't', REPORT_LINK: 'function', REPORT_LINK_URL: 'https://x.on.aws/' },
      /REPORT_LINK_SECRET is not set/,
    ],
    [
      {
        BUCKET: 'b',
        TOPIC_ARN: 't',
        REPORT_LINK: 'function',
        REPORT_LINK_URL: 'https://x.on.aws/',
        REPORT_LINK_SECRET: 's',
        REPORT_URL_EXPIRES: '401d',
      },
      /400 days/,
    ],
    [{ BUCKET: 'b', TOPIC_ARN: 't', ALERT_RECREATION_CLASSES: 'oops' }, /unknown class/],
    [{ BUCKET: 'b', TOPIC_ARN: 't', FINDINGS_SETTLE: 'later' }, /FINDINGS_SETTLE must be a duration/],
  ])('analyze refuses %j', (env, msg) => expect(() => analyzeConfigFromEnv(env)).toThrow(msg));

  it('dispatch: the bucket and the analysis queue required, clusters listed or all', () => {
    expect(dispatchConfigFromEnv({ BUCKET: 'b', ANALYSIS_QUEUE_URL: 'q' })).toEqual({
      bucket: 'b',
      layout: {
        logsPrefix: 'logs/',
        factsPrefix: 'facts/',
        reportsPrefix: 'reports/',
        statePrefix: 'state/',
        findingsPrefix: 'findings/',
      },
      clusters: [],
      queueUrl: 'q',
    });
    expect(
      dispatchConfigFromEnv({ BUCKET: 'b', ANALYSIS_QUEUE_URL: 'q', CLUSTERS: 'a, b' }).clusters,
    ).toEqual(['a', 'b']);
    expect(() => dispatchConfigFromEnv({ BUCKET: 'b' })).toThrow(/ANALYSIS_QUEUE_URL is not set/);
  });

  it('notify: the parameter name, a 15 min cache, five attempts', () => {
    expect(notifyConfigFromEnv({ SLACK_WEBHOOK_PARAMETER: '/p' })).toEqual({
      webhookParameter: '/p',
      secretTtlMs: 900_000,
      maxAttempts: 5,
      maxDelayMs: 20_000,
    });
    expect(() => notifyConfigFromEnv({})).toThrow(/SLACK_WEBHOOK_PARAMETER/);
  });

  it('report link: the bucket, the reports prefix (normalised), the secret; redirects valid 5 min', () => {
    expect(reportLinkFunctionConfigFromEnv({ BUCKET: 'b', REPORT_LINK_SECRET: 'arn:s' })).toEqual({
      bucket: 'b',
      reportsPrefix: 'reports/',
      secretId: 'arn:s',
      redirectSeconds: 300,
      secretTtlMs: 900_000,
    });
    expect(
      reportLinkFunctionConfigFromEnv({ BUCKET: 'b', REPORT_LINK_SECRET: 's', REPORTS_PREFIX: 'r' })
        .reportsPrefix,
    ).toBe('r/');
    expect(() => reportLinkFunctionConfigFromEnv({ BUCKET: 'b' })).toThrow(/REPORT_LINK_SECRET is not set/);
    expect(() => reportLinkFunctionConfigFromEnv({ REPORT_LINK_SECRET: 's' })).toThrow(/BUCKET is not set/);
  });
});
