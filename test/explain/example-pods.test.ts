// examples/pods/, as a user tries explain-pod without a cluster: the shipped files are what
// the generator writes, each gives the answer docs/cli.md promises, and docs/cli.md shows them.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import * as path from 'path';
import { PassThrough, Readable } from 'stream';
import { main } from '../../lib/cli/main';
import { writeExamplePods } from '../../scripts/example-pods';

const ROOT = path.resolve(__dirname, '..', '..');
const PODS = path.join(ROOT, 'examples', 'pods');

async function run(argv: string[]) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const code = await main(argv, { stdout, stderr, stdin: Readable.from(['']) });
  return { code, out, err };
}

const pod = (name: string) => path.join('examples', 'pods', name);

describe('examples/pods', () => {
  it('are what scripts/example-pods.ts writes', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'example-pods-'));
    try {
      writeExamplePods(dir);
      const files = readdirSync(dir).sort();
      expect(readdirSync(PODS).sort()).toEqual(files);
      for (const f of files)
        expect([f, readFileSync(path.join(PODS, f), 'utf8')]).toEqual([
          f,
          readFileSync(path.join(dir, f), 'utf8'),
        ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each<[string, string[], number, RegExp[]]>([
    [
      'the VPA-mutated broker',
      [pod('vpa-broker.yaml')],
      0,
      [
        /^koperator before the fix \(three-way diff\): RESTARTS the broker$/m,
        /requests\.cpu \(declared → live\): 1 → \d+m {2}\(Vertical Pod Autoscaler admission controller recorded writing it\)/,
        /^koperator with the fix \(intent diff\): leaves it alone$/m,
      ],
    ],
    [
      'the List, with --exit-code',
      [pod('brokers.yaml'), '--exit-code'],
      1,
      [
        /^kafka\/inventory-kafka-0-\w+: RE-CREATED before the fix \(2 field\(s\)\), left alone with the fix\nkafka\/inventory-kafka-1-\w+: left alone before the fix, left alone with the fix\nkafka\/inventory-kafka-2-\w+: left alone before the fix, left alone with the fix\n\n/,
        /Istio sidecar injector/,
      ],
    ],
    [
      'the hand-written annotation',
      [pod('hand-written.yaml')],
      0,
      [
        /^last-applied: found \(json, looks hand-written: status: \{\}\)$/m,
        /the annotation looks hand-written: it lacks what koperator's annotator always writes \(status: \{\}\); real koperator would restart once for that alone/,
      ],
    ],
    [
      'a desired pod copied from the live one',
      [pod('vpa-broker.yaml'), '--desired', pod('desired-from-live.yaml')],
      0,
      [
        /resources\.limits\.memory: 3Gi → 4Gi {2}\(changed in the desired pod\)/,
        /^ {2}and \d+ field\(s\) the API server fills in, copied from the live pod: /m,
        /^what to do: Applying this desired pod is a change of the KafkaCluster/m,
        // Four declared tolerations against two live: koperator's merge, explained where listed.
        /^ {4}why: koperator's toleration merge keeps 2 desired toleration\(s\) with tolerationSeconds \(node\.kubernetes\.io\/not-ready, node\.kubernetes\.io\/unreachable\)[^\n]*restarts the broker for it at every reconcile; these are the API server's default tolerations/m,
      ],
    ],
    [
      'a pod whose memory limit someone else changed',
      [pod('desired-from-live.yaml')],
      0,
      [
        // The VPA's record covers the two requests, not the limit: the limit's writer is unnamed.
        /^what to do: Vertical Pod Autoscaler admission controller rewrites spec\.containers\[name=kafka\]\.resources\.requests\.cpu, spec\.containers\[name=kafka\]\.resources\.requests\.memory at admission, at every pod create; no record shows who changes spec\.containers\[name=kafka\]\.resources\.limits\.memory;/m,
      ],
    ],
  ])('%s', async (_name, args, code, patterns) => {
    const cwd = process.cwd();
    process.chdir(ROOT);
    try {
      const r = await run(['explain-pod', ...args]);
      expect(r.err).toBe('');
      expect(r.code).toBe(code);
      for (const p of patterns) expect(r.out).toMatch(p);
    } finally {
      process.chdir(cwd);
    }
  });

  it('docs/cli.md shows each of them', () => {
    const page = readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8');
    for (const f of readdirSync(PODS).filter((n) => n.endsWith('.yaml')))
      expect([f, page.includes(`examples/pods/${f}`)]).toEqual([f, true]);
  });
});
