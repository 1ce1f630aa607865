// koperator-audit's ingestion alone: every record the readers emit (after the byte
// pre-filter, parsing and dedupe), counted and dropped. Bundled by bench/run.ts with
// esbuild, as dist/cli.js is, so both run the same compiled code.
import { createIngestStats, ingest } from '../../lib/ingest';
import { listLocal } from '../../lib/sources/local';

async function main(file: string): Promise<void> {
  const stats = createIngestStats();
  let emitted = 0;
  for await (const rec of ingest(listLocal(file), stats)) {
    if (rec) emitted++;
  }
  const out = {
    records: stats.audit.read + stats.operator.read,
    emitted,
    bytes: stats.bytes.decompressed,
    maxRssKB: process.resourceUsage().maxRSS,
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main(process.argv[2] ?? '').catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
