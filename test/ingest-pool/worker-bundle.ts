// The ingest worker as the command ships it: bundled by esbuild from lib/ingest-pool/worker.ts
// (scripts/build-cli.mjs does the same for dist/), into a folder of the test's own so that
// suites running at once never write over each other's bundle.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';

export async function bundleWorker(): Promise<{ script: string; remove: () => void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ingest-worker-'));
  const script = path.join(dir, 'ingest-worker.js');
  await build({
    entryPoints: [path.join(__dirname, '../../lib/ingest-pool/worker.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  return { script, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
