// Bundles the CLI into dist/cli.js with esbuild (fast enough to run before every
// `npm run analyze`, so the command never runs stale code).
import { build } from 'esbuild';

await build({
  entryPoints: ['lib/cli/entry.ts'],
  outfile: 'dist/cli.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  logLevel: 'warning',
});
