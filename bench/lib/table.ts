// The human-readable report of a BenchResult.
import type { BenchResult } from '../run';
import { formatScaling } from './scaling';

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

export function formatTable(r: BenchResult): string {
  const lines: string[] = [`node ${r.node}, ${r.cpus} CPUs, peak RSS from ${r.rssSource}`];
  for (const s of r.skipped) lines.push(`skipped: ${s}`);
  for (const f of r.files) {
    const mb = f.file.uncompressedBytes / 2 ** 20;
    lines.push(
      '',
      `${f.size} ${f.file.format}: ${mb.toFixed(0)} MB uncompressed, ${(f.file.compressedBytes / 2 ** 20).toFixed(1)} MB gzip, ${f.file.events} events (${((100 * f.file.noiseEvents) / f.file.events).toFixed(1)} % noise)`,
    );
    lines.push(
      `  ${pad('tool', 52)} ${pad('wall s', 8)} ${pad('MB/s', 8)} ${pad('records/s', 11)} peak RSS MB`,
    );
    for (const m of f.measurements) {
      lines.push(
        `  ${pad(m.name, 52)} ${pad(m.wallSeconds.toFixed(2), 8)} ${pad(m.mbPerSecond.toFixed(1), 8)} ${pad(Math.round(m.recordsPerSecond).toString(), 11)} ${m.peakRssMB === null ? 'n/a' : m.peakRssMB.toFixed(0)}${m.note ? `   (${m.note})` : ''}`,
      );
    }
    for (const x of f.ratios)
      lines.push(`  ${pad(x.label, 52)} ${x.wallRatio.toFixed(2)}x wall (${x.speedup.toFixed(2)}x speed-up)`);
  }
  if (r.scale.length > 0) lines.push('', 'analysis scale (analyzeFacts alone, synthetic fleet):');
  for (const s of r.scale) {
    lines.push(
      `  ${pad(`${s.incarnations} incarnations, ${s.facts} facts (${s.mode}, heap ${s.heapMB} MB)`, 52)} build ${s.buildSeconds.toFixed(1)} s, analyze ${s.analyzeSeconds.toFixed(1)} s, peak RSS ${s.peakRssMB?.toFixed(0) ?? 'n/a'} MB, heap after facts ${s.heapAfterFactsMB.toFixed(0)} MB, heap peak ${s.heapPeakMB.toFixed(0)} MB, ${s.recreations} recreations, ${s.loops} loops${s.error ? ` ERROR ${s.error}` : ''}`,
    );
  }
  const verdicts = (ts: typeof r.targets) => {
    for (const t of ts) {
      const verdict = t.met === null ? 'not measured' : t.met ? 'met' : 'NOT met';
      lines.push(`  ${pad(verdict, 13)} ${t.target}: ${t.measured}`);
    }
  };
  // Issue 15's targets judge the file and fleet runs: a run of the scaling lines alone has
  // none, and six "not measured" lines would bury its own verdicts.
  if (r.files.length > 0 || r.scale.length > 0) {
    lines.push('', 'targets (issue 15):');
    verdicts(r.targets);
  }
  if (r.scaling.length > 0) {
    lines.push(...formatScaling(r.scaling));
    lines.push('', 'targets (issue 31):');
    verdicts(r.scalingTargets);
  }
  return `${lines.join('\n')}\n`;
}
