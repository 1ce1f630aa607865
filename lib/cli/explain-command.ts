// `koperator-audit explain-pod FILE|-`: the first command an SRE runs in an incident.
// Takes one pod or the `kind: List` that `kubectl get pods -o yaml` prints; anything else
// (a Deployment, an empty file) is a usage error with one line saying what it was.
import { promises as fs } from 'fs';
import { loadYamlBounded } from '../config/safe-yaml';
import {
  anyExplanationLine,
  explainAnyPod,
  renderAnyExplanation,
  wouldBeRecreated,
} from '../explain/explain-unit-pod';
import { EXIT } from './exit-codes';
import { parseFlags } from './flags';
import { UsageError, type CliIo } from './io';

export const EXPLAIN_HELP = `Usage: koperator-audit explain-pod FILE|- [--desired FILE] [-o text|json] [--exit-code]
       koperator-audit explain-pod -f FILE ...   (as kubectl takes a file)

Reads live broker pods as printed by \`kubectl get pod X -o yaml\` or
\`kubectl get pods -l app=kafka -o yaml\` (a List: every pod in it is explained, one
line each, then the details), decodes the banzaicloud.com/last-applied annotation and
tells, with no logs at all:
  - which fields koperator before the fix would revert on its next reconcile
    (three-way diff; with no --desired the KafkaCluster is taken as unchanged: the
    desired pod is the annotation as koperator's marshalling writes it, and an
    annotation written another way is named as hand-written),
  - which mutating webhooks left traces on the pod,
  - whether the intent-aware operator (0.30.0-rc1+) would restart it,
  - what to do about it.
A NiFi node pod (labels nifi_cr and nodeId, or a NifiCluster owner) is explained as
NiFiKop's: for each range of NiFiKop versions that decides differently, whether it
would delete the pod, for which fields, and from which version on it is kept.

  FILE | -          the pod or List of pods (YAML or JSON); - reads stdin
  -f, --filename F  the same, as a flag (kubectl's -f)
  --desired FILE    a desired pod to compare against instead of the last-applied one
                    (one copied from the live pod: what the API server fills in is marked)
  -o, --format FMT  text (default) or json (an object for one pod, an array for a List)
  --exit-code       exit 1 when koperator before the fix (NiFiKop: its newest
                    version) would re-create a pod
  -h, --help        this text

Exit status
  0  explained (and, with --exit-code, no pod would be re-created)
  1  with --exit-code: koperator before the fix (NiFiKop: its newest version)
     would re-create at least one pod
  2  usage error: a bad flag, a missing or empty file, not YAML, not a Pod
`;

export async function runExplain(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    options: {
      filename: { type: 'string', short: 'f' },
      desired: { type: 'string' },
      format: { type: 'string', short: 'o' },
      'exit-code': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: true,
  });
  if (values.help) {
    io.stdout.write(EXPLAIN_HELP);
    return EXIT.ok;
  }
  const files = [...positionals, ...(values.filename !== undefined ? [values.filename] : [])];
  if (files.length !== 1) throw new UsageError('explain-pod needs exactly one FILE (or - for stdin)');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`-o/--format must be text or json (got "${format}")`);
  const { pods, list } = await readPods(files[0], io);
  let desired: Record<string, unknown> | undefined;
  if (values.desired) {
    const d = await readPods(values.desired, io);
    if (d.pods.length !== 1) throw new UsageError(`--desired ${values.desired}: needs exactly one pod`);
    desired = d.pods[0];
  }
  const explanations = pods.map((p) => explainAnyPod(p, desired));
  if (format === 'json') {
    io.stdout.write(JSON.stringify(list ? explanations : explanations[0], null, 2) + '\n');
  } else if (!list) {
    io.stdout.write(renderAnyExplanation(explanations[0]));
  } else {
    const lines = explanations.map(anyExplanationLine);
    io.stdout.write(`${lines.join('\n')}\n\n${explanations.map(renderAnyExplanation).join('\n')}`);
  }
  const restarts = explanations.some(wouldBeRecreated);
  return values['exit-code'] && restarts ? EXIT.matched : EXIT.ok;
}

async function readText(file: string, io: CliIo): Promise<string> {
  if (file === '-') return readAll(io.stdin);
  try {
    return await fs.readFile(file, 'utf8');
  } catch (e) {
    const code = (e as { code?: string }).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES'
          ? 'permission denied'
          : code === 'EISDIR'
            ? 'a folder, not a file'
            : (e as Error).message;
    throw new UsageError(`${file}: ${why}`);
  }
}

async function readPods(
  file: string,
  io: CliIo,
): Promise<{ pods: Record<string, unknown>[]; list: boolean }> {
  const name = file === '-' ? 'standard input' : file;
  const text = await readText(file, io);
  if (text.trim() === '') throw new UsageError(`${name}: empty (expected a Pod as YAML or JSON)`);
  let doc: unknown;
  try {
    doc = loadYamlBounded(text);
  } catch (e) {
    throw new UsageError(`${name}: not YAML or JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new UsageError(`${name}: not a Pod (expected a YAML or JSON object)`);
  const obj = doc as Record<string, unknown>;
  // `kubectl get pods -o yaml` prints a List, even of one pod.
  if (obj.kind === 'List' || obj.kind === 'PodList') {
    const items = Array.isArray(obj.items) ? obj.items : [];
    if (items.length === 0) throw new UsageError(`${name}: a List with no items (no pod to explain)`);
    items.forEach((item, i) => assertPod(item, `${name}: item ${i + 1}`));
    return { pods: items as Record<string, unknown>[], list: true };
  }
  assertPod(obj, name);
  return { pods: [obj], list: false };
}

function assertPod(v: unknown, where: string): void {
  const obj = v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  if (!obj) throw new UsageError(`${where}: not a Pod`);
  if (obj.kind === 'Pod' || (obj.kind === undefined && obj.spec && obj.metadata)) return;
  const kind = typeof obj.kind === 'string' ? obj.kind : 'none';
  throw new UsageError(`${where}: not a Pod (kind ${kind})`);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks).toString('utf8');
}
