// Writes examples/pods/: live broker pods as `kubectl get pod -o yaml` prints them, to try
// `explain-pod` without a cluster. Called by generate-examples.ts (which rewrites examples/),
// or on its own:
//
//   npx tsx scripts/example-pods.ts
//
// Deterministic: the simulator's pods with fixed seeds.
import { mkdirSync, writeFileSync } from 'fs';
import { join } from 'path';
import yaml from 'js-yaml';
import { decodeLastApplied, encodeLastApplied, LAST_APPLIED_ANNOTATION } from '../lib/k8s/last-applied';
import { livePodYaml } from '../sim';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const dump = (v: unknown) => yaml.dump(v, { lineWidth: -1, noRefs: true });
const load = (text: string) => yaml.load(text) as Obj;

export function writeExamplePods(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const write = (name: string, text: string) => writeFileSync(join(dir, name), text);

  // The VPA's admission controller rewrote the broker's requests at create.
  const vpa = livePodYaml('vpa', 7, 0);
  write('vpa-broker.yaml', vpa);

  // `kubectl get pods -l app=kafka -o yaml`: three brokers of one KafkaCluster.
  const items = [load(vpa), load(livePodYaml('clean', 8, 1)), load(livePodYaml('istio', 9, 2))];
  write('brokers.yaml', dump({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }));

  // The same pod with the annotation as a person writes it: plain JSON, no `status: {}`.
  const hand = load(vpa);
  const decoded = decodeLastApplied(hand.metadata.annotations[LAST_APPLIED_ANNOTATION]);
  if (!decoded.ok) throw new Error(`the simulator's annotation does not decode: ${decoded.reason}`);
  const { status: _status, ...declared } = decoded.value;
  hand.metadata.annotations[LAST_APPLIED_ANNOTATION] = encodeLastApplied(declared, 'json');
  write('hand-written.yaml', dump(hand));

  // A desired pod copied from the live one, with one edit of the user's own: a memory limit.
  const desired = load(vpa);
  const kafka = desired.spec.containers.find((c: Obj) => c.name === 'kafka');
  kafka.resources.limits.memory = '4Gi';
  write('desired-from-live.yaml', dump(desired));

  write('README.md', README);
}

const README = `# Example pods for \`explain-pod\`

Written by \`npx tsx scripts/example-pods.ts\` (and \`npm run examples\`) from the project's simulator;
do not edit by hand. Live broker pods of the KafkaCluster \`inventory-kafka\`, as
\`kubectl get pod -o yaml\` prints them:

| file | what it is |
|---|---|
| \`vpa-broker.yaml\` | broker 0, whose requests the VPA admission controller rewrote at create (its \`vpaUpdates\` annotation records which) |
| \`brokers.yaml\` | a \`kind: List\` of three brokers (\`kubectl get pods -l app=kafka -o yaml\`): the VPA-mutated one, a clean one, one with an Istio sidecar |
| \`hand-written.yaml\` | the VPA-mutated broker with its \`banzaicloud.com/last-applied\` written as a person would: plain JSON, without the \`status: {}\` koperator's annotator always writes |
| \`desired-from-live.yaml\` | a desired pod copied from the live one, its memory limit edited: for \`--desired\` |

\`\`\`sh
npx koperator-audit explain-pod examples/pods/vpa-broker.yaml
npx koperator-audit explain-pod examples/pods/brokers.yaml --exit-code
npx koperator-audit explain-pod examples/pods/hand-written.yaml
npx koperator-audit explain-pod examples/pods/vpa-broker.yaml --desired examples/pods/desired-from-live.yaml
\`\`\`
`;

if (require.main === module) writeExamplePods(join(__dirname, '..', 'examples', 'pods'));
