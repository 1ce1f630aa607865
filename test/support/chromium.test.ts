// The packaged browser the report tests use: it comes from the lockfile, not the machine,
// and survives what the tests do with it (many pages opened and closed in one browser).
import { existsSync, readdirSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { chromiumBinary, DROPPED_ARGS, launchChromium } from './chromium';

describe('packaged Chromium', () => {
  const pkg = JSON.parse(
    readFileSync(
      join(__dirname, '..', '..', 'node_modules', '@sparticuz', 'chromium', 'package.json'),
      'utf8',
    ),
  ) as { version: string };

  it('is extracted from @sparticuz/chromium once, under node_modules/.cache, not into the temp folder', () => {
    const bin = chromiumBinary();
    expect(bin.version).toBe(pkg.version);
    const cache = resolve(__dirname, '..', '..', 'node_modules', '.cache', 'koperator-audit');
    expect(bin.executablePath).toBe(join(cache, `chromium-${pkg.version}`, 'chromium'));
    expect(existsSync(bin.executablePath)).toBe(true);
    // No staging folder left behind, and nothing of it in the temp folder.
    expect(readdirSync(cache).filter((f) => f.includes('.staging-'))).toEqual([]);
    expect(readdirSync(tmpdir()).filter((f) => /^(chromium|al2023|fonts|swiftshader)/.test(f))).toEqual([]);
  });

  it('launches without the flags that break it under Playwright', () => {
    const { args } = chromiumBinary();
    expect(args).toContain('--no-sandbox');
    for (const d of DROPPED_ARGS) expect(args.filter((a) => d.flag.test(a))).toEqual([]);
  });

  it('runs the packaged version and keeps running after pages close', async () => {
    const browser = await launchChromium();
    try {
      expect(browser.version().split('.')[0]).toBe(pkg.version.split('.')[0]);
      for (let i = 0; i < 3; i++) {
        const page = await browser.newPage();
        await page.setContent(`<p id="n">${i}</p>`);
        expect(await page.textContent('#n')).toBe(String(i));
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });
});
