// Each function's settings, read once from its environment (serverless.yml fills it
// from stage params). Pure: the tests and the local pipeline hand in their own maps.
import { defaultAnalysisOptions, type AnalysisOptions } from '../analyze/options';
import { alertOptionsFromEnv } from '../alerts/options';
import type { AlertOptions } from '../alerts/types';
import { parseDurationSeconds } from '../config/duration';
import { defaultLayout, normalisePrefix, type BucketLayout } from './bucket-layout';
import { parseEksClusterArns } from '../notify/chat';
import { namedOperatorLogGroups } from '../deploy/eks-operator-logs';

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function required(env: Env, name: string): string {
  const v = env[name];
  if (v === undefined || v === '') throw new ConfigError(`${name} is not set`);
  return v;
}

function duration(env: Env, name: string, fallbackSeconds: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallbackSeconds;
  const s = parseDurationSeconds(v);
  if (s === null || s <= 0)
    throw new ConfigError(`${name} must be a duration like 6h, 90m or 3600, got ${v}`);
  return s;
}

function positiveInt(env: Env, name: string, fallback: number): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer, got ${v}`);
  return n;
}

function list(env: Env, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** The bucket layout's prefixes, as the stage params set them (serverless.yml), else the defaults. */
export function layoutFromEnv(env: Env): BucketLayout {
  const d = defaultLayout();
  return {
    logsPrefix: env.LOGS_PREFIX || d.logsPrefix,
    factsPrefix: env.FACTS_PREFIX || d.factsPrefix,
    reportsPrefix: env.REPORTS_PREFIX || d.reportsPrefix,
    statePrefix: env.STATE_PREFIX || d.statePrefix,
    findingsPrefix: env.FINDINGS_PREFIX || d.findingsPrefix,
  };
}

export interface IngestConfig {
  /** Where facts are written (the logs bucket unless FACTS_BUCKET says otherwise). */
  factsBucket: string;
  layout: BucketLayout;
  /** Cluster of logs not under `<logs prefix>/<cluster>/`. */
  defaultCluster: string;
  maxLineBytes?: number;
  /**
   * Where facts holding evidence (lib/alerts/evidence.ts) ask for their cluster's analysis at
   * once; null without ANALYSIS_QUEUE_URL (the schedule alone then analyses).
   */
  trigger: AnalysisTriggerConfig | null;
  /**
   * EKS_OPERATOR_LOGS (the eksOperatorLogs param): its `<cluster>=<group>` pairs, group to
   * cluster; Container Insights' default groups name their cluster themselves.
   */
  operatorLogGroups: ReadonlyMap<string, string>;
}

export interface AnalysisTriggerConfig {
  /** The FIFO analysis queue the analyze function consumes. */
  queueUrl: string;
  /** Evidence older than this (by the clock) asks for nothing: a backfill or a late object. */
  maxAgeSeconds: number;
  /** OPERATOR_USERS: only their broker pod deletes count; empty: anyone's but Kubernetes' own. */
  operatorUsers: string[];
}

function operatorLogGroupsOf(env: Env): Map<string, string> {
  try {
    return namedOperatorLogGroups(env.EKS_OPERATOR_LOGS ?? '');
  } catch (e) {
    throw new ConfigError(`EKS_OPERATOR_LOGS: ${(e as Error).message}`);
  }
}

export function ingestConfigFromEnv(env: Env): IngestConfig {
  const maxLine = env.MAX_LINE_BYTES ? positiveInt(env, 'MAX_LINE_BYTES', 1) : undefined;
  const queueUrl = env.ANALYSIS_QUEUE_URL ?? '';
  return {
    factsBucket: env.FACTS_BUCKET || required(env, 'BUCKET'),
    layout: layoutFromEnv(env),
    defaultCluster: env.DEFAULT_CLUSTER || 'default',
    ...(maxLine !== undefined ? { maxLineBytes: maxLine } : {}),
    operatorLogGroups: operatorLogGroupsOf(env),
    trigger:
      queueUrl === ''
        ? null
        : {
            queueUrl,
            // The analysis skips a request that waited this long; older evidence is the schedule's.
            maxAgeSeconds: duration(env, 'ANALYSIS_MAX_AGE', 900),
            operatorUsers: list(env, 'OPERATOR_USERS'),
          },
  };
}

export interface AnalyzeConfig {
  bucket: string;
  topicArn: string;
  layout: BucketLayout;
  lookbackSeconds: number;
  /** Facts read before the window so pods created earlier have their create; never reported on. */
  contextSeconds: number;
  analysis: AnalysisOptions;
  alerts: AlertOptions;
  reportLink: ReportLinkConfig;
  /** The chat topic (Amazon Q Developer in chat applications, email); empty: none. */
  chatTopicArn: string;
  eksClusterArns: Record<string, string>;
  /** The stack's EKS cluster ARN prefix when it ships EKS clusters (lib/aws/alert-sinks.ts); empty: none derived. */
  eksClusterArnPrefix: string;
  /** EventBridge bus for the alerts; empty: none. */
  eventBus: string;
  /** The Athena findings history: its prefix, and how long after its end an hour is written. */
  findings: { prefix: string; settleSeconds: number };
}

/**
 * How people reach a report: the stack's report-link function (`baseUrl` + a token signed
 * with the link secret `secretId`, valid exactly `expiresSeconds`: the function answers
 * with a fresh pre-signed URL), a pre-signed S3 URL (valid for `expiresSeconds`, or less if
 * the signing credentials expire first), or `baseUrl` + the report's key (a CloudFront
 * distribution or any HTTPS front of the reports prefix; links that do not expire).
 */
export type ReportLinkConfig =
  | {
      mode: 'function';
      baseUrl: string;
      secretId: string;
      expiresSeconds: number;
      /** Normalised ('' or 'a/b/'): tokens carry report keys relative to it. */
      reportsPrefix: string;
    }
  | { mode: 'presigned'; expiresSeconds: number }
  | { mode: 'url'; baseUrl: string };

export function analyzeConfigFromEnv(env: Env): AnalyzeConfig {
  const analysis = defaultAnalysisOptions();
  analysis.loopMinCount = positiveInt(env, 'LOOP_MIN_COUNT', analysis.loopMinCount);
  analysis.loopMaxGapSeconds = duration(env, 'LOOP_MAX_GAP', analysis.loopMaxGapSeconds);
  const users = list(env, 'OPERATOR_USERS');
  if (users.length > 0) analysis.operatorUsers = users;
  const autoscalers = list(env, 'AUTOSCALER_USERS');
  if (autoscalers.length > 0) analysis.autoscalerUsers = autoscalers;
  const alerts = alertOptionsFromEnv({ ...env, LOOP_MAX_GAP_SECONDS: String(analysis.loopMaxGapSeconds) });
  let eksClusterArns: Record<string, string>;
  try {
    eksClusterArns = parseEksClusterArns(env.EKS_CLUSTER_ARNS ?? '');
  } catch (e) {
    throw new ConfigError((e as Error).message);
  }
  const eksClusterArnPrefix = env.EKS_CLUSTER_ARN_PREFIX ?? '';
  if (
    eksClusterArnPrefix !== '' &&
    !/^arn:aws[a-z-]*:eks:[a-z0-9-]+:\d{12}:cluster\/$/.test(eksClusterArnPrefix)
  )
    throw new ConfigError(
      `EKS_CLUSTER_ARN_PREFIX must be arn:<partition>:eks:<region>:<account>:cluster/, got ${JSON.stringify(eksClusterArnPrefix)}`,
    );
  const bucketLayout = layoutFromEnv(env);
  return {
    bucket: required(env, 'BUCKET'),
    topicArn: required(env, 'TOPIC_ARN'),
    layout: bucketLayout,
    lookbackSeconds: duration(env, 'LOOKBACK', 6 * 3600),
    contextSeconds: env.CONTEXT === '0' ? 0 : duration(env, 'CONTEXT', 3600),
    analysis,
    alerts,
    reportLink: reportLinkFromEnv(env),
    chatTopicArn: env.CHAT_TOPIC_ARN ?? '',
    eksClusterArns,
    eksClusterArnPrefix,
    eventBus: env.EVENT_BUS ?? '',
    findings: {
      prefix: bucketLayout.findingsPrefix,
      settleSeconds: env.FINDINGS_SETTLE === '0' ? 0 : duration(env, 'FINDINGS_SETTLE', 3600),
    },
  };
}

const HTTPS_BASE = /^https:\/\/[^/?#\s]+(\/[^?#\s]*)?$/;
const withSlash = (base: string): string => (base.endsWith('/') ? base : base + '/');

function reportLinkFromEnv(env: Env): ReportLinkConfig {
  const mode = env.REPORT_LINK || 'presigned';
  if (mode === 'url') {
    const base = env.REPORT_BASE_URL ?? '';
    if (!HTTPS_BASE.test(base))
      throw new ConfigError(
        `REPORT_LINK=url needs REPORT_BASE_URL, an https:// URL without query, got "${base}"`,
      );
    return { mode, baseUrl: withSlash(base) };
  }
  if (mode === 'function') {
    const base = env.REPORT_LINK_URL ?? '';
    if (!HTTPS_BASE.test(base))
      throw new ConfigError(
        `REPORT_LINK=function needs REPORT_LINK_URL, the report-link function's https:// URL, got "${base}"`,
      );
    // As serverless.yml's default: an alert from Friday evening still opens on Monday. The
    // token's expiry is a uint32 of seconds; the reports' own retention is the real bound.
    const expires = duration(env, 'REPORT_URL_EXPIRES', 7 * 24 * 3600);
    if (expires > 400 * 24 * 3600) throw new ConfigError('REPORT_URL_EXPIRES cannot exceed 400 days');
    return {
      mode,
      baseUrl: withSlash(base),
      secretId: required(env, 'REPORT_LINK_SECRET'),
      expiresSeconds: Math.floor(expires),
      reportsPrefix: normalisePrefix(layoutFromEnv(env).reportsPrefix),
    };
  }
  if (mode !== 'presigned')
    throw new ConfigError(
      `REPORT_LINK must be function, presigned or url (people get clickable HTTPS links, never s3:// URIs), got ${mode}`,
    );
  const expires = duration(env, 'REPORT_URL_EXPIRES', 24 * 3600);
  if (expires > 7 * 24 * 3600) throw new ConfigError('REPORT_URL_EXPIRES cannot exceed 7 days (SigV4 limit)');
  return { mode, expiresSeconds: expires };
}

export interface ReportLinkFunctionConfig {
  bucket: string;
  /** Tokens name keys under this prefix only: no link reaches facts, state or logs. */
  reportsPrefix: string;
  /** The link secret (Secrets Manager id or ARN). */
  secretId: string;
  /** How long the pre-signed URL the function redirects to is valid: it is followed at once. */
  redirectSeconds: number;
  /** How long a read of the secret is reused before it is read again (a rotation shows after it). */
  secretTtlMs: number;
}

export function reportLinkFunctionConfigFromEnv(env: Env): ReportLinkFunctionConfig {
  return {
    bucket: required(env, 'BUCKET'),
    reportsPrefix: normalisePrefix(layoutFromEnv(env).reportsPrefix),
    secretId: required(env, 'REPORT_LINK_SECRET'),
    redirectSeconds: duration(env, 'REDIRECT_EXPIRES', 300),
    secretTtlMs: duration(env, 'SECRET_TTL', 900) * 1000,
  };
}

export interface NotifyConfig {
  webhookParameter: string;
  secretTtlMs: number;
  maxAttempts: number;
  maxDelayMs: number;
}

export function notifyConfigFromEnv(env: Env): NotifyConfig {
  return {
    webhookParameter: required(env, 'SLACK_WEBHOOK_PARAMETER'),
    secretTtlMs: duration(env, 'SECRET_TTL', 900) * 1000,
    maxAttempts: positiveInt(env, 'SLACK_MAX_ATTEMPTS', 5),
    maxDelayMs: duration(env, 'SLACK_MAX_DELAY', 20) * 1000,
  };
}

export interface DispatchConfig {
  bucket: string;
  layout: BucketLayout;
  /** Dispatch only these clusters; empty: every cluster with facts. */
  clusters: string[];
  /** The FIFO analysis queue the analyze function consumes. */
  queueUrl: string;
}

export function dispatchConfigFromEnv(env: Env): DispatchConfig {
  return {
    bucket: required(env, 'BUCKET'),
    layout: layoutFromEnv(env),
    clusters: list(env, 'CLUSTERS'),
    queueUrl: required(env, 'ANALYSIS_QUEUE_URL'),
  };
}
