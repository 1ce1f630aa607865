// The packaged browser the report tests use: it comes from the lockfile, not the machine,
// and survives what the tests do with it (many pages opened and closed in one browser).
import { existsSync, readFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { chromiumBinary, DROPPED_ARGS, launchChromium } from './chromium';

describe('packaged Chromium', () => {
  const pkg = JSON.parse(
    readFileSync(
      join(__dirname, '..', '..', 'node_modules', '@sparticuz', 'chromium', 'package.json'),
      'utf8',
    ),
  ) as { version: string };

  it('is extracted from @sparticuz/chromium into the temp folder, not looked up on the machine', () => {
    const bin = chromiumBinary();
    expect(bin.version).toBe(pkg.version);
    expect(bin.executablePath).toBe(join(tmpdir(), `koperator-audit-chromium-${pkg.version}`, 'chromium'));
    expect(existsSync(bin.executablePath)).toBe(true);
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
