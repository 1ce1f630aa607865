// The whole local pipeline, one direction: sources → ingest → facts → analysis → document.
// The same facts type is what the Lambda ingest writes to S3; here it stays in memory.
import type { S3Client } from '@aws-sdk/client-s3';
import { analyzeFacts } from '../analyze';
import type { AnalysisOptions } from '../analyze/options';
import { projectRecord } from '../facts/project';
import { ingest, type IngestOptions } from '../ingest';
import { createIngestStats, type IngestStats } from '../ingest/stats';
import type { Fact } from '../model/facts';
import type { FindingsDocument } from '../model/findings';
import type { SourceObject } from '../sources/types';
import { listLocal } from '../sources/local';
import { listS3, parseS3Uri } from '../aws/s3-source';

export interface Progress {
  update(bytesRead: number, records: number): void;
  done(): void;
}

export interface AnalyzeInputsDeps {
  /** Made on first use of an s3:// input, so local runs never touch the AWS SDK's config chain. */
  s3Client?: () => S3Client;
  progress?: Progress;
}

export async function* listInputs(inputs: string[], deps: AnalyzeInputsDeps): AsyncGenerator<SourceObject> {
  for (const input of inputs) {
    if (parseS3Uri(input)) {
      if (!deps.s3Client) throw new Error(`no S3 client to read ${input}`);
      yield* listS3(deps.s3Client(), input);
    } else {
      yield* listLocal(input);
    }
  }
}

export async function collectFacts(
  objects: AsyncIterable<SourceObject>,
  stats: IngestStats,
  ingestOpts: IngestOptions = {},
): Promise<Fact[]> {
  const facts: Fact[] = [];
  for await (const rec of ingest(objects, stats, ingestOpts)) {
    const fact = projectRecord(rec);
    if (fact) facts.push(fact);
  }
  return facts;
}

export async function analyzeInputs(
  inputs: string[],
  opts: AnalysisOptions,
  ingestOpts: IngestOptions,
  deps: AnalyzeInputsDeps = {},
): Promise<FindingsDocument> {
  const stats = createIngestStats();
  const started = Date.now();
  const facts = await collectFacts(listInputs(inputs, deps), stats, ingestOpts);
  deps.progress?.done();
  const result = analyzeFacts(facts, opts);
  return {
    recreations: result.recreations,
    loops: result.loops,
    summary: {
      inputs,
      ...stats,
      facts: facts.length,
      recreations: result.recreations.length,
      loops: result.loops.length,
      seconds: Math.round((Date.now() - started) / 100) / 10,
    },
  };
}
