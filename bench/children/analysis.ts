// The analysis function's work after its facts are read, as one Lambda share runs it: every
// object of a folder read into the fact store (untimed; the function downloads facts
// instead), then the three passes lib/aws/analyze-run.ts makes over them (recreations and
// loops, fights, drifts) timed on this one thread, as the function runs them. Run under
// `taskset` for Lambda's CPU share (bench/lib/scaling.ts). Bundled by bench/run.ts with esbuild.
import { createHash } from 'crypto';
import { analyzeFacts } from '../../lib/analyze';
import { defaultAnalysisOptions } from '../../lib/analyze/options';
import { findDrifts } from '../../lib/drift';
import { findFights } from '../../lib/fights';
import { createIngestStats } from '../../lib/ingest/stats';
import { collectFacts } from '../../lib/pipeline/analyze-inputs';
import { listLocal } from '../../lib/sources/local';

async function main(input: string): Promise<void> {
  const stats = createIngestStats();
  const facts = await collectFacts(listLocal(input), stats, {});
  const opts = { ...defaultAnalysisOptions(), newestEventAt: stats.newestEventAt };
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  const r = analyzeFacts(facts, opts);
  const fights = findFights(facts, opts);
  const drifts = findDrifts(facts, opts).drifts;
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(
    `${JSON.stringify({
      records: stats.audit.read + stats.operator.read,
      facts: facts.size,
      analysisSeconds: seconds,
      analysisCpuSeconds: (cpu.user + cpu.system) / 1e6,
      recreations: r.recreations.length,
      loops: r.loops.length,
      digest: createHash('sha256')
        .update(JSON.stringify({ recreations: r.recreations, loops: r.loops, fights, drifts }))
        .digest('hex')
        .slice(0, 16),
      maxRssKB: process.resourceUsage().maxRSS,
    })}\n`,
  );
}

main(process.argv[2] ?? '').catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
