// `explain-pod` on live pods the simulator dumps as `kubectl get pod -o yaml` would.
import * as yaml from 'js-yaml';
import { PassThrough, Readable } from 'stream';
import { explainPod } from '../../lib/explain/explain-pod';
import { detectWebhookMarkers } from '../../lib/explain/webhook-markers';
import { main } from '../../lib/cli/main';
import { livePodYaml } from '../../sim';

const podOf = (kind: 'scaleops' | 'clean' | 'istio') =>
  yaml.load(livePodYaml(kind, 11)) as Record<string, unknown>;

type PodSpecLike = { containers: Array<{ resources?: Record<string, Record<string, unknown>> }> };

describe('explainPod', () => {
  it('a ScaleOps-mutated broker: the pre-fix operator reverts the requests, the fix leaves it alone', () => {
    const e = explainPod(podOf('scaleops'));
    expect(e.lastApplied).toMatchObject({ found: true, encoding: 'zip' });
    expect(e.beforeFix.restarts).toBe(true);
    expect(e.afterFix.restarts).toBe(false);
    expect(e.wouldRevert.map((f) => f.path)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^spec\.containers\[name=kafka\]\.resources\.requests\./),
      ]),
    );
    // The simulated webhook leaves no mark on the pod, so none may be claimed.
    expect(e.mutators).toEqual([]);
  });

  it('a clean broker: in sync for both operators', () => {
    const e = explainPod(podOf('clean'));
    expect(e.beforeFix.restarts).toBe(false);
    expect(e.afterFix.restarts).toBe(false);
    expect(e.wouldRevert).toEqual([]);
    expect(e.mutators).toEqual([]);
  });

  it('an istio-injected broker: the sidecar is not a diff, and istio is named as a mutator', () => {
    const e = explainPod(podOf('istio'));
    expect(e.beforeFix.restarts).toBe(false);
    expect(e.mutators.map((m) => m.webhook)).toContain('Istio sidecar injector');
  });

  it('a desired pod with a new memory request restarts the broker under both operators', () => {
    const live = podOf('clean');
    type Container = { name: string; resources?: { requests?: Record<string, string> } };
    type PodShape = { metadata: { annotations: Record<string, string> }; spec: { containers: Container[] } };
    const desired = JSON.parse(JSON.stringify(live)) as PodShape;
    const kafka = desired.spec.containers.find((c) => c.name === 'kafka')!;
    kafka.resources = { ...kafka.resources, requests: { ...kafka.resources?.requests, memory: '9Gi' } };
    delete desired.metadata.annotations['banzaicloud.com/last-applied'];
    const e = explainPod(live, desired as unknown as Record<string, unknown>);
    expect(e.afterFix.restarts).toBe(true);
    expect(e.afterFix.fields.map((f) => f.path)).toContain(
      'spec.containers[name=kafka].resources.requests.memory',
    );
  });

  it('a broker whose live pod Go cannot diff (a webhook respelled 2Gi in another format) is restarted', () => {
    const clean = podOf('clean');
    // One value, two canonical strings: koperator's diff sees a change and reverts it.
    const reformatted = JSON.parse(JSON.stringify(clean));
    const kafka = (reformatted.spec as PodSpecLike).containers[0];
    const memory = kafka.resources?.requests?.memory;
    expect(memory).toBe('2Gi');
    kafka.resources!.requests!.memory = '2147483648';
    expect(explainPod(reformatted).beforeFix.restarts).toBe(true);
    // A live value that cannot decode into the Pod type: the diff fails and koperator restarts.
    const broken = JSON.parse(JSON.stringify(clean));
    (broken.spec as PodSpecLike).containers[0].resources!.requests!.cpu = 'lots';
    const e = explainPod(broken);
    expect(e.beforeFix.restarts).toBe(true);
    expect(e.verdict).toMatch(/cannot compute its diff .*requests\.cpu.*restarts the broker/);
    // No field shows who wrote it: the advice names no one.
    expect(e.recommendation).toMatch(/^Find what wrote the value Go cannot read \(.*requests\.cpu.*\)/);
    expect(e.recommendation).not.toMatch(/unidentified actor|rewrites no pod-spec field/);
  });

  it('a pod without the annotation is not koperator’s', () => {
    const pod = podOf('clean') as { metadata: { annotations: Record<string, string> } };
    delete pod.metadata.annotations['banzaicloud.com/last-applied'];
    const e = explainPod(pod as unknown as Record<string, unknown>);
    expect(e.lastApplied.found).toBe(false);
    expect(e.verdict).toMatch(/not created by koperator/);
  });
});

describe('detectWebhookMarkers', () => {
  it.each([
    ['ScaleOps', { metadata: { annotations: { 'scaleops.sh/managed': 'true' } } }],
    ['Istio sidecar injector', { metadata: {}, spec: { containers: [{ name: 'istio-proxy' }] } }],
    [
      'Vertical Pod Autoscaler admission controller',
      { metadata: { annotations: { vpaUpdates: 'Pod resources updated' } } },
    ],
  ])('recognises %s', (webhook, pod) => {
    expect(detectWebhookMarkers(pod).map((h) => h.webhook)).toEqual([webhook]);
  });
});

describe('koperator-audit explain-pod', () => {
  async function run(argv: string[], stdinText = '') {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (d) => (out += d));
    stderr.on('data', (d) => (err += d));
    const code = await main(argv, { stdout, stderr, stdin: Readable.from([stdinText]) });
    return { code, out, err };
  }

  it('reads YAML from stdin and prints the verdict', async () => {
    const r = await run(['explain-pod', '-'], livePodYaml('scaleops', 11));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/koperator before the fix \(three-way diff\): RESTARTS the broker/);
    expect(r.out).toMatch(/koperator with the fix \(intent diff\): leaves it alone/);
  });

  it('prints JSON with --format json', async () => {
    const r = await run(['explain-pod', '-', '--format', 'json'], livePodYaml('clean', 11));
    expect(JSON.parse(r.out)).toMatchObject({
      beforeFix: { restarts: false },
      afterFix: { restarts: false },
    });
  });

  it('rejects input that is not a pod with exit 2 and a message', async () => {
    const r = await run(['explain-pod', '-'], 'kind: ConfigMap\ndata: {}\n');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/not a Pod/);
  });
});

describe('explain-pod on hostile input', () => {
  it('refuses a YAML alias bomb instead of hanging', async () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
      .concat(
        'bcdefghij'.split('').map(
          (c, i) =>
            `${c}: &${c} [${Array(9)
              .fill('*' + 'abcdefghij'[i])
              .join(',')}]`,
        ),
      )
      .concat(['kind: Pod', 'spec: *j'])
      .join('\n');
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let err = '';
    stderr.on('data', (d) => (err += d));
    const started = Date.now();
    const code = await main(['explain-pod', '-'], { stdout, stderr, stdin: Readable.from([bomb]) });
    expect(code).toBe(2);
    expect(err).toMatch(/expands to more than/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('shows env values only for allowlisted names', () => {
    const live = podOf('clean') as {
      spec: { containers: Array<{ name: string; env?: Array<{ name: string; value?: string }> }> };
    };
    const kafka = live.spec.containers.find((c) => c.name === 'kafka')!;
    kafka.env = [
      ...(kafka.env ?? []).filter((e) => e.name !== 'KAFKA_HEAP_OPTS'),
      { name: 'KAFKA_HEAP_OPTS', value: '-Xmx1G' },
    ];
    const e = explainPod(live as unknown as Record<string, unknown>);
    const heap = e.wouldRevert.find((f) => f.path.endsWith('env[name=KAFKA_HEAP_OPTS].value'));
    expect(heap?.to).toBe('-Xmx1G');
    const secretLive = podOf('clean') as typeof live;
    secretLive.spec.containers
      .find((c) => c.name === 'kafka')!
      .env!.push({ name: 'DB_PASSWORD', value: 'hunter2' });
    expect(JSON.stringify(explainPod(secretLive as unknown as Record<string, unknown>))).not.toContain(
      'hunter2',
    );
  });
});
