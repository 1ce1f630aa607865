// A tiny run of the benchmark harness: a ~2 MB generated file in both formats, every
// measurement that needs no jq or DuckDB, and a small analysis-scale run. Checks the result
// JSON's shape and that the numbers are sane; wall-clock targets are never asserted here.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runBench, type BenchResult } from '../../bench/run';

jest.setTimeout(60_000);

describe('bench harness (smoke)', () => {
  let dir: string;
  let result: BenchResult;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-'));
    result = await runBench({
      sizes: [2 * 1024 * 1024],
      formats: ['jsonl', 'firehose'],
      seed: 7,
      peers: false,
      zcat: false,
      scale: [{ incarnations: 400 }],
      scalingObjects: 4,
      scalingSize: 2 * 1024 * 1024,
      resultsDir: dir,
      log: () => {},
    });
    // It runs the harness whole (children, workers, every measure): ~25 s alone, and well
    // over a minute on a loaded two-core machine, which a timeout must not call a failure.
  }, 240000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the same result as JSON', () => {
    const onDisk = JSON.parse(readFileSync(result.resultPath, 'utf8')) as BenchResult;
    expect(onDisk.files.map((f) => f.file.format)).toEqual(['jsonl', 'firehose']);
    expect(onDisk.skipped).toEqual([]);
  });

  it('measures floor, ingestion and the full analysis on each file, with sane numbers', () => {
    for (const f of result.files) {
      expect(f.file.events).toBeGreaterThan(1000);
      expect(f.file.noiseEvents / f.file.events).toBeGreaterThan(0.7);
      expect(f.measurements.map((m) => m.name.split(' ')[0])).toEqual([
        'floor:',
        'koperator-audit',
        'koperator-audit',
      ]);
      for (const m of f.measurements) {
        expect(m.records).toBeGreaterThan(0);
        expect(m.wallSeconds).toBeGreaterThan(0);
        expect(Number.isFinite(m.mbPerSecond)).toBe(true);
        expect(Number.isFinite(m.recordsPerSecond)).toBe(true);
        expect(m.peakRssMB).toBeGreaterThan(10);
      }
      // Ingestion reads every event the generator wrote.
      expect(f.measurements[1].records).toBe(f.file.events);
      expect(f.ratios.length).toBe(2);
      for (const r of f.ratios) expect(Number.isFinite(r.wallRatio) && r.wallRatio > 0).toBe(true);
    }
  });

  it('reads the files cut into objects on 1 and 2 workers, with one findings digest for every run', () => {
    expect(result.scaling.map((r) => r.format)).toEqual(['jsonl', 'firehose']);
    for (const r of result.scaling) {
      expect(readdirSync(r.folder)).toHaveLength(4);
      expect(r.analyze.map((m) => m.workers).slice(0, 2)).toEqual([1, 2]);
      const file = result.files.find((f) => f.file.format === r.format)!.file;
      // The objects hold every event of the file, whatever the worker count.
      for (const m of [...r.analyze, ...r.ingestion]) expect(m.records).toBe(file.events);
      for (const m of [...r.analyze, ...r.ingestion, ...r.single]) expect(m.cpuSeconds).toBeGreaterThan(0);
      expect(new Set(r.analyze.map((m) => m.digest)).size).toBe(1);
      expect(new Set(r.single.map((m) => m.digest)).size).toBe(1);
      expect(new Set([...r.analyze, ...r.single].map((m) => m.findings)).size).toBe(1);
    }
    const same = result.scalingTargets.filter((t) =>
      /same document|one thread's document|same findings/.test(t.target),
    );
    expect(same.map((t) => t.met)).toEqual([true, true, true, true, true, true]);
  });

  it('runs the analysis at scale in its own process', () => {
    expect(result.scale).toHaveLength(1);
    const s = result.scale[0];
    expect(s.error).toBeUndefined();
    expect(s.incarnations).toBeGreaterThanOrEqual(400);
    expect(s.recreations).toBeGreaterThan(0);
    expect(s.loops).toBeGreaterThan(0);
    expect(s.peakRssMB).toBeGreaterThan(10);
  });
});

describe('bench harness (smoke): the targets', () => {
  it('judges every target on the run and, on a 2 MB file, calls none of them met', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-smoke-targets-'));
    try {
      const r = await runBench({
        sizes: [2 * 1024 * 1024],
        formats: ['jsonl'],
        seed: 7,
        peers: false,
        zcat: false,
        scale: [],
        resultsDir: dir,
        log: () => {},
      });
      expect(r.targets.length).toBeGreaterThanOrEqual(6);
      expect(r.targets.filter((t) => t.met !== null)).toEqual([]);
      const onDisk = JSON.parse(readFileSync(r.resultPath, 'utf8')) as BenchResult;
      expect(onDisk.targets).toEqual(r.targets);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
