// The Athena findings history in S3: per cluster, one JSON-lines object per settled hour
// (findingsHistoryKey in bucket-layout.ts: Hive-style, read by the Glue table of
// infra/athena.yml through partition projection).
// An hour is written once, by the first run that sees it whole and settled; the key is a
// function of the cluster and the hour, so a retried or racing run rewrites the same
// object instead of adding a copy, and queries never see a finding twice. Which hours are
// done is kept beside the alert state (findingsHistoryStateKey).
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { encodeRow, rowsForHour, settledHours, type HourFindings } from '../history/findings-rows';
import type { Loop } from '../model/findings';
import { findingsHistoryKey, findingsHistoryStateKey } from './bucket-layout';
import { explainDeniedRead, isMissingKey } from './s3-missing-key';

export interface HistoryWritten {
  hours: string[];
  keys: string[];
  rows: number;
}

async function readWrittenThrough(s3: S3Client, bucket: string, key: string): Promise<string | null> {
  try {
    const res = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const v = JSON.parse((await res.Body?.transformToString('utf8')) ?? '{}') as { writtenThrough?: unknown };
    return typeof v.writtenThrough === 'string' && /^\d{4}-\d{2}-\d{2}-\d{2}$/.test(v.writtenThrough)
      ? v.writtenThrough
      : null;
  } catch (e) {
    if (isMissingKey(e)) return null;
    throw explainDeniedRead(e, bucket, key);
  }
}

export async function writeFindingsHistory(
  s3: S3Client,
  opts: {
    bucket: string;
    prefix: string;
    statePrefix: string;
    cluster: string;
    window: { from: string; to: string };
    settleSeconds: number;
    loopStartedAt: (loop: Loop) => string;
    autoscalerUsers?: readonly string[];
  },
  findings: HourFindings,
): Promise<HistoryWritten> {
  const stateKey = findingsHistoryStateKey({ statePrefix: opts.statePrefix }, opts.cluster);
  const hours = settledHours(
    opts.window,
    opts.settleSeconds,
    await readWrittenThrough(s3, opts.bucket, stateKey),
  );
  const out: HistoryWritten = { hours, keys: [], rows: 0 };
  if (hours.length === 0) return out;
  for (const hour of hours) {
    const rows = rowsForHour(findings, {
      cluster: opts.cluster,
      hour,
      runAt: opts.window.to,
      loopStartedAt: opts.loopStartedAt,
      autoscalerUsers: opts.autoscalerUsers,
    });
    // An hour without findings leaves no object: Athena reads fewer files, and the state says it is done.
    if (rows.length === 0) continue;
    const key = findingsHistoryKey({ findingsPrefix: opts.prefix }, opts.cluster, hour);
    await s3.send(
      new PutObjectCommand({
        Bucket: opts.bucket,
        Key: key,
        Body: rows.map(encodeRow).join('\n') + '\n',
        ContentType: 'application/x-ndjson',
      }),
    );
    out.keys.push(key);
    out.rows += rows.length;
  }
  await s3.send(
    new PutObjectCommand({
      Bucket: opts.bucket,
      Key: stateKey,
      Body: JSON.stringify({ writtenThrough: hours[hours.length - 1] }),
      ContentType: 'application/json',
    }),
  );
  return out;
}
