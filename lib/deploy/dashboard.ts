// The deployment's CloudWatch dashboard, built at package time (infra/dashboard.cjs): what
// reaches the pipeline, how long an alert takes, how the analysis keeps up, and what fails.
// Pure: the body as CloudWatch's dashboard JSON, with `${AWS::Region}` left for Fn::Sub.
import { METRIC, METRICS_NAMESPACE } from '../aws/observability';

export interface DashboardNames {
  service: string;
  stage: string;
  /** Whether the Slack notifier is deployed (slackWebhookParameter is not `none`): graph it only then. */
  slack: boolean;
}

type MetricRow = Array<string | Record<string, unknown>>;

interface Widget {
  type: 'metric';
  x: number;
  y: number;
  width: number;
  height: number;
  properties: Record<string, unknown>;
}

const REGION = '${AWS::Region}';
const PERIOD = 300;

/** The functions whose errors the dashboard shows, by their key in serverless.yml. */
const ALWAYS_DEPLOYED = ['ingest', 'analyze', 'dispatchAnalysis'];

export function dashboardBody(names: DashboardNames): { widgets: Widget[] } {
  const service = `${names.service}-${names.stage}`;
  const fn = (key: string): string => `${service}-${key}`;
  const custom = (metric: string, dims: string[], render: Record<string, unknown>): MetricRow => [
    METRICS_NAMESPACE,
    metric,
    'service',
    service,
    ...dims,
    render,
  ];
  // Metrics with a dimension whose values only the data knows (clusters, events, reasons).
  const search = (metric: string, dim: string, stat: string, id: string): MetricRow => [
    {
      expression: `SEARCH('{${METRICS_NAMESPACE},${dim},service} MetricName="${metric}" service="${service}"', '${stat}', ${PERIOD})`,
      id,
    },
  ];
  const graph = (
    title: string,
    metrics: MetricRow[],
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> => ({
    title,
    view: 'timeSeries',
    region: REGION,
    period: PERIOD,
    metrics,
    ...extra,
  });
  const rows: Array<Record<string, unknown>> = [
    graph('Audit records ingested, facts written', [
      custom(METRIC.recordsIngested, [], { stat: 'Sum', label: 'records' }),
      custom(METRIC.factsWritten, [], { stat: 'Sum', label: 'facts' }),
    ]),
    graph('Seconds from the audit event to its alert, by event', [
      search(METRIC.alertDelay, 'event', 'Maximum', 'delay'),
    ]),
    graph(
      'Analysis duration (ms)',
      [
        ['AWS/Lambda', 'Duration', 'FunctionName', fn('analyze'), { stat: 'Maximum', label: 'max' }],
        ['AWS/Lambda', 'Duration', 'FunctionName', fn('analyze'), { stat: 'p50', label: 'median' }],
      ],
      { annotations: { horizontal: [{ label: 'analysis-duration alarm', value: 192000 }] } },
    ),
    graph('Alerts published, by event', [search(METRIC.alertsPublished, 'event', 'Sum', 'alerts')]),
    graph('Active loops, by cluster', [search(METRIC.activeLoops, 'cluster', 'Maximum', 'loops')]),
    graph(
      'Function errors',
      [...ALWAYS_DEPLOYED, ...(names.slack ? ['notifySlack'] : [])].map((key) => [
        'AWS/Lambda',
        'Errors',
        'FunctionName',
        fn(key),
        { stat: 'Sum', label: key },
      ]),
    ),
    graph('Oldest message in each queue (s)', [
      [
        'AWS/SQS',
        'ApproximateAgeOfOldestMessage',
        'QueueName',
        fn('ingest'),
        { stat: 'Maximum', label: 'ingest' },
      ],
      [
        'AWS/SQS',
        'ApproximateAgeOfOldestMessage',
        'QueueName',
        fn('analysis.fifo'),
        { stat: 'Maximum', label: 'analysis' },
      ],
    ]),
    graph('Memory used (% of memory size)', [
      custom(METRIC.memoryUsedPercent, ['function', 'analyze'], { stat: 'Maximum', label: 'analyze' }),
      custom(METRIC.memoryUsedPercent, ['function', 'ingest'], { stat: 'Maximum', label: 'ingest' }),
    ]),
    graph('Records skipped, by reason', [search(METRIC.recordsSkipped, 'reason', 'Sum', 'skipped')]),
    graph('Analyses skipped as stale', [
      custom(METRIC.staleAnalysesSkipped, [], { stat: 'Sum', label: 'skipped' }),
    ]),
  ];
  // Two graphs a row, each half of the dashboard's 24 columns.
  return {
    widgets: rows.map((properties, i) => ({
      type: 'metric',
      x: (i % 2) * 12,
      y: Math.floor(i / 2) * 6,
      width: 12,
      height: 6,
      properties,
    })),
  };
}
