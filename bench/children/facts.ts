// koperator-audit's ingestion stage as the command line runs it: every object of a file or
// folder read into facts (pre-filter, parse, projection, de-duplication, the fact store), on
// N worker threads (the bundled dist/ingest-worker.js) or, with 1, on this thread. Bundled by
// bench/run.ts with esbuild, as dist/cli.js is.
import * as path from 'path';
import { createIngestStats } from '../../lib/ingest/stats';
import { collectFacts } from '../../lib/pipeline/analyze-inputs';
import { listLocal } from '../../lib/sources/local';

async function main(input: string, workers: number, script: string): Promise<void> {
  const stats = createIngestStats();
  const facts = await collectFacts(listLocal(input), stats, {}, undefined, { workers, script });
  process.stdout.write(
    `${JSON.stringify({
      records: stats.audit.read + stats.operator.read,
      facts: facts.size,
      bytes: stats.bytes.decompressed,
      maxRssKB: process.resourceUsage().maxRSS,
    })}\n`,
  );
}

const [
  input = '',
  workers = '1',
  script = path.join(__dirname, '..', '..', '..', 'dist', 'ingest-worker.js'),
] = process.argv.slice(2);
main(input, Number(workers), script).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
