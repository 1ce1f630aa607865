// A run that reads through the window snapshot (lib/aws/facts-snapshot.ts) against a run
// that reads the whole window, delivery after delivery: the simulator's matrix and the
// shared corpora, cut into source objects that arrive out of order, late, twice, once more
// under another source (an EKS export of the same events), and across an hour boundary,
// then a run hours later whose window has left the first hour behind. Two chains of
// analysis runs, each with its own bucket and alert state, see the same deliveries: one keeps
// its snapshot, the other loses it before every run (the full read, as before the snapshot).
// After each delivery both write byte-identical reports (but for what they say about reading)
// and publish the same alert events. Over a Map (test/support/memory-s3.ts) for the matrix,
// and once over the wire on fauxqs.
import { createHash } from 'crypto';
import { S3Client } from '@aws-sdk/client-s3';
import type { SNSClient } from '@aws-sdk/client-sns';
import { analyzeCluster, type ClusterRun } from '../../lib/aws/analyze-run';
import { factsSnapshotKey, reportKey, sourceDigest } from '../../lib/aws/bucket-layout';
import { analyzeConfigFromEnv, type AnalyzeConfig } from '../../lib/aws/env-config';
import { writeFacts } from '../../lib/aws/facts-store';
import { hourOf } from '../../lib/facts/partition';
import { createIngestStats } from '../../lib/ingest';
import type { Fact } from '../../lib/model/facts';
import { collectFacts, listInputs } from '../../lib/pipeline/analyze-inputs';
import { simulateCluster } from '../../sim';
import { startFauxqs, type Fauxqs } from '../support/fauxqs';
import { memoryS3 } from '../support/memory-s3';
import { describeWithCorpus, DRIFT, FIGHTS, SCENARIOS } from '../support/shared-corpus';
import { simulatedFacts } from '../support/sim-facts';
import { DeleteObjectCommand, CreateBucketCommand, GetObjectCommand } from '@aws-sdk/client-s3';

jest.setTimeout(60_000);

const CLUSTER = 'eks-a';

/** One chain of runs: its bucket (its facts, snapshot, alert state and reports). */
interface Chain {
  s3: S3Client;
  config: AnalyzeConfig;
}

const chain = (s3: S3Client, bucket: string): Chain => ({
  s3,
  config: analyzeConfigFromEnv({
    BUCKET: bucket,
    TOPIC_ARN: 'arn:aws:sns:us-east-1:123456789012:alerts',
    CLUSTERS: CLUSTER,
    REPORT_LINK: 'url',
    REPORT_BASE_URL: 'https://reports.example/',
  }),
});

/** SNS that takes every publish. */
const sns = { send: async () => ({ MessageId: 'm' }) } as unknown as SNSClient;

interface Source {
  key: string;
  etag: string;
  facts: Fact[];
}

/**
 * The deliveries: the facts cut by time into six source objects, delivered 0, 1 and 3 (2 is
 * late); then 2, a copy of 0 and 1 under another source (an export of the same events, whose
 * facts keys sort before theirs: the full read keeps the copy's `src`, so must a run holding
 * 0 and 1 in its snapshot), and 1 again; then 4 and 5; then nothing new, at a time whose window starts past
 * the first facts' hour.
 */
function deliveries(all: readonly Fact[]): { sources: Source[]; now: Date }[] {
  const facts = [...all].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const cut = (i: number) =>
    facts.slice(Math.floor((facts.length * i) / 6), Math.floor((facts.length * (i + 1)) / 6));
  const source = (i: number): Source => ({
    key: `logs/${CLUSTER}/part-${i}.gz`,
    etag: `e${i}`,
    facts: cut(i),
  });
  // A copy of 0 and 1 whose facts sort before theirs in every hour (keys end in the source's digest).
  const exportKey = `logs/${CLUSTER}/export-0-1.gz`;
  let n = 0;
  while (
    sourceDigest(exportKey, `x${n}`) >=
    [0, 1].map((i) => sourceDigest(source(i).key, source(i).etag)).sort()[0]!
  )
    n++;
  const exported: Source = {
    key: exportKey,
    etag: `x${n}`,
    facts: [...cut(0), ...cut(1)].map((f) => ({ ...f, src: { source: 'export', line: f.src.line } })),
  };
  const newest = (sources: Source[]) =>
    Math.max(...sources.flatMap((s) => s.facts.map((f) => Date.parse(f.at))).filter(Number.isFinite));
  const steps: Source[][] = [
    [source(0), source(1), source(3)],
    [source(2), exported, source(1)],
    [source(4), source(5)],
  ];
  const seen: Source[] = [];
  const out = steps.map((sources) => {
    seen.push(...sources);
    return { sources, now: new Date(newest(seen) + 30_000) };
  });
  // The window (6 h and 1 h of context) starts in the hour after the first fact's.
  const first = Date.parse(facts.find((f) => Number.isFinite(Date.parse(f.at)))!.at);
  const later = Math.max(
    Math.ceil(first / 3_600_000) * 3_600_000 + 7 * 3_600_000 + 60_000,
    newest(seen) + 60_000,
  );
  out.push({ sources: [], now: new Date(later) });
  return out;
}

const digest = (v: unknown) => createHash('sha256').update(JSON.stringify(v)).digest('hex');

/** The report as written: its summary, and its digest but for what it says about reading. */
async function reportOf(
  { s3, config }: Chain,
  now: Date,
): Promise<{ digest: string; summary: Record<string, unknown> }> {
  const res = await s3.send(
    new GetObjectCommand({ Bucket: config.bucket, Key: reportKey(config.layout, CLUSTER, now) }),
  );
  const doc = JSON.parse(await res.Body!.transformToString('utf8')) as { summary: Record<string, unknown> };
  const { factsFetched: _f, factsSnapshot: _s, ...summary } = doc.summary;
  return { digest: digest({ ...doc, summary }), summary: doc.summary };
}

interface Compared {
  steps: number;
  /** Per step: facts objects in the window, and those the snapshot chain fetched. */
  objects: number[];
  fetched: number[];
  snapshotFound: string[];
  events: number;
}

async function compareChains(incremental: Chain, full: Chain, all: readonly Fact[]): Promise<Compared> {
  const out: Compared = { steps: 0, objects: [], fetched: [], snapshotFound: [], events: 0 };
  for (const { sources, now } of deliveries(all)) {
    for (const { s3, config } of [incremental, full])
      for (const src of sources)
        await writeFacts(
          s3,
          config.bucket,
          config.layout,
          { cluster: CLUSTER, bucket: 'logs', key: src.key, etag: src.etag },
          src.facts,
        );
    await full.s3.send(
      new DeleteObjectCommand({
        Bucket: full.config.bucket,
        Key: factsSnapshotKey(full.config.layout, CLUSTER),
      }),
    );
    const runs: ClusterRun[] = [];
    for (const c of [incremental, full]) runs.push(await analyzeCluster({ ...c, sns }, CLUSTER, now));
    const [inc, whole] = runs as [ClusterRun, ClusterRun];
    expect([inc.error, whole.error]).toEqual([undefined, undefined]);
    const [a, b] = [await reportOf(incremental, now), await reportOf(full, now)];
    expect(a.digest).toBe(b.digest);
    expect(inc.published).toEqual(whole.published);
    const read = a.summary as { factsFetched: { objects: number }; factsSnapshot: { found: string } };
    expect((b.summary as typeof read).factsSnapshot.found).toBe('absent');
    out.steps++;
    out.objects.push(inc.factsObjects);
    out.fetched.push(read.factsFetched.objects);
    out.snapshotFound.push(read.factsSnapshot.found);
    out.events += inc.published.length;
  }
  return out;
}

/** What every case must show besides equality: the snapshot was used, and saved fetching. */
function expectReadThroughSnapshot(c: Compared): void {
  expect(c.snapshotFound).toEqual(['absent', 'used', 'used', 'used']);
  // After the first run, each fetches only what its delivery added; the last one nothing.
  expect(c.fetched[0]).toBe(c.objects[0]);
  for (let i = 1; i < c.steps; i++) expect(c.fetched[i]).toBeLessThan(c.objects[i]!);
  expect(c.fetched[c.steps - 1]).toBe(0);
}

function memoryChains(): [Chain, Chain] {
  return [chain(memoryS3().s3, 'incremental'), chain(memoryS3().s3, 'full')];
}

/** A simulated cluster's facts, each with a line of its own; from 08:40 they cross the 09:00 boundary. */
function simulated(seed: number, auditLevel: 'RequestResponse' | 'Metadata'): Fact[] {
  const facts = simulatedFacts(simulateCluster({ seed, start: '2026-11-03T08:40:00Z', auditLevel })).map(
    (f, line) => ({ ...f, src: { source: 'sim', line } }),
  );
  expect(new Set(facts.map((f) => hourOf(f.at))).size).toBeGreaterThan(1);
  return facts;
}

// The simulator's matrix is its two audit levels: RequestResponse here, Metadata over the wire.
it('simulated cluster at RequestResponse level, seed 1: the snapshot chain writes the full read’s reports and events', async () => {
  const c = await compareChains(...memoryChains(), simulated(1, 'RequestResponse'));
  expectReadThroughSnapshot(c);
  expect(c.events).toBeGreaterThan(0);
});

async function corpusFacts(dir: string): Promise<Fact[]> {
  const store = await collectFacts(listInputs([dir], {}), createIngestStats());
  return [...store.facts()];
}

for (const [name, dir] of [
  ['scenarios', SCENARIOS],
  ['fights', FIGHTS],
  ['drift', DRIFT],
] as const)
  describeWithCorpus(dir, `shared ${name} corpus`, () => {
    it('the snapshot chain writes the full read’s reports and events', async () => {
      const c = await compareChains(...memoryChains(), await corpusFacts(dir));
      expectReadThroughSnapshot(c);
    });
  });

describe('over the wire (fauxqs)', () => {
  let fx: Fauxqs;
  beforeAll(async () => {
    fx = await startFauxqs();
  });
  afterAll(async () => fx?.stop());

  it('simulated cluster at Metadata level, seed 7: the snapshot chain writes the full read’s reports and events', async () => {
    const s3 = new S3Client(fx.clientConfig);
    for (const Bucket of ['incremental', 'full']) await s3.send(new CreateBucketCommand({ Bucket }));
    const facts = simulated(7, 'Metadata');
    const c = await compareChains(chain(s3, 'incremental'), chain(s3, 'full'), facts);
    expectReadThroughSnapshot(c);
    expect(c.events).toBeGreaterThan(0);
  });
});
