// `koperator-audit explain-pod FILE|-`: the first command an SRE runs in an incident.
import { promises as fs } from 'fs';
import { parseArgs } from 'util';
import { loadYamlBounded } from '../config/safe-yaml';
import { explainPod, renderExplanation } from '../explain/explain-pod';
import { UsageError, type CliIo } from './io';

export const EXPLAIN_HELP = `Usage: koperator-audit explain-pod FILE|- [--desired FILE] [--format text|json]

Reads a live broker pod as printed by \`kubectl get pod -o yaml\` (or -o json), decodes
its banzaicloud.com/last-applied annotation and tells, with no logs at all:
  - which fields koperator before the fix would revert on its next reconcile
    (three-way diff; with no --desired the KafkaCluster is taken as unchanged),
  - which mutating webhooks left traces on the pod,
  - whether the intent-aware operator (0.30.0-rc1+) would restart it.

  FILE | -          the pod (YAML or JSON); - reads stdin
  --desired FILE    a desired pod to compare against instead of the last-applied one
  --format FORMAT   text (default) or json
  -h, --help        this text
`;

export async function runExplain(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      desired: { type: 'string' },
      format: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    io.stdout.write(EXPLAIN_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('explain-pod needs exactly one FILE (or - for stdin)');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError('--format must be text or json');
  const live = await readPod(positionals[0], io);
  const desired = values.desired ? await readPod(values.desired, io) : undefined;
  const explanation = explainPod(live, desired);
  io.stdout.write(
    format === 'json' ? JSON.stringify(explanation, null, 2) + '\n' : renderExplanation(explanation),
  );
  return 0;
}

async function readPod(file: string, io: CliIo): Promise<Record<string, unknown>> {
  const text = file === '-' ? await readAll(io.stdin) : await fs.readFile(file, 'utf8');
  let doc: unknown;
  try {
    doc = loadYamlBounded(text);
  } catch (e) {
    throw new UsageError(`${file}: not YAML or JSON (${(e as Error).message.split('\n')[0]})`);
  }
  if (doc && typeof doc === 'object' && !Array.isArray(doc)) {
    const obj = doc as Record<string, unknown>;
    // `kubectl get pods -o yaml` wraps even one pod in a List.
    if (obj.kind === 'List' && Array.isArray(obj.items) && obj.items.length === 1) {
      return obj.items[0] as Record<string, unknown>;
    }
    if (obj.kind === 'Pod' || obj.spec) return obj;
  }
  throw new UsageError(`${file}: not a Pod`);
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(String(c)));
  return Buffer.concat(chunks).toString('utf8');
}
