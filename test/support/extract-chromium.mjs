// Run by chromium.ts in a child Node process, because @sparticuz/chromium is an ES module
// and Jest's CommonJS loader cannot import it. Extracts the package's brotli-compressed
// headless Chromium (207 MB) once per package version into
// node_modules/.cache/koperator-audit/chromium-<version>/, beside the package it comes from
// (so `rm -rf node_modules` removes it, and the temp folder is never filled), and prints
// {executablePath, args} as JSON on stdout.
//
// The package's own executablePath() extracts into os.tmpdir() and trusts any file already
// named "chromium" there, even a half-written one from a parallel Jest worker or another
// version's. So it runs here with TMPDIR set to a private staging folder, which is then
// renamed into place in one step: a reader sees a complete browser or none.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import chromium from '@sparticuz/chromium';

// The package exports only its entry point (build/index.js); its package.json is one folder up.
const pkgDir = join(dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium'))), '..');
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
// node_modules/@sparticuz/chromium → node_modules/.cache/koperator-audit; staged there too,
// so that the rename below stays on one file system.
const root = join(pkgDir, '..', '..', '.cache', 'koperator-audit');
const finalDir = join(root, `chromium-${version}`);
const executablePath = join(finalDir, 'chromium');

if (!existsSync(executablePath)) {
  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, `chromium-${version}.staging-`));
  process.env.TMPDIR = staging;
  const extracted = await chromium.executablePath(join(pkgDir, 'bin'));
  if (extracted !== join(staging, 'chromium')) throw new Error(`unexpected extraction path ${extracted}`);
  try {
    renameSync(staging, finalDir);
  } catch (err) {
    // Another worker finished first: its copy is complete, ours is not needed.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(executablePath)) throw err;
  }
}

process.stdout.write(JSON.stringify({ executablePath, args: chromium.args, version }));
