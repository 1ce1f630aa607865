// The one way the tests get a browser: the headless Chromium that @sparticuz/chromium ships
// inside its npm package (pinned by the lockfile), driven by playwright-core. Nothing is
// looked up on the machine and nothing is downloaded, so `npm test` passes on a fresh clone
// with only Node and npm.
import { execFileSync } from 'child_process';
import { join } from 'path';
import { chromium, type Browser } from 'playwright-core';

export interface ChromiumBinary {
  executablePath: string;
  /** The flags passed at launch: the package's, less those listed in DROPPED_ARGS. */
  args: string[];
  /** The @sparticuz/chromium version, which is Chromium's major version. */
  version: string;
}

/**
 * The package's flags are made for AWS Lambda and Puppeteer; these ones are wrong under
 * Playwright on an ordinary machine.
 */
export const DROPPED_ARGS: ReadonlyArray<{ flag: RegExp; why: string }> = [
  // Lambda forbids new processes; under Playwright one process means closing a page kills the browser.
  { flag: /^--single-process$/, why: 'closing a page or context would end the browser' },
  // Chromium keeps the last --disable-features/--enable-features only: these would replace
  // Playwright's lists, which stop startup requests to Google and paint holding.
  { flag: /^--(disable|enable)-features=/, why: "would replace Playwright's feature lists" },
  // The report tests check the page's own security policy; no reason to weaken the browser's.
  { flag: /^--(disable-web-security|allow-running-insecure-content)$/, why: 'weakens what the tests check' },
];

let binary: ChromiumBinary | undefined;

/** Extracts the packaged browser on first use (about 2 s, once per machine and version). */
export function chromiumBinary(): ChromiumBinary {
  if (!binary) {
    const out = execFileSync(process.execPath, [join(__dirname, 'extract-chromium.mjs')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const found = JSON.parse(out) as ChromiumBinary;
    binary = { ...found, args: found.args.filter((a) => !DROPPED_ARGS.some((d) => d.flag.test(a))) };
  }
  return binary;
}

/** Starts the packaged headless Chromium, or throws: a browser test never skips. */
export async function launchChromium(): Promise<Browser> {
  const { executablePath, args } = chromiumBinary();
  return chromium.launch({ executablePath, args, headless: true });
}
