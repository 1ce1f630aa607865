import { judgeTargets, TARGETS, type TargetVerdict } from '../../bench/lib/targets';
import type { FileResult } from '../../bench/run';
import { parseScaleSpecs, type ScaleRun } from '../../bench/lib/scale-run';
import type { Measurement } from '../../bench/lib/tools';

const MB = 2 ** 20;

function m(name: string, wallSeconds: number, peakRssMB: number | null = 100): Measurement {
  return {
    name,
    file: 'f',
    format: 'jsonl',
    wallSeconds,
    mbPerSecond: 1,
    recordsPerSecond: 1,
    records: 1,
    peakRssMB,
  };
}

function file(format: string, megabytes: number, ms: Measurement[]): FileResult {
  return {
    size: `${megabytes}MB`,
    file: {
      path: 'f',
      format: format as 'jsonl',
      seed: 1,
      compressedBytes: 1,
      uncompressedBytes: megabytes * MB,
      events: 1,
      koperatorEvents: 0,
      noiseEvents: 1,
    },
    measurements: ms,
    ratios: [],
  };
}

function fleet(incarnations: number, peakRssMB: number | null, error?: string): ScaleRun {
  return {
    incarnations,
    mode: 'spool',
    heapMB: 600,
    facts: incarnations * 7,
    buildSeconds: 10,
    analyzeSeconds: 120,
    heapAfterFactsMB: 1,
    heapPeakMB: 1,
    peakRssMB,
    recreations: 1,
    loops: 1,
    ...(error ? { error } : {}),
  };
}

const verdict = (vs: TargetVerdict[], starts: string) => vs.find((v) => v.target.startsWith(starts))!;

describe('judgeTargets', () => {
  it.each([
    { what: 'within 1.5x', floor: 1, ours: 1.5, met: true },
    { what: 'just over', floor: 1, ours: 1.51, met: false },
    { what: 'far over', floor: 0.86, ours: 5.9, met: false },
  ])('floor ratio on 1 GB JSON lines: $what', ({ floor, ours, met }) => {
    const files = [
      file('jsonl', 1024, [m('floor: gunzip', floor), m('koperator-audit analyze (json)', ours)]),
    ];
    const v = verdict(judgeTargets(files, []), 'full analysis within');
    expect(v.met).toBe(met);
    expect(v.measured).toContain(`${(ours / floor).toFixed(1)}x`);
  });

  it('reports a target it has no measurement for as not measured, never as met', () => {
    const vs = judgeTargets([file('jsonl', 100, [m('floor', 0.1), m('koperator-audit analyze', 0.1)])], []);
    for (const v of vs.filter((x) => !x.target.includes('under 300 MB at every size')))
      expect(v.met).toBeNull();
  });

  it('takes the file nearest 1 GB, not a 4 GB one, for the speed targets', () => {
    const files = [
      file('jsonl', 4096, [m('floor', 4), m('koperator-audit analyze', 5), m('duckdb read_json', 9)]),
      file('jsonl', 1024, [m('floor', 1), m('koperator-audit analyze', 6), m('duckdb read_json', 2)]),
    ];
    const vs = judgeTargets(files, []);
    expect(verdict(vs, 'full analysis within').met).toBe(false);
    expect(verdict(vs, 'full analysis faster than DuckDB').met).toBe(false);
  });

  it.each([
    { what: 'under and flat', rss: [250, 260, 280], under: true, flat: true },
    { what: 'under but growing 40 %', rss: [200, 240, 280], under: true, flat: false },
    { what: 'flat but over', rss: [310, 320, 330], under: false, flat: true },
    { what: 'the 4 GB one over', rss: [160, 370, 906], under: false, flat: false },
  ])('peak RSS at 100 MB, 1 GB, 4 GB: $what', ({ rss, under, flat }) => {
    const files = [100, 1024, 4096].map((size, i) =>
      file('jsonl', size, [m('floor', 1), m('koperator-audit analyze', 2, rss[i])]),
    );
    const vs = judgeTargets(files, []);
    expect(verdict(vs, `full analysis peak RSS under ${TARGETS.peakRssMB}`).met).toBe(under);
    expect(verdict(vs, 'flat').met).toBe(flat);
  });

  it('needs both ends of the range for either memory verdict', () => {
    const files = [100, 1024].map((size) => file('jsonl', size, [m('koperator-audit analyze', 2, 200)]));
    const vs = judgeTargets(files, []);
    expect(verdict(vs, 'flat').met).toBeNull();
    expect(verdict(vs, 'full analysis peak RSS').met).toBeNull();
  });

  it.each([
    { what: 'under 1.5 GB', runs: [fleet(1_000_000, 1480)], met: true },
    { what: 'over', runs: [fleet(1_000_000, 2744)], met: false },
    { what: 'only smaller fleets', runs: [fleet(300_000, 900)], met: null },
    { what: 'the 1 M run failed', runs: [fleet(1_000_000, 1400, 'heap out of memory')], met: null },
  ])('the 1 M fleet: $what', ({ runs, met }) => {
    const v = verdict(judgeTargets([], runs), '1,000,000 incarnations');
    expect(v.met).toBe(met);
  });
});

describe('parseScaleSpecs', () => {
  it.each([
    { text: '100000,300000', want: [{ incarnations: 100000 }, { incarnations: 300000 }] },
    { text: '1000000:spool:600', want: [{ incarnations: 1000000, mode: 'spool', heapMB: 600 }] },
    { text: '400:hold', want: [{ incarnations: 400, mode: 'hold' }] },
    { text: '0', want: [] },
  ])('$text', ({ text, want }) => {
    expect(parseScaleSpecs(text)).toEqual(want);
  });

  it.each(['x', '10:fast', '10:spool:lots', '-5'])('refuses %s', (text) => {
    expect(() => parseScaleSpecs(text)).toThrow(/--scale/);
  });
});

describe('judgeTargets: the fleet', () => {
  it('judges the best completed 1 M run and says how it ran', () => {
    const uncapped = { ...fleet(1_000_000, 2755), mode: 'stream', heapMB: 12000 };
    const v = verdict(judgeTargets([], [uncapped, fleet(1_000_000, 1494)]), '1,000,000 incarnations');
    expect(v.met).toBe(true);
    expect(v.measured).toContain('spool, heap capped at 600 MB');
  });
});
