// The command line's worker threads: the findings of N workers equal one thread's on the
// simulator's matrix (every scenario, several container formats, deliveries overlapping
// across files, damaged files among them), and a worker that fails costs its object only.
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { gzipSync } from 'zlib';
import { Worker } from 'worker_threads';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { analyzeInputs, collectFacts } from '../../lib/pipeline/analyze-inputs';
import { createIngestStats, type IngestStats } from '../../lib/ingest/stats';
import { poolFacts } from '../../lib/ingest-pool/pool';
import { inThreadFacts } from '../../lib/ingest-pool/in-thread';
import { listLocal } from '../../lib/sources/local';
import type { FactStore } from '../../lib/facts/store';
import type { FindingsDocument } from '../../lib/model/findings';
import { DEFAULT_SCENARIO_ORDER, simulateCluster } from '../../sim';
import { encodeAudit, encodeOperator, type AuditContainer, type OperatorContainer } from '../../sim/encode';
import { bundleWorker } from './worker-bundle';

let worker: { script: string; remove: () => void };
const dirs: string[] = [];

beforeAll(async () => {
  worker = await bundleWorker();
});
afterAll(() => {
  worker.remove();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(files: [string, Buffer | string][]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ingest-pool-'));
  dirs.push(dir);
  for (const [name, bytes] of files) writeFileSync(path.join(dir, name), bytes);
  return dir;
}

/** What must not depend on the number of workers: everything but the run's own duration. */
function comparable(doc: FindingsDocument): unknown {
  const { seconds: _s, ...summary } = doc.summary as Record<string, unknown>;
  return { ...doc, summary };
}

async function analyzeWith(dir: string, workers: number): Promise<FindingsDocument> {
  return analyzeInputs(
    [dir],
    defaultAnalysisOptions(),
    {},
    workers > 1 ? { parallel: { workers, script: worker.script } } : {},
  );
}

const AUDIT: AuditContainer[] = [
  'audit-jsonl',
  'eks-cloudwatch-export',
  'eks-firehose-cwl',
  'fluent-bit',
  'gke-logentry',
];
const OPERATOR: OperatorContainer[] = ['zap-json', 'cri'];

/**
 * One simulated cluster cut into files of several formats that overlap by a few events (the
 * same event delivered twice, possibly first by a later file), plus a damaged gzip and stray
 * bytes, so de-duplication and skip details cross files.
 */
function simulatedFolder(seed: number, scenarios?: (typeof DEFAULT_SCENARIO_ORDER)[number][]): string {
  const sim = simulateCluster({
    seed,
    start: '2026-11-04T06:00:00Z',
    noiseRatio: 0.5,
    ...(scenarios ? { scenarios } : {}),
  });
  const files: [string, Buffer | string][] = [];
  const a = sim.audit;
  const cut = Math.ceil(a.length / AUDIT.length);
  AUDIT.forEach((c, i) => {
    // Each file also repeats the first events of the next one.
    const part = a.slice(i * cut, (i + 1) * cut + 7);
    files.push([`audit-${i}-${c}`, encodeAudit(c, part, { gzip: i % 2 === 0 })]);
  });
  const o = sim.operator;
  const half = Math.ceil(o.length / 2);
  files.push([`operator-0`, encodeOperator(OPERATOR[0], o.slice(0, half + 3))]);
  files.push([`operator-1`, encodeOperator(OPERATOR[1], o.slice(half))]);
  const whole = encodeAudit('audit-jsonl', a.slice(0, 50), { gzip: true });
  files.push(['damaged-truncated.gz', whole.subarray(0, Math.floor(whole.length / 2))]);
  files.push(['damaged-bytes', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))]);
  return folder(files);
}

describe('N workers give the findings of one thread', () => {
  it.each([
    ['every scenario, seed 1', 1, undefined],
    ['every scenario, seed 7', 7, undefined],
    ['loops only, seed 11', 11, ['affinity-loop', 'scaleops-loop', 'metadata-verbose-loop'] as const],
  ])('%s', async (_name, seed, scenarios) => {
    const dir = simulatedFolder(seed, scenarios ? [...scenarios] : undefined);
    const one = await analyzeWith(dir, 1);
    // Not a vacuous equality: the matrix holds recreations, duplicates and damaged files.
    expect(one.recreations.length).toBeGreaterThan(0);
    expect((one.summary.dedupe as IngestStats['dedupe']).duplicates).toBeGreaterThan(0);
    expect((one.summary.files as IngestStats['files']).errors).toBeGreaterThan(0);
    for (const n of [2, 3]) expect(comparable(await analyzeWith(dir, n))).toEqual(comparable(one));
  });

  it('a large first file finishing last changes nothing', async () => {
    const sim = simulateCluster({ seed: 5, start: '2026-11-04T06:00:00Z', noiseRatio: 0.9 });
    const a = sim.audit;
    const head = Math.floor(a.length * 0.8);
    const rest = a.slice(head);
    const dir = folder([
      ['a-large', encodeAudit('audit-jsonl', a.slice(0, head + 20))],
      ...[0, 1, 2, 3].map((i): [string, Buffer] => [
        `b-small-${i}`,
        encodeAudit('audit-jsonl', rest.slice((i * rest.length) / 4, ((i + 1) * rest.length) / 4)),
      ]),
      ['operator', encodeOperator('zap-json', sim.operator)],
    ]);
    const one = await analyzeWith(dir, 1);
    expect(comparable(await analyzeWith(dir, 2))).toEqual(comparable(one));
    expect(comparable(await analyzeWith(dir, 4))).toEqual(comparable(one));
  });
});

/** The sorted source names of a store's facts: what survived. */
function sources(store: FactStore): string[] {
  const s = new Set<string>();
  for (let i = 0; i < store.size; i++) s.add(path.basename(store.fact(i).src.source));
  return [...s].sort();
}

describe('a worker that fails costs its object only', () => {
  const sim = simulateCluster({ seed: 3, start: '2026-11-04T06:00:00Z', noiseRatio: 0.3 });
  const quarter = Math.ceil(sim.audit.length / 4);
  const parts = [0, 1, 2, 3].map((i) => sim.audit.slice(i * quarter, (i + 1) * quarter));
  let dir: string;
  beforeAll(() => {
    // part-0 and part-2 are their simulated events forty times over (new auditIDs): several
    // messages of facts. This thread reads part-0 (the first object), busy with it while two
    // worker threads take part-1 and part-2.
    const many = (p: (typeof parts)[number]) =>
      Array.from({ length: 40 }, (_, k) =>
        p.map((e) => ({ ...e, auditID: `${e.auditID.slice(0, -4)}${k.toString(16).padStart(4, '0')}` })),
      ).flat();
    dir = folder(
      parts.map((p, i): [string, Buffer] => [
        `part-${i}`,
        gzipSync(encodeAudit('audit-jsonl', i === 0 || i === 2 ? many(p) : p)),
      ]),
    );
  });

  // Three readers: this thread and two worker threads.
  async function run(spawn: (script: string) => Worker): Promise<{ store: FactStore; stats: IngestStats }> {
    const stats = createIngestStats();
    const store = await poolFacts(listLocal(dir), stats, {
      workers: 3,
      script: worker.script,
      ingest: {},
      spawn,
    });
    return { store, stats };
  }

  it('a worker that throws on its object: that object is a read error, the others are read by a new worker', async () => {
    let spawned = 0;
    const { store, stats } = await run((script) => {
      spawned++;
      // The first worker throws as soon as it is given an object.
      if (spawned === 1)
        return new Worker(
          "require('worker_threads').parentPort.on('message', (m) => { if (m.type === 'start') throw new Error('hostile object') })",
          { eval: true },
        );
      return new Worker(script);
    });
    const failed = stats.details.filter((d) => d.reason === 'read-error');
    expect(failed).toHaveLength(1);
    expect(failed[0].note).toMatch(/the ingest worker stopped \(hostile object\) while reading it/);
    expect(stats.files).toMatchObject({ read: 4, errors: 1 });
    const lost = path.basename(failed[0].source);
    expect(sources(store)).toEqual(['part-0', 'part-1', 'part-2', 'part-3'].filter((p) => p !== lost));
    expect(lost).not.toBe('part-0'); // this thread's
    expect(spawned).toBe(3);
  });

  it('a worker killed part way through its object: what it sent stays, the object counts as failed, the run ends', async () => {
    const reference = await inThreadFacts(listLocal(dir), createIngestStats(), {});
    let killed = false;
    const { store, stats } = await run((script) => {
      const w = new Worker(script);
      w.on('message', (m: { type: string; seq: number; entries?: unknown[] }) => {
        // Kill the worker reading part-2 once it has sent its first facts.
        if (!killed && m.type === 'entries' && m.seq === 2 && (m.entries?.length ?? 0) > 0) {
          killed = true;
          void w.terminate();
        }
      });
      return w;
    });
    expect(killed).toBe(true);
    expect(stats.files).toMatchObject({ read: 4, errors: 1 });
    expect(stats.details.map((d) => [path.basename(d.source), d.reason])).toEqual([['part-2', 'read-error']]);
    const fromPart2 = (s: FactStore) =>
      Array.from({ length: s.size }, (_, i) => s.fact(i)).filter((f) => f.src.source.endsWith('part-2'))
        .length;
    expect(fromPart2(store)).toBeGreaterThan(0);
    expect(fromPart2(store)).toBeLessThan(fromPart2(reference));
    expect(sources(store)).toEqual(['part-0', 'part-1', 'part-2', 'part-3']);
  });

  it('an object that cannot be opened is counted as on one thread, and no worker is spent on it', async () => {
    const stats = createIngestStats();
    const missing = path.join(dir, 'no-such-file');
    async function* objects() {
      yield* listLocal(missing);
      yield* listLocal(dir);
    }
    const store = await poolFacts(objects(), stats, { workers: 2, script: worker.script, ingest: {} });
    const one = createIngestStats();
    async function* again() {
      yield* listLocal(missing);
      yield* listLocal(dir);
    }
    const reference = await inThreadFacts(again(), one, {});
    expect(store.size).toBe(reference.size);
    expect(JSON.stringify(stats)).toBe(JSON.stringify(one));
    expect(stats.details[0]).toMatchObject({ reason: 'open-error' });
  });
});

describe('collectFacts: when the pool is used', () => {
  const sim = simulateCluster({ seed: 9, start: '2026-11-04T06:00:00Z', noiseRatio: 0.3 });
  const half = Math.ceil(sim.audit.length / 2);

  it('one object is read on this thread: no worker is started (a bundle that is not there is never loaded)', async () => {
    const dir = folder([['only', encodeAudit('audit-jsonl', sim.audit)]]);
    const stats = createIngestStats();
    const facts = await collectFacts(listLocal(dir), stats, {}, undefined, {
      workers: 4,
      script: '/no/such/worker.js',
    });
    const reference = await inThreadFacts(listLocal(dir), createIngestStats(), {});
    expect(facts.size).toBe(reference.size);
    expect(stats.files.errors).toBe(0);
  });

  it('a worker bundle that cannot start costs the objects given to workers a read error each, said; this thread reads its own', async () => {
    const dir = folder([
      ['a', encodeAudit('audit-jsonl', sim.audit.slice(0, half))],
      ['b', encodeAudit('audit-jsonl', sim.audit.slice(half))],
    ]);
    const stats = createIngestStats();
    const facts = await collectFacts(listLocal(dir), stats, {}, undefined, {
      workers: 2,
      script: '/no/such/worker.js',
    });
    expect(stats.files).toMatchObject({ read: 2, errors: 1 });
    expect(stats.details.map((d) => [path.basename(d.source), d.reason])).toEqual([['b', 'read-error']]);
    expect(stats.details[0].note).toMatch(/the ingest worker stopped/);
    expect(sources(facts)).toEqual(['a']);
  });

  it("N readers are this thread and N - 1 worker threads, and give one thread's store", async () => {
    const dir = folder(
      [0, 1, 2, 3].map((i): [string, Buffer] => [
        `p${i}`,
        encodeAudit(
          'audit-jsonl',
          sim.audit.slice((i * sim.audit.length) / 4, ((i + 1) * sim.audit.length) / 4),
        ),
      ]),
    );
    const reference = await inThreadFacts(listLocal(dir), createIngestStats(), {});
    for (const workers of [2, 3]) {
      let spawned = 0;
      const store = await poolFacts(listLocal(dir), createIngestStats(), {
        workers,
        script: worker.script,
        ingest: {},
        spawn: (script) => {
          spawned++;
          return new Worker(script);
        },
      });
      expect(spawned).toBe(workers - 1);
      expect(sources(store)).toEqual(['p0', 'p1', 'p2', 'p3']);
      const facts = (s: FactStore) => Array.from({ length: s.size }, (_, i) => JSON.stringify(s.fact(i)));
      expect(facts(store)).toEqual(facts(reference));
    }
  });
});

describe('a listing that fails part way', () => {
  const sim = simulateCluster({ seed: 13, start: '2026-11-04T06:00:00Z', noiseRatio: 0.3 });
  const third = Math.ceil(sim.audit.length / 3);

  it('keeps what was listed before, says where it failed, on one thread as with workers', async () => {
    const dir = folder(
      [0, 1, 2].map((i): [string, Buffer] => [
        `p${i}`,
        encodeAudit('audit-jsonl', sim.audit.slice(i * third, (i + 1) * third)),
      ]),
    );
    async function* failing() {
      let n = 0;
      for await (const o of listLocal(dir)) {
        if (n++ === 2) throw new Error('AccessDenied on the next page');
        yield o;
      }
    }
    const one = createIngestStats();
    const inThread = await inThreadFacts(failing(), one, {});
    const two = createIngestStats();
    const pooled = await poolFacts(failing(), two, { workers: 2, script: worker.script, ingest: {} });
    expect(one.files).toMatchObject({ read: 2, errors: 1 });
    expect(one.details.at(-1)).toMatchObject({
      source: 'listing',
      reason: 'list-error',
      note: 'AccessDenied on the next page',
    });
    expect(sources(inThread)).toEqual(['p0', 'p1']);
    expect(JSON.stringify(two)).toBe(JSON.stringify(one));
    expect(sources(pooled)).toEqual(['p0', 'p1']);
    expect(pooled.size).toBe(inThread.size);
  });
});
