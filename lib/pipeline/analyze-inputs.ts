// The whole local pipeline, one direction: sources → ingest → facts → analysis → document.
// The same facts type is what the Lambda ingest writes to S3; here it stays in memory.
import { pipeline, Transform } from 'stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { analyzeFacts } from '../analyze';
import { findFights } from '../fights';
import type { AnalysisOptions } from '../analyze/options';
import { projectRecord } from '../facts/project';
import { FactStore } from '../facts/store';
import { ingest, type IngestOptions } from '../ingest';
import { createIngestStats, type IngestStats } from '../ingest/stats';
import type { FindingsDocument } from '../model/findings';
import type { SourceObject } from '../sources/types';
import { clusterForInput, type ClusterPrefix } from '../config/config-file';
import { compareTimes } from '../analyze/time';
import { listLocal } from '../sources/local';

export interface Progress {
  update(bytesRead: number, records: number): void;
  done(): void;
}

export interface AnalyzeInputsDeps {
  /** Made on first use of an s3:// input, so local runs never load the AWS SDK at all. */
  s3Client?: () => Promise<S3Client>;
  /** Called with the bytes the listing holds; returns where to report bytes read and records. */
  progress?: (totalBytes: number) => Progress;
}

export async function* listInputs(inputs: string[], deps: AnalyzeInputsDeps): AsyncGenerator<SourceObject> {
  for (const input of inputs) {
    if (input.startsWith('s3://')) {
      if (!deps.s3Client) throw new Error(`no S3 client to read ${input}`);
      // Loaded on demand: the SDK's start-up cost is a tenth of a second on every local run.
      const { listS3 } = await import('../aws/s3-source');
      yield* listS3(await deps.s3Client(), input);
    } else {
      yield* listLocal(input);
    }
  }
}

export async function collectFacts(
  objects: AsyncIterable<SourceObject>,
  stats: IngestStats,
  ingestOpts: IngestOptions = {},
  onRecords?: (records: number) => void,
): Promise<FactStore> {
  // Held as columns, not objects: a day of a looping fleet is millions of facts.
  const facts = new FactStore();
  let records = 0;
  for await (const rec of ingest(objects, stats, ingestOpts)) {
    records++;
    if (onRecords && (records & 1023) === 0) onRecords(records);
    const fact = projectRecord(rec);
    if (fact) facts.add(fact);
  }
  facts.seal();
  onRecords?.(records);
  return facts;
}

/** The objects with their streams counted, so a progress bar can show stored bytes read. */
function countingBytes(objects: SourceObject[]): {
  objects: AsyncIterable<SourceObject>;
  bytesRead: () => number;
} {
  let bytes = 0;
  async function* wrapped(): AsyncGenerator<SourceObject> {
    for (const o of objects) {
      yield {
        ...o,
        open: async () => {
          const counter = new Transform({
            transform(chunk: Buffer, _enc, done) {
              bytes += chunk.length;
              done(null, chunk);
            },
          });
          // pipeline, not pipe: a read error of the source must reach the reader.
          pipeline(await o.open(), counter, () => undefined);
          return counter;
        },
      };
    }
  }
  return { objects: wrapped(), bytesRead: () => bytes };
}

export async function analyzeInputs(
  inputs: string[],
  opts: AnalysisOptions,
  ingestOpts: IngestOptions,
  deps: AnalyzeInputsDeps = {},
): Promise<FindingsDocument> {
  const stats = createIngestStats();
  const started = Date.now();
  let objects: AsyncIterable<SourceObject> = listInputs(inputs, deps);
  let progress: Progress | undefined;
  let onRecords: ((records: number) => void) | undefined;
  if (deps.progress) {
    // Listing first gives the total for the bar; listings are small next to the data.
    const listed: SourceObject[] = [];
    for await (const o of objects) listed.push(o);
    const bar = deps.progress(listed.reduce((a, o) => a + (o.size ?? 0), 0));
    const counted = countingBytes(listed);
    objects = counted.objects;
    onRecords = (n) => bar.update(counted.bytesRead(), n);
    progress = bar;
  }
  const facts = await collectFacts(objects, stats, ingestOpts, onRecords);
  progress?.done();
  const result = analyzeFacts(facts, opts);
  const fights = findFights(facts, opts);
  return {
    recreations: result.recreations,
    loops: result.loops,
    fights,
    summary: {
      inputs,
      ...stats,
      facts: facts.size,
      recreations: result.recreations.length,
      loops: result.loops.length,
      fights: fights.length,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    },
  };
}

/**
 * Inputs from different Kubernetes clusters are analysed apart: the same namespace,
 * KafkaCluster and broker id can exist in two clusters, and their pods must never pair.
 * Inputs no configured prefix claims form one more group. The summary keeps each
 * cluster's own counts.
 */
export async function analyzeByCluster(
  inputs: string[],
  clusters: ClusterPrefix[] | undefined,
  opts: AnalysisOptions,
  ingestOpts: IngestOptions,
  deps: AnalyzeInputsDeps = {},
): Promise<FindingsDocument> {
  const groups = new Map<string, string[]>();
  for (const input of inputs) {
    const name = clusterForInput(input, clusters) ?? '';
    groups.set(name, [...(groups.get(name) ?? []), input]);
  }
  if (groups.size <= 1 && !clusters?.length) return analyzeInputs(inputs, opts, ingestOpts, deps);
  const docs: Array<[string, FindingsDocument]> = [];
  for (const [name, group] of groups) docs.push([name, await analyzeInputs(group, opts, ingestOpts, deps)]);
  const byTime = (a: string, b: string) => compareTimes(a, b);
  return {
    recreations: docs
      .flatMap(([, d]) => d.recreations)
      .sort((a, b) => byTime(a.deletedPod.deletedAt, b.deletedPod.deletedAt)),
    loops: docs.flatMap(([, d]) => d.loops).sort((a, b) => byTime(a.firstAt, b.firstAt)),
    fights: docs.flatMap(([, d]) => d.fights ?? []).sort((a, b) => byTime(a.firstAt, b.firstAt)),
    summary: {
      inputs,
      recreations: docs.reduce((n, [, d]) => n + d.recreations.length, 0),
      loops: docs.reduce((n, [, d]) => n + d.loops.length, 0),
      fights: docs.reduce((n, [, d]) => n + (d.fights?.length ?? 0), 0),
      clusters: Object.fromEntries(docs.map(([name, d]) => [name || '(unassigned)', d.summary])),
    },
  };
}
