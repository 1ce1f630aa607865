// What each deployed function's bundle costs at a cold start: its size (zipped, the
// JavaScript, the source map) and the time Node takes to load it, which Lambda spends in
// every cold start's init phase before the first event. Reads the zips `npm run package`
// writes, so it measures exactly what would be deployed.
//
//   npx tsx scripts/measure-bundles.ts                       # packages into a temp folder first
//   npx tsx scripts/measure-bundles.ts --package .serverless --runs 20
//   npx tsx scripts/measure-bundles.ts --package before/ --package after/   # side by side
//
// Each load is a fresh `node` process (a cold start has no module cache), with and without
// `--enable-source-maps` (the functions' NODE_OPTIONS); the runs of every package and
// function are interleaved so that the load on the machine falls on all alike. The CPU time
// of the load is printed beside its wall time: on a busy machine it is the steadier figure.
// Medians, as a Markdown table.
import { spawnSync } from 'child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { performance } from 'perf_hooks';
import { inflateRawSync } from 'zlib';

interface Args {
  packageDirs: string[];
  runs: number;
}

function parseArgs(argv: string[]): Args {
  const out: Args = { packageDirs: [], runs: 15 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--package') {
      const dir = argv[++i] ?? '';
      if (dir === '') throw new Error('--package needs a folder');
      out.packageDirs.push(dir);
    } else if (a === '--runs') out.runs = Number(argv[++i]);
    else throw new Error(`unknown argument ${a} (known: --package DIR (repeatable), --runs N)`);
  }
  if (!Number.isInteger(out.runs) || out.runs < 1) throw new Error('--runs needs a positive integer');
  return out;
}

/** The files of a zip (stored or deflated entries, as serverless packages them). */
export function unzip(buf: Buffer): Map<string, Buffer> {
  const eocd = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip: no end of central directory');
  const entries = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < entries; i++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error(`zip: bad central directory entry ${i}`);
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;
    if (name.endsWith('/')) continue;
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const data = buf.subarray(dataAt, dataAt + compressed);
    if (method === 0) files.set(name, Buffer.from(data));
    else if (method === 8) files.set(name, inflateRawSync(data));
    else throw new Error(`zip: ${name} uses compression method ${method}`);
  }
  return files;
}

function packageInto(dir: string): void {
  const root = path.join(__dirname, '..');
  const res = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      'scripts/serverless-package.ts',
      '--stage',
      'bench',
      '--package',
      dir,
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (res.status !== 0) throw new Error(`npm run package failed (exit ${res.status})`);
}

interface Load {
  /** Wall ms to require the handler module. */
  wall: number;
  /** CPU ms (user + system) the require took. */
  cpu: number;
  /** Wall ms of the whole process, Node's own start included. */
  process: number;
}

/** One cold load in a fresh process. */
function loadOnce(file: string, sourceMaps: boolean): Load {
  const code =
    'const c=process.cpuUsage(),t=process.hrtime.bigint();require(process.argv[1]);' +
    'const w=Number(process.hrtime.bigint()-t)/1e6,u=process.cpuUsage(c);' +
    'process.stdout.write(w+" "+(u.user+u.system)/1e3)';
  const started = performance.now();
  const res = spawnSync(
    process.execPath,
    [...(sourceMaps ? ['--enable-source-maps'] : []), '-e', code, file],
    {
      env: {
        PATH: process.env.PATH,
        AWS_REGION: 'us-east-1',
        POWERTOOLS_METRICS_DISABLED: 'true',
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      },
      encoding: 'utf8',
    },
  );
  const proc = performance.now() - started;
  if (res.status !== 0) throw new Error(`loading ${file} failed: ${res.stderr}`);
  const [wall, cpu] = res.stdout.split(' ').map(Number);
  return { wall: wall!, cpu: cpu!, process: proc };
}

interface Bundle {
  label: string;
  fn: string;
  zipBytes: number;
  jsBytes: number;
  mapBytes: number;
  file: string;
  plain: Load[];
  mapped: Load[];
}

/** Extracts every function zip of a packaged folder under `work`. */
function bundlesOf(pkg: string, label: string, work: string): Bundle[] {
  const zips = readdirSync(pkg)
    .filter((f) => f.endsWith('.zip'))
    .sort();
  if (zips.length === 0) throw new Error(`no function zips in ${pkg}`);
  return zips.map((zip) => {
    const fn = zip.replace(/\.zip$/, '');
    const files = unzip(readFileSync(path.join(pkg, zip)));
    const dir = path.join(work, label, fn);
    for (const [name, data] of files) {
      mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      writeFileSync(path.join(dir, name), data);
    }
    const js = [...files.keys()].find((n) => n.startsWith('functions/') && n.endsWith('.js'));
    if (!js) throw new Error(`${pkg}/${zip} holds no functions/*.js`);
    return {
      label,
      fn,
      zipBytes: statSync(path.join(pkg, zip)).size,
      jsBytes: files.get(js)!.length,
      mapBytes: files.get(`${js}.map`)?.length ?? 0,
      file: path.join(dir, js),
      plain: [],
      mapped: [],
    };
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const mb = (n: number): string => (n / 2 ** 20).toFixed(2);

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  const work = mkdtempSync(path.join(tmpdir(), 'koperator-audit-bundles-'));
  try {
    const dirs = args.packageDirs.length > 0 ? args.packageDirs : [path.join(work, 'package')];
    if (args.packageDirs.length === 0) packageInto(dirs[0]!);
    const bundles = dirs.flatMap((d, i) => bundlesOf(d, `${i + 1}:${path.basename(path.resolve(d))}`, work));
    for (let i = 0; i < args.runs; i++)
      for (const b of bundles) {
        b.plain.push(loadOnce(b.file, false));
        b.mapped.push(loadOnce(b.file, true));
      }
    const ms = (xs: Load[], k: keyof Load): string => median(xs.map((x) => x[k])).toFixed(0);
    const rows = bundles.map(
      (b) =>
        `| ${b.label} | ${b.fn} | ${mb(b.zipBytes)} | ${mb(b.jsBytes)} | ${mb(b.mapBytes)} | ` +
        `${ms(b.plain, 'wall')} (${ms(b.plain, 'cpu')}) | ${ms(b.mapped, 'wall')} (${ms(b.mapped, 'cpu')}) | ` +
        `${ms(b.mapped, 'process')} |`,
    );
    process.stdout.write(
      `Node ${process.version}, ${args.runs} cold loads each, medians; MB are 2^20 bytes, ms wall (CPU):\n\n` +
        '| package | function | zip MB | .js MB | .js.map MB | load ms | load ms, source maps on | whole process ms, source maps on |\n' +
        '| --- | --- | --- | --- | --- | --- | --- | --- |\n' +
        rows.join('\n') +
        '\n',
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (require.main === module) main();
